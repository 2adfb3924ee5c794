import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TableOutput } from '../src/rules/types.js';
import { loadScenario, parseScenarioText, type Scenario } from '../src/scenario/load.js';
import { replayEvents } from '../src/table/table.js';
import { generateSession } from './soak/clean-hands.js';

/**
 * Raising a fact at its own read (DESIGN.md "Real time") changes when an incident comes out, never
 * what it is: the corpus, the shared scenarios and the soak replayed with every read held to the end of
 * its window, and with facts judged at their read, give the same incidents and prompts, with the same
 * rulings, seats, cards and `at`.
 */

const ROOT = join(import.meta.dirname, '..');
const files = [join(ROOT, 'test/scenarios'), join(ROOT, '../shared/scenarios')].flatMap((folder) =>
  readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => ['.yaml', '.yml', '.json'].includes(extname(name)))
    .sort()
    .map((name) => join(folder, name)),
);

/** The outputs in the order of the events they are about (one raised earlier may precede another). */
function byEvent(outputs: readonly TableOutput[]): string[] {
  return outputs.map((output) => JSON.stringify(output)).sort();
}

function bothWays(scenario: Scenario) {
  const held = replayEvents({ ...scenario.config, factsAtRead: false }, scenario.events);
  const early = replayEvents({ ...scenario.config, factsAtRead: true }, scenario.events);
  return { held: byEvent(held), early: byEvent(early) };
}

describe('facts raised at their read, the same as held to the end of the window', () => {
  it.each(files.map((file) => [file.slice(ROOT.length + 1), file]))('%s', (_name, file) => {
    const { held, early } = bothWays(parseScenarioText(readFileSync(file, 'utf8'), file));
    expect(early).toEqual(held);
  });

  it('10,000 soak hands', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const { held, early } = bothWays(loadScenario(generateSession(seed, 50), `soak seed ${seed}`));
      expect(early, `soak seed ${seed}`).toEqual(held);
    }
  });
});
