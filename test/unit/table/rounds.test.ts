import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../../src/domain/events.js';
import { PROFILES } from '../../../src/rules/index.js';
import type { TableOutput } from '../../../src/rules/types.js';
import { loadScenario } from '../../../src/scenario/load.js';
import { startTable, step } from '../../../src/table/machine.js';
import { nextSettle, settleJudges } from '../../../src/table/reduce.js';
import type { TableContext } from '../../../src/table/state.js';

/*
 * Reads of a reader board that reports its rounds (DESIGN.md "Real time"): two reads of adjacent rounds
 * may be inverted, and a read is settled once the round after its own has ended. The board here reads
 * a round every 100 ms: round n covers [100 n, 100 n + 100).
 */

const READER = 'rfid-1';
const ROUND_MS = 100;
const WINDOW_MS = 300;

/** Button 9, players 1 2 3 5 6 9: the deal goes 1 2 3 5 6 9. Card events' times are given in ms. */
function events(cards: [number, string, string][], rounds = true): DomainEvent[] {
  const scenario = loadScenario(
    {
      name: 'rounds',
      profile: 'main-event-2014',
      table: { seats: 9 },
      decks: ['A'],
      events: [
        { t: 0, 'hand.start': { button: 9, players: [1, 2, 3, 5, 6, 9], blinds: [50, 100], deck: 'A' } },
        ...cards.map(([t, zone, card]) => ({ t, card: { zone, card } })),
      ],
    },
    'rounds.yaml',
  );
  return scenario.events.map((event) =>
    event.type === 'card.seen' && rounds
      ? { ...event, round: { reader: READER, n: Math.floor(event.t / ROUND_MS) } }
      : event,
  );
}

const config = () => ({ seats: 9, profile: PROFILES['main-event-2014'], orderWindowMs: WINDOW_MS });

/** The table fed `events`, and each output with the event that brought it out. */
function play(list: readonly DomainEvent[]): {
  ctx: TableContext;
  outputs: { after: number; output: TableOutput }[];
} {
  let table = startTable(config());
  const outputs: { after: number; output: TableOutput }[] = [];
  for (const event of list) {
    table = step(table, event);
    for (const output of table.context.outputs) outputs.push({ after: event.seq, output });
  }
  return { ctx: table.context, outputs };
}

/** The board's round `n` ended: a settle at its end, as the live pipeline sends one. */
const roundEnded = (n: number, seq: number): DomainEvent => ({
  type: 'settle',
  t: (n + 1) * ROUND_MS,
  seq,
  round: { reader: READER, n },
});

const skipped = (list: readonly DomainEvent[]) =>
  play(list).outputs.filter(({ output }) => output.kind === 'incident' && output.incident === 'SEAT_SKIPPED');

describe('the table on a board that reports its rounds', () => {
  // Seat 3 passed over: the third card goes to seat 5, in round 15. The rounds after the first two
  // cards' ended long before it.
  const [start, seat1, seat2, seat5] = events([
    [500, 'seat:1', '8d'],
    [1000, 'seat:2', '5s'],
    [1520, 'seat:5', 'Ad'],
  ]) as [DomainEvent, DomainEvent, DomainEvent, DomainEvent];
  const deal = [start, seat1, roundEnded(6, 2), seat2, roundEnded(11, 4), { ...seat5, seq: 5 }];

  it('holds a read until the round after its own has ended, then rules at once', () => {
    const seq = deal.length;
    expect(skipped([...deal, roundEnded(15, seq)])).toEqual([]);
    expect(skipped([...deal, roundEnded(15, seq), roundEnded(16, seq + 1)])).toEqual([
      { after: seq + 1, output: expect.objectContaining({ at: 5 }) },
    ]);
    // 180 ms after the read: time alone would still hold it.
    expect(settleJudges(play(deal).ctx, 1700, { reader: READER, n: 16 })).toBe(true);
    expect(settleJudges(play(deal).ctx, 1700)).toBe(false);
  });

  it('takes a round end of another reader for none of its own', () => {
    const other = { type: 'settle' as const, t: 1700, seq: deal.length, round: { reader: 'rfid-2', n: 16 } };
    expect(skipped([...deal, other])).toEqual([]);
  });

  it('puts reads of adjacent rounds in deal order, and keeps the order of reads two rounds apart', () => {
    // Seat 5's card is read first, seat 3's in the next round: one cycle, no skip.
    const adjacent = events([
      [500, 'seat:1', '5c'],
      [1000, 'seat:2', '8c'],
      [1590, 'seat:5', '6c'],
      [1610, 'seat:3', '5d'],
    ]);
    expect(
      skipped([...adjacent, roundEnded(16, adjacent.length), roundEnded(17, adjacent.length + 1)]),
    ).toEqual([]);
    // 200 ms apart, inside the time window, but two rounds apart: the board read seat 5's card first.
    const apart = events([
      [500, 'seat:1', '5c'],
      [1000, 'seat:2', '8c'],
      [1510, 'seat:5', '6c'],
      [1710, 'seat:3', '5d'],
    ]);
    expect(skipped([...apart, roundEnded(16, apart.length), roundEnded(17, apart.length + 1)])).toHaveLength(
      1,
    );
    // The same reads from a board that does not report rounds are one cycle of the time window.
    const timed = events(
      [
        [500, 'seat:1', '5c'],
        [1000, 'seat:2', '8c'],
        [1510, 'seat:5', '6c'],
        [1710, 'seat:3', '5d'],
      ],
      false,
    );
    expect(skipped([...timed, { type: 'settle', t: 5000, seq: timed.length }])).toEqual([]);
  });

  it('settles a read by time when its board stops reporting rounds: twice the window after it', () => {
    const { ctx } = play(deal);
    expect(nextSettle(ctx)).toBe(1520 + 2 * WINDOW_MS);
    expect(settleJudges(ctx, 1520 + 2 * WINDOW_MS - 1)).toBe(false);
    expect(skipped([...deal, { type: 'settle', t: 1520 + 2 * WINDOW_MS, seq: deal.length }])).toHaveLength(1);
  });

  it('wakes the live table when a read of a board without rounds is a window old', () => {
    const timed = events([[500, 'seat:1', '8d']], false);
    expect(nextSettle(play(timed).ctx)).toBe(500 + WINDOW_MS);
    expect(nextSettle(play(timed.slice(0, 1)).ctx)).toBeNull();
  });
});
