import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  placementsOf,
  playScenario,
  type ZoneAntennas,
} from '../../../simulators/rfid-reader/from-scenario.js';
import { SimulatedReader } from '../../../simulators/rfid-reader/reader.js';
import { ManualScheduler } from '../../../simulators/rfid-reader/scheduler.js';
import { parseScenarioText } from '../../../src/scenario/load.js';
import { testLine } from './line.js';

const ANTENNAS: ZoneAntennas = { 'seat:1': 0, 'seat:2': 1, 'seat:3': 2, board: 10, burn: 11, muck: 12 };
const PUCK = 'E0040000CAFE0001';

const HAND = parseScenarioText(
  `
name: a peek, a fold and the puck
profile: tda-2007
table: { seats: 3 }
decks: [A]
events:
  - { t: 0, hand.start: { button: 3, players: [1, 2, 3], blinds: [50, 100], deck: A } }
  - { t: 100, button: { seat: 3 } }
  - { t: 400, card: { zone: "seat:1", card: As } }
  - { t: 800, card: { zone: "seat:2", card: Kd } }
  - { t: 1200, gone: { zone: "seat:1", card: As } }
  - { t: 1500, card: { zone: "seat:1", card: As } }
  - { t: 2000, card: { zone: muck, card: Kd } }
  - { t: 2500, button: { seat: 1 } }
`,
  'hand.yaml',
);
const uid = (face: 'As' | 'Kd') => HAND.registry.uidOf('A', face) ?? '';

describe('scenario → simulated reader', () => {
  it('turns card and button events into tag moves on the zone antennas, in file order', () => {
    expect(placementsOf(HAND.events, { antennas: ANTENNAS, buttonUid: PUCK })).toEqual([
      { t: 100, seq: 1, op: 'place', uid: PUCK, antenna: 2 },
      { t: 400, seq: 2, op: 'place', uid: uid('As'), antenna: 0 },
      { t: 800, seq: 3, op: 'place', uid: uid('Kd'), antenna: 1 },
      { t: 1200, seq: 4, op: 'remove', uid: uid('As') },
      { t: 1500, seq: 5, op: 'place', uid: uid('As'), antenna: 0 },
      { t: 2000, seq: 6, op: 'place', uid: uid('Kd'), antenna: 12 },
      { t: 2500, seq: 7, op: 'place', uid: PUCK, antenna: 0 },
    ]);
  });

  it('skips button events when the table has no puck', () => {
    const placements = placementsOf(HAND.events, { antennas: ANTENNAS });
    expect(placements.map((p) => p.seq)).toEqual([2, 3, 4, 5, 6]);
  });

  it('refuses a scenario naming a zone no antenna serves, naming the event', () => {
    expect(() => placementsOf(HAND.events, { antennas: { 'seat:1': 0, 'seat:2': 1 } })).toThrow(
      'event 6: no antenna serves zone muck',
    );
  });

  it('plays the shared premature-flop deal so every card is read on its zone antenna after its t', async () => {
    const scenario = parseScenarioText(
      readFileSync('/work/shared/scenarios/me-premature-flop.yaml', 'utf8'),
      'me-premature-flop.yaml',
    );
    const clock = new ManualScheduler();
    const reader = new SimulatedReader({
      antennas: [
        { index: 0, label: 'seat:1' },
        { index: 1, label: 'seat:2' },
        { index: 2, label: 'seat:3' },
        { index: 9, label: 'seat:10' },
        { index: 10, label: 'board' },
        { index: 11, label: 'burn' },
      ],
      scheduler: clock,
      seed: 42,
    });
    const line = testLine();
    reader.start(line.stream);
    const antennas: ZoneAntennas = {
      'seat:1': 0,
      'seat:2': 1,
      'seat:3': 2,
      'seat:10': 9,
      board: 10,
      burn: 11,
    };
    const playback = playScenario(reader, scenario.events, { antennas, scheduler: clock });
    clock.advance(10_000);
    const reads = line.of('tag-read');
    const cards = scenario.events.flatMap((event) => (event.type === 'card.seen' ? [event] : []));
    expect(cards).toHaveLength(10);
    for (const card of cards) {
      const first = reads.find((read) => read.uid === card.uid);
      expect(first, `${card.uid} in ${card.zone}`).toMatchObject({ antenna: antennas[card.zone] });
      expect(first?.readerTimeMs).toBeGreaterThanOrEqual(card.t);
      // The antenna cycle and a missed read or two: well within a second.
      expect(first?.readerTimeMs).toBeLessThan(card.t + 1000);
    }
    await playback.done;
  });

  it('runs faster at a higher speed, and stop() ends the playback', () => {
    const clock = new ManualScheduler();
    const moves: string[] = [];
    const reader = {
      place: (tag: string, antenna: number) => moves.push(`${clock.now()} ${tag}@${antenna}`),
      remove: (tag: string) => moves.push(`${clock.now()} -${tag}`),
    };
    const playback = playScenario(reader, HAND.events, { antennas: ANTENNAS, scheduler: clock, speed: 4 });
    clock.advance(300);
    playback.stop();
    clock.advance(10_000);
    expect(moves).toEqual([`100 ${uid('As')}@0`, `200 ${uid('Kd')}@1`, `300 -${uid('As')}`]);
  });
});
