import { describe, expect, it } from 'vitest';
import { ManualScheduler } from '../../../../simulators/rfid-reader/scheduler.js';
import { cuesOf, playShufflerScenario } from '../../../../simulators/shuffler/from-scenario.js';
import { type ShufflerVerdict, SimulatedShuffler } from '../../../../simulators/shuffler/shuffler.js';
import { parseScenarioText } from '../../../../src/scenario/load.js';
import { testLine } from './line.js';

const SCENARIO = parseScenarioText(
  `
name: two decks through the shuffler
profile: tda-2007
table: { seats: 3 }
decks: [A, B]
events:
  - { t: 0, shuffler: { state: ready, deck: A, count: 52 } }
  - { t: 300, hand.start: { button: 3, players: [1, 2, 3], blinds: [50, 100], deck: A } }
  - { t: 2000, shuffler: { state: shuffling } }
  - { t: 6000, shuffler: { state: ready, deck: B, count: 53, faceUp: [Qh], extra: ["?:04A1B2C3"], missing: [] } }
  - { t: 5900, shuffler: { state: jam } }
`,
  'decks.yaml',
);
const uid = (deck: string, face: 'Qh') => SCENARIO.registry.uidOf(deck, face) ?? '';

describe('scenario → simulated shuffler', () => {
  it('takes the verdict of each shuffler event, tags for cards, in file order', () => {
    expect(cuesOf(SCENARIO.events)).toEqual([
      {
        t: 0,
        seq: 0,
        verdict: { state: 'ready', deck: 'A', count: 52, faceup: [], missing: [], extra: [] },
      },
      { t: 2000, seq: 2, verdict: { state: 'shuffling', faceup: [], missing: [], extra: [] } },
      {
        t: 6000,
        seq: 3,
        verdict: {
          state: 'ready',
          deck: 'B',
          count: 53,
          faceup: [uid('A', 'Qh')],
          missing: [],
          extra: ['04A1B2C3'],
        },
      },
      { t: 5900, seq: 4, verdict: { state: 'jam', faceup: [], missing: [], extra: [] } },
    ]);
  });

  it('presents each verdict at its time divided by the speed; one earlier than the last comes right after it', async () => {
    const clock = new ManualScheduler();
    const presented: { at: number; state: ShufflerVerdict['state'] }[] = [];
    const playback = playShufflerScenario(
      { present: (verdict) => presented.push({ at: clock.now(), state: verdict.state }) },
      SCENARIO.events,
      { scheduler: clock, speed: 2 },
    );
    clock.advance(1000);
    expect(presented).toEqual([
      { at: 0, state: 'ready' },
      { at: 1000, state: 'shuffling' },
    ]);
    clock.advance(2000);
    await playback.done;
    expect(presented.slice(2)).toEqual([
      { at: 3000, state: 'ready' },
      { at: 3000, state: 'jam' },
    ]);
  });

  it('stops before the next verdict, and plays on a real simulated shuffler', () => {
    const clock = new ManualScheduler();
    const shuffler = new SimulatedShuffler({ scheduler: clock });
    const line = testLine();
    shuffler.start(line.stream);
    const playback = playShufflerScenario(shuffler, SCENARIO.events, { scheduler: clock });
    clock.advance(2000);
    playback.stop();
    clock.advance(10_000);
    expect(
      line.of('STATUS').map((status) => `${status.state} ${status.deck ?? '-'} ${status.count ?? '-'}`),
    ).toEqual(['idle - -', 'ready A 52', 'shuffling - -']);
    expect(() => playShufflerScenario(shuffler, SCENARIO.events, { speed: 0 })).toThrow(RangeError);
  });
});
