import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { CardRef } from '../domain/cards.js';
import type { TableOutput } from '../rules/types.js';
import { checkOutputs } from '../scenario/check.js';
import { ScenarioError } from '../scenario/errors.js';
import { parseScenarioText, type Scenario } from '../scenario/load.js';
import { type Replay, replayWithProgress } from '../scenario/progress.js';

const SCENARIO_EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

/**
 * `croupier replay`: runs each scenario through the table machine, prints one JSON line per incident,
 * prompt or award, and with `check` compares with the file's `expect`. Resolves to the exit code: 2 when a file
 * cannot be read or is malformed (the other files still run), else 1 when a check found differences.
 */
export async function replay(paths: readonly string[], { check }: { check: boolean }): Promise<number> {
  let files: string[];
  try {
    files = (await Promise.all(paths.map(scenarioFiles))).flat();
  } catch (error) {
    return refuse(error);
  }
  if (files.length === 0) {
    process.stderr.write(`croupier: no scenario files (.yaml, .yml, .json) in ${paths.join(', ')}\n`);
    return 2;
  }
  let exitCode = 0;
  for (const file of files) {
    exitCode = Math.max(exitCode, await replayFile(file, { check, withFile: files.length > 1 }));
  }
  return exitCode;
}

/** A directory stands for the scenario files in it and its subdirectories, sorted by path. */
async function scenarioFiles(path: string): Promise<string[]> {
  if (!(await stat(path)).isDirectory()) return [path];
  const names = await readdir(path, { recursive: true });
  return names
    .filter((name) => SCENARIO_EXTENSIONS.has(extname(name)))
    .sort()
    .map((name) => join(path, name));
}

async function replayFile(
  file: string,
  { check, withFile }: { check: boolean; withFile: boolean },
): Promise<number> {
  let scenario: Scenario;
  try {
    scenario = parseScenarioText(await readFile(file, 'utf8'), file);
  } catch (error) {
    return refuse(error);
  }
  const { config, events, codeOf } = scenario;
  let replayed: Replay;
  try {
    // The procedures' progress too: --check compares it with the steps a file expects.
    replayed = replayWithProgress(config, events);
  } catch (error) {
    // A machine that throws is a bug: keep its stack, but say which file brought it out.
    throw new Error(`${file}: the table machine failed`, { cause: error });
  }
  for (const output of replayed.outputs) {
    process.stdout.write(`${JSON.stringify(outputLine(output, codeOf, withFile ? file : undefined))}\n`);
  }
  if (!check) return 0;
  const differences = checkOutputs(scenario.expect, replayed, codeOf);
  for (const difference of differences) process.stderr.write(`FAIL ${file}: ${difference}\n`);
  if (differences.length > 0) return 1;
  process.stderr.write(`ok ${file}\n`);
  return 0;
}

/** Bad input (a malformed scenario, a file that cannot be read) is reported in one line, exit code 2. */
function refuse(error: unknown): number {
  if (error instanceof ScenarioError) process.stderr.write(`${error.message}\n`);
  else if (error instanceof Error && 'syscall' in error) process.stderr.write(`croupier: ${error.message}\n`);
  else throw error;
  return 2;
}

/** The output line of DESIGN.md: fields in a fixed order, cards in the scenario's notation; undefined ones drop out. */
function outputLine(
  output: TableOutput,
  codeOf: (card: CardRef) => string,
  file: string | undefined,
): object {
  if (output.kind === 'award') {
    const { kind, at, pot, amount, eligible, winners, shares, hands, rule } = output;
    return { file, kind, at, pot, amount, eligible, winners, shares, hands, rule };
  }
  const { kind, at, seats, rule, steps } = output;
  return output.kind === 'incident'
    ? {
        file,
        kind,
        at,
        incident: output.incident,
        ruling: output.ruling,
        seats,
        cards: output.cards.map(codeOf),
        rule,
        floor: output.floor,
        reason: output.reason,
        steps,
      }
    : {
        file,
        kind,
        at,
        prompt: output.prompt,
        seats,
        // The showdown's prompts: the uncalled amount, the pots, the ranking of the tabled hands.
        amount: output.amount,
        pots: output.pots,
        ranking: output.ranking,
        hands: output.hands,
        rule,
        steps,
      };
}
