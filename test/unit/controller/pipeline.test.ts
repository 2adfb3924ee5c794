import { of, Subject, VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { type SourceEvent, type TableUpdate, tablePipeline } from '../../../src/controller/pipeline.js';
import type { Face } from '../../../src/domain/cards.js';
import { DeckRegistry } from '../../../src/domain/deck-registry.js';
import type { CardSeen, DomainEvent } from '../../../src/domain/events.js';
import type { Zone } from '../../../src/domain/zones.js';
import type { Journal } from '../../../src/journal/store.js';
import { PROFILES } from '../../../src/rules/index.js';
import { tableMachine } from '../../../src/table/machine.js';

/*
 * The live table's clock (DESIGN.md "Real time"): the pipeline sends a `settle` at the exact instant a
 * held read's window ends, or when a reader's round end settles one; never on a fixed tick.
 */

const WINDOW_MS = 300;
const registry = DeckRegistry.forScenario(['A']);
const card = (face: Face) => ({ uid: registry.uidOf('A', face) ?? '', face, deck: 'A' });
const HAND: SourceEvent = {
  type: 'hand.start',
  t: 0,
  button: 9,
  players: [1, 2, 3, 5, 6, 9],
  blinds: [50, 100],
  deck: 'A',
};

/** The pipeline on a virtual clock, fed `steps` at their times; every update it gave. */
function run(steps: [number, SourceEvent][]) {
  const clock = new VirtualTimeScheduler();
  const source = new Subject<SourceEvent>();
  const updates: TableUpdate[] = [];
  const config = { seats: 9, profile: PROFILES['main-event-2014'], orderWindowMs: WINDOW_MS };
  tablePipeline({ config, sources: [source], clock }).subscribe((update) => updates.push(update));
  for (const [t, event] of steps) clock.schedule(() => source.next({ ...event, t }), t);
  clock.flush();
  const settles = updates.filter(({ event }) => event.type === 'settle');
  return { updates, settles, clock };
}

const seen = (t: number, zone: Zone, face: Face, round?: number): [number, SourceEvent] => [
  t,
  {
    type: 'card.seen',
    t,
    zone,
    ...card(face),
    ...(round !== undefined && { round: { reader: 'rfid-1', n: round } }),
  },
];
const roundEnd = (t: number, n: number): [number, SourceEvent] => [
  t,
  { type: 'round.end', t, round: { reader: 'rfid-1', n } },
];

describe('the live table pipeline', () => {
  it('settles a read of a board without rounds exactly a window after it, and then keeps no timer', () => {
    const { settles, updates, clock } = run([
      [0, HAND],
      seen(500, 'seat:1', '8d'),
      seen(1000, 'seat:2', '5s'),
      seen(1520, 'seat:5', 'Ad'),
    ]);
    // Each read at its own window's end; seat 5's with SEAT_SKIPPED.
    expect(settles.map(({ event }) => event.t)).toEqual([800, 1300, 1820]);
    expect(settles[2]?.outputs).toEqual([expect.objectContaining({ incident: 'SEAT_SKIPPED', at: 5 })]);
    expect(updates).toHaveLength(7);
    expect(clock.actions).toHaveLength(0);
  });

  it('settles on the round end after a read’s own, and journals no round end that settles nothing', () => {
    const { settles, updates } = run([
      [0, HAND],
      roundEnd(100, 0),
      seen(500, 'seat:1', '8d', 5),
      roundEnd(600, 5),
      roundEnd(700, 6),
      roundEnd(800, 7),
      seen(1000, 'seat:2', '5s', 10),
      roundEnd(1100, 10),
      roundEnd(1200, 11),
      seen(1520, 'seat:5', 'Ad', 15),
      roundEnd(1600, 15),
      roundEnd(1700, 16),
    ]);
    expect(settles.map(({ event }) => event)).toEqual([
      { type: 'settle', t: 700, seq: 2, round: { reader: 'rfid-1', n: 6 } },
      { type: 'settle', t: 1200, seq: 4, round: { reader: 'rfid-1', n: 11 } },
      { type: 'settle', t: 1700, seq: 6, round: { reader: 'rfid-1', n: 16 } },
    ]);
    expect(settles[2]?.outputs).toEqual([expect.objectContaining({ incident: 'SEAT_SKIPPED', at: 5 })]);
    expect(updates).toHaveLength(7);
  });

  it('wakes a table recovered with a read held when that read’s window ends', () => {
    const clock = new VirtualTimeScheduler();
    const config = { seats: 9, profile: PROFILES['main-event-2014'], orderWindowMs: WINDOW_MS };
    const actor = createActor(tableMachine, { input: config }).start();
    actor.send({ ...HAND, seq: 0 } as DomainEvent);
    actor.send({ ...(seen(500, 'seat:1', '8d')[1] as CardSeen), seq: 1 });
    const updates: TableUpdate[] = [];
    tablePipeline({ config, sources: [new Subject<SourceEvent>()], clock, actor }).subscribe((u) =>
      updates.push(u),
    );
    clock.flush();
    expect(updates.map(({ event }) => [event.type, event.t])).toEqual([['settle', 500 + WINDOW_MS]]);
  });

  it('stops the table, after the hand start it judged, when the journal cannot write its snapshot', () => {
    let seq = -1;
    const journal = {
      append: (event: object) => ({ ...event, seq: ++seq }),
      snapshot: () => {
        throw new Error('disk full');
      },
    } as unknown as Journal;
    const config = { seats: 9, profile: PROFILES['main-event-2014'], orderWindowMs: WINDOW_MS };
    const updates: TableUpdate[] = [];
    let stopped: unknown;
    tablePipeline({ config, sources: [of(HAND)], journal }).subscribe({
      next: (update) => updates.push(update),
      error: (error: unknown) => {
        stopped = error;
      },
    });
    expect(updates.map(({ event, started }) => [event.type, started])).toEqual([['hand.start', true]]);
    expect((stopped as Error).message).toBe('disk full');
  });

  it('falls back to time when a board stops reporting rounds: two windows after the read', () => {
    const { settles } = run([[0, HAND], seen(500, 'seat:1', '8d', 5), roundEnd(600, 5)]);
    expect(settles.map(({ event }) => event.t)).toEqual([500 + 2 * WINDOW_MS]);
  });
});
