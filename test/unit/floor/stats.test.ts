import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FloorStats, statsCsv } from '../../../src/floor/stats.js';
import { Tally } from '../../../src/floor/tally.js';
import { readTableMessage } from '../../../src/floor/topics.js';
import { openJournal } from '../../../src/journal/store.js';
import type { PublicState } from '../../../src/outputs/public.js';
import { json, misdeal, stateOf } from './fixtures.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'croupier-floor-stats-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** The floor's tally on a file of its own, fed messages as the shared subscription brings them. */
function tally(now: () => number) {
  const stats = new FloorStats(join(dir, 'floor.db'));
  const counting = new Tally(stats, now);
  const hear = (topic: string, value: unknown) => {
    const message = readTableMessage(topic, json(value));
    if ('refused' in message) throw new Error(message.refused);
    counting.take(message);
  };
  return { stats, hear };
}

const down = (name: string, since: number, afterHand: number) => ({ dealer: { name, since, afterHand } });
const dealt = (hand: number, extra: Partial<PublicState> = {}) =>
  stateOf({ phase: 'betting', hand, ...extra });

describe("the floor's statistics", () => {
  it('count per table and dealer down: hands, incidents by code, misdeals and floor calls per 100 hands', () => {
    let now = 0;
    const { stats, hear } = tally(() => now);
    // No dealer signed in yet: the hands the floor sees are the table's own.
    hear('croupier/v1/T1/state', dealt(3));
    now = 500;
    hear('croupier/v1/T1/incident', misdeal(10));
    hear('croupier/v1/T1/state', dealt(4));
    // Paul signs in after hand 4; his down deals hands 5 to 8.
    now = 1000;
    for (const hand of [5, 6, 7, 8]) hear('croupier/v1/T1/state', dealt(hand, down('Paul', 1000, 4)));
    now = 2000;
    hear('croupier/v1/T1/incident', misdeal(20));
    hear(
      'croupier/v1/T1/incident',
      misdeal(21, { incident: 'SEAT_SKIPPED', ruling: 'CALL_FLOOR', floor: true }),
    );
    // Heard twice (a restarted service, or two sharing the file): counted once.
    hear('croupier/v1/T1/incident', misdeal(20));
    hear('croupier/v1/T1/state', {
      ...stateOf({ phase: 'floor', hand: 8 }),
      ...down('Paul', 1000, 4),
      call: { key: '8:floor', since: 2100 },
    });
    // A prompt is no incident.
    hear('croupier/v1/T1/incident', {
      kind: 'prompt',
      at: 22,
      prompt: 'ALL_IN_SHOWDOWN',
      seats: [],
      rule: 'x',
      steps: [],
    });
    expect(stats.downs()).toEqual([
      {
        table: 'T1',
        dealer: null,
        since: 0,
        until: 1000,
        hands: 2,
        incidents: { EXPOSED_CARD: 1 },
        misdeals: 1,
        floorCalls: 0,
        misdealsPer100: 50,
        floorCallsPer100: 0,
      },
      {
        table: 'T1',
        dealer: 'Paul',
        since: 1000,
        until: null,
        hands: 4,
        incidents: { EXPOSED_CARD: 1, SEAT_SKIPPED: 1 },
        misdeals: 1,
        floorCalls: 2,
        misdealsPer100: 25,
        floorCallsPer100: 50,
      },
    ]);
    stats.close();
  });

  it('keeps what it counted of a table whose states it never heard (another service of the group did)', () => {
    const { stats, hear } = tally(() => 700);
    hear('croupier/v1/T9/incident', misdeal(4));
    hear('croupier/v1/T9/state', dealt(12, down('Paul', 1000, 10)));
    expect(
      stats
        .downs()
        .map(({ dealer, since, until, hands, incidents }) => ({ dealer, since, until, hands, incidents })),
    ).toEqual([
      { dealer: null, since: 0, until: 1000, hands: 0, incidents: { EXPOSED_CARD: 1 } },
      { dealer: 'Paul', since: 1000, until: null, hands: 2, incidents: {} },
    ]);
    stats.close();
  });

  it('as CSV: one line per down, one column per incident code', () => {
    const { stats, hear } = tally(() => 1_700_000_000_500);
    hear('croupier/v1/T1/state', dealt(1, down('Zoé, "la rapide"', 1_700_000_000_000, 0)));
    hear('croupier/v1/T1/incident', misdeal(3));
    const [header, line] = statsCsv(stats.downs()).split('\n');
    expect(header?.split(',').slice(0, 9)).toEqual([
      'table',
      'dealer',
      'since',
      'until',
      'hands',
      'misdeals',
      'misdeals_per_100',
      'floor_calls',
      'floor_calls_per_100',
    ]);
    expect(header).toContain('EXPOSED_CARD');
    expect(line).toMatch(/^T1,"Zoé, ""la rapide""",2023-11-14T22:13:20.000Z,,1,1,100,0,0,/);
    stats.close();
  });

  it("refuses a file that is not the floor's own: a table's journal is never written to", () => {
    const journal = openJournal(join(dir, 'journal.db'));
    journal.close();
    expect(() => new FloorStats(join(dir, 'journal.db'))).toThrow(/not a croupier floor statistics file/);
  });
});
