import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../src/domain/events.js';
import type { TableOutput } from '../src/rules/types.js';
import { loadScenario, parseScenarioText, type Scenario } from '../src/scenario/load.js';
import { startTable, step } from '../src/table/machine.js';
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

function bothWays(scenario: Scenario, events: readonly DomainEvent[] = scenario.events) {
  const held = replayEvents({ ...scenario.config, factsAtRead: false }, events);
  const early = replayEvents({ ...scenario.config, factsAtRead: true }, events);
  return { held: byEvent(held), early: byEvent(early) };
}

/** A round as long as the window: the reads the generator inverts, closer than it, are of adjacent rounds. */
const ROUND_MS = 300;

/**
 * The events as a board that reports its rounds would bring them: each read carries its round (one
 * every ROUND_MS), and the end of its round and of the next one settle, as the live pipeline sends
 * them. A settle keeps the number of the event before it, as at the end of a replay, so the file's
 * events keep theirs.
 */
function readByRounds(events: readonly DomainEvent[]): DomainEvent[] {
  const round = (t: number) => Math.floor(t / ROUND_MS);
  const ends = [
    ...new Set(events.flatMap((e) => (e.type === 'card.seen' ? [round(e.t), round(e.t) + 1] : []))),
  ].sort((a, b) => a - b);
  const out: DomainEvent[] = [];
  let next = 0;
  for (const event of events) {
    // A round's end comes before any event of the next round (the board reads on after it).
    for (; next < ends.length && ((ends[next] as number) + 1) * ROUND_MS <= event.t; next++) {
      const n = ends[next] as number;
      out.push({
        type: 'settle',
        t: (n + 1) * ROUND_MS,
        seq: out.at(-1)?.seq ?? 0,
        round: { reader: 'rfid-1', n },
      });
    }
    out.push(
      event.type === 'card.seen' ? { ...event, round: { reader: 'rfid-1', n: round(event.t) } } : event,
    );
  }
  return out;
}

describe('facts raised at their read, the same as held to the end of the window', () => {
  it.each(files.map((file) => [file.slice(ROOT.length + 1), file]))('%s', (_name, file) => {
    const { held, early } = bothWays(parseScenarioText(readFileSync(file, 'utf8'), file));
    expect(early).toEqual(held);
  });

  it.each(files.map((file) => [file.slice(ROOT.length + 1), file]))('%s, read by rounds', (_name, file) => {
    const scenario = parseScenarioText(readFileSync(file, 'utf8'), file);
    const { held, early } = bothWays(scenario, readByRounds(scenario.events));
    expect(early).toEqual(held);
  });

  it('raises each kind of fact at its own read somewhere in the corpus, and none when reads are held', () => {
    const atRead = (factsAtRead: boolean) =>
      files.flatMap((file) => {
        const scenario = parseScenarioText(readFileSync(file, 'utf8'), file);
        let table = startTable({ ...scenario.config, factsAtRead });
        return scenario.events.flatMap((event) => {
          table = step(table, event);
          return event.type === 'card.seen'
            ? table.context.outputs.flatMap((output) =>
                output.kind === 'incident' && output.at === event.seq ? [output.incident] : [],
              )
            : [];
        });
      });
    // A tag no deck knows, a card of the other deck, a card to a seat out of the hand, a premature turn or river.
    expect(new Set(atRead(true))).toEqual(
      new Set(['FOREIGN_CARD', 'MIXED_DECK', 'CARD_TO_WRONG_SEAT', 'PREMATURE_TURN', 'PREMATURE_RIVER']),
    );
    expect(atRead(false)).toEqual([]);
  });

  it('2,000 soak hands read by rounds', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const scenario = loadScenario(generateSession(seed, 50), `soak seed ${seed}`);
      const { held, early } = bothWays(scenario, readByRounds(scenario.events));
      expect(early, `soak seed ${seed}`).toEqual(held);
      expect(held, `soak seed ${seed}`).toEqual(bothWays(scenario).held);
    }
  });

  it('10,000 soak hands', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const { held, early } = bothWays(loadScenario(generateSession(seed, 50), `soak seed ${seed}`));
      expect(early, `soak seed ${seed}`).toEqual(held);
    }
  });
});
