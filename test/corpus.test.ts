import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROFILE_IDS } from '../src/rules/index.js';
import { INCIDENTS, type TableOutput } from '../src/rules/types.js';
import { checkOutputs } from '../src/scenario/check.js';
import { parseScenarioText } from '../src/scenario/load.js';
import { replayWithProgress } from '../src/scenario/progress.js';
import { startTable, step } from '../src/table/machine.js';
import type { TableContext } from '../src/table/state.js';
import { CATALOGUE } from './rulings-catalogue.js';
import { rulingsOfTables } from './rulings-tables.js';

const ROOT = join(import.meta.dirname, '..');
const FOLDERS = [join(ROOT, 'test/scenarios'), join(ROOT, '../shared/scenarios')];
const RULINGS_MD = join(ROOT, '../shared/RULINGS.md');
/**
 * Incidents of RULINGS.md's tables the machine does not raise yet (none since the showdown's
 * WINNING_HAND_MUCKED): their rows are asked of the corpus as soon as it does ("leaves out of the
 * tables only incidents the machine does not raise yet").
 */
const NOT_BUILT: ReadonlySet<string> = new Set([]);

function scenarioFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => ['.yaml', '.yml', '.json'].includes(extname(name)))
    .sort()
    .map((name) => join(folder, name));
}

const files = FOLDERS.flatMap(scenarioFiles);

/** Freezes a context deeply, its rulebook aside: a later step that changes it in place throws. */
function frozen(ctx: TableContext): TableContext {
  const freeze = (value: unknown): void => {
    if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
    Object.freeze(value);
    for (const inner of Object.values(value)) freeze(inner);
  };
  for (const [key, value] of Object.entries(ctx)) if (key !== 'profile') freeze(value);
  return Object.freeze(ctx);
}

/** `profile incident ruling` of an incident, `profile prompt` of a prompt. */
function keyOf(profile: string, output: TableOutput): string {
  return `${profile} ${output.kind === 'incident' ? `${output.incident} ${output.ruling}` : output.kind === 'prompt' ? output.prompt : 'award'}`;
}

const replays = new Map<string, { differences: string[]; raised: string[] }>();

/** A file's replay against its `expect`, once: the coverage tests read it whatever tests were run. */
function replay(file: string): { differences: string[]; raised: string[] } {
  let done = replays.get(file);
  if (done === undefined) {
    const scenario = parseScenarioText(readFileSync(file, 'utf8'), file);
    const replayed = replayWithProgress(scenario.config, scenario.events);
    done = {
      differences: checkOutputs(scenario.expect, replayed, scenario.codeOf),
      raised: replayed.outputs.map((output) => keyOf(scenario.profile.id, output)),
    };
    replays.set(file, done);
  }
  return done;
}

/**
 * What the corpus raises, from its files alone (a ruling only a unit test reaches is not in it), and
 * only from files that pass their check: a failing file vouches for nothing.
 */
function raisedByCorpus(): Set<string> {
  return new Set(files.flatMap((file) => (replay(file).differences.length === 0 ? replay(file).raised : [])));
}

describe('scenario corpus: every file passes `croupier replay --check`', () => {
  it('has a corpus', () => {
    expect(files.length).toBeGreaterThan(4);
  });

  it.each(files.map((file) => [relative(ROOT, file), file]))('%s', (_name, file) => {
    expect(replay(file).differences).toEqual([]);
  });

  // The machine is pure: no step changes what an earlier snapshot holds, however the hand goes.
  it.each(files.map((file) => [relative(ROOT, file), file]))(
    '%s leaves every earlier context untouched',
    (_name, file) => {
      const scenario = parseScenarioText(readFileSync(file, 'utf8'), file);
      let table = startTable(scenario.config);
      frozen(table.context);
      for (const event of scenario.events) {
        table = step(table, event);
        frozen(table.context);
      }
      const ctx = table.context;
      const starts = scenario.events.filter(
        (event) => event.type === 'hand.start' || (event.type === 'dealer' && event.input === 'next-hand'),
      );
      expect(ctx.hands).toBe(starts.length);
    },
  );

  it('raises every (incident, ruling, profile) of the incident tables of RULINGS.md', () => {
    const profiles: readonly string[] = PROFILE_IDS;
    const wanted = rulingsOfTables(readFileSync(RULINGS_MD, 'utf8'), PROFILE_IDS)
      .filter(({ profile, incident }) => profiles.includes(profile) && !NOT_BUILT.has(incident))
      .map(({ profile, incident, ruling }) => `${profile} ${incident}${ruling === null ? '' : ` ${ruling}`}`);
    const raised = raisedByCorpus();
    expect([...new Set(wanted)].filter((w) => !raised.has(w))).toEqual([]);
  });

  // The catalogue adds branches the tables leave to prose (an exposed card after the deal, a
  // procedure the sensors contradict): each is asked of the corpus too.
  it('raises every ruling of every entry of the rules catalogue under every profile', () => {
    const wanted = CATALOGUE.flatMap((entry) =>
      PROFILE_IDS.map((id) => `${id} ${entry.facts.incident} ${entry.expected[id]}`),
    );
    const raised = raisedByCorpus();
    expect([...new Set(wanted)].filter((w) => !raised.has(w))).toEqual([]);
  });

  it('leaves out of the tables only incidents the machine does not raise yet', () => {
    expect(INCIDENTS.filter((incident) => NOT_BUILT.has(incident))).toEqual([]);
  });
});
