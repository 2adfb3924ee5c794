import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOGUE, PROFILE_IDS } from '../src/rules/index.js';
import { checkOutputs } from '../src/scenario/check.js';
import { parseScenarioText } from '../src/scenario/load.js';
import { replayEvents } from '../src/table/table.js';

const ROOT = join(import.meta.dirname, '..');
const FOLDERS = [join(ROOT, 'test/scenarios'), join(ROOT, '../shared/scenarios')];

function scenarioFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => ['.yaml', '.yml', '.json'].includes(extname(name)))
    .sort()
    .map((name) => join(folder, name));
}

const files = FOLDERS.flatMap(scenarioFiles);

/** `profile incident ruling` of every incident the corpus raises. */
const raised = new Set<string>();

describe('scenario corpus: every file passes `croupier replay --check`', () => {
  it('has a corpus', () => {
    expect(files.length).toBeGreaterThan(4);
  });

  it.each(files.map((file) => [relative(ROOT, file), file]))('%s', (_name, file) => {
    const scenario = parseScenarioText(readFileSync(file, 'utf8'), file);
    const { seats, orderWindowMs } = scenario.table;
    const outputs = replayEvents({ seats, orderWindowMs, profile: scenario.profile }, scenario.events);
    expect(checkOutputs(scenario.expect, outputs, scenario.codeOf)).toEqual([]);
    for (const o of outputs) {
      raised.add(`${scenario.profile.id} ${o.kind === 'incident' ? `${o.incident} ${o.ruling}` : o.prompt}`);
    }
  });

  it('exercises every ruling of every row of RULINGS.md under every profile', () => {
    const wanted = CATALOGUE.flatMap((entry) =>
      PROFILE_IDS.map((id) => `${id} ${entry.facts.incident} ${entry.expected[id]}`),
    );
    const prompts = PROFILE_IDS.map((id) => `${id} ALL_IN_SHOWDOWN`);
    expect([...new Set([...wanted, ...prompts])].filter((w) => !raised.has(w))).toEqual([]);
  });
});
