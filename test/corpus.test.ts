import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOGUE, PROFILE_IDS } from '../src/rules/index.js';
import { checkOutputs } from '../src/scenario/check.js';
import { parseScenarioText } from '../src/scenario/load.js';
import { initialContext, reduce } from '../src/table/reduce.js';
import type { TableContext } from '../src/table/state.js';
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

  // The machine is pure: no step changes what an earlier snapshot holds, however the hand goes.
  it.each(files.map((file) => [relative(ROOT, file), file]))(
    '%s leaves every earlier context untouched',
    (_name, file) => {
      const scenario = parseScenarioText(readFileSync(file, 'utf8'), file);
      const { seats, orderWindowMs } = scenario.table;
      let ctx = frozen(initialContext({ seats, orderWindowMs, profile: scenario.profile }));
      for (const event of scenario.events) ctx = frozen(reduce(ctx, event));
      expect(ctx.hands).toBe(scenario.events.filter((event) => event.type === 'hand.start').length);
    },
  );

  it('exercises every ruling of every row of RULINGS.md under every profile', () => {
    const wanted = CATALOGUE.flatMap((entry) =>
      PROFILE_IDS.map((id) => `${id} ${entry.facts.incident} ${entry.expected[id]}`),
    );
    const prompts = PROFILE_IDS.map((id) => `${id} ALL_IN_SHOWDOWN`);
    expect([...new Set([...wanted, ...prompts])].filter((w) => !raised.has(w))).toEqual([]);
  });
});
