import { describe, expect, it } from 'vitest';
import { playChips, zoneAmountsOf } from '../../../../simulators/chip-sensors/from-scenario.js';
import { ManualScheduler } from '../../../../simulators/rfid-reader/scheduler.js';
import type { ChipZone } from '../../../../src/domain/zones.js';
import { parseScenarioText } from '../../../../src/scenario/load.js';

const HAND = parseScenarioText(
  `
name: blinds, a raise and the pot
profile: tda-2007
table: { seats: 3 }
decks: [A]
events:
  - { t: 0, hand.start: { button: 3, players: [1, 2, 3], blinds: [50, 100], deck: A } }
  - { t: 200, chips: { zone: "bet:1", amount: 50 } }
  - { t: 400, chips: { zone: "bet:2", amount: 100 } }
  - { t: 900, action: { seat: 3, act: raise, amount: 300 } }
  - { t: 1100, chips: { zone: "bet:3", amount: 300 } }
  - { t: 1000, chips: { zone: pot, amount: 0 } }
  - { t: 2000, chips: { zone: pot, amount: 450 } }
`,
  'hand.yaml',
);
const ZONES: ChipZone[] = ['bet:1', 'bet:2', 'bet:3', 'pot'];

/** A sensor that notes when each amount was set. */
function recorder(scheduler: ManualScheduler) {
  const set: string[] = [];
  return {
    zones: ZONES,
    set: (zone: ChipZone, amount: number) => set.push(`${zone} ${amount} @${scheduler.now()}`),
    log: set,
  };
}

describe('scenario → simulated chip sensor', () => {
  it('takes the chips events, in file order', () => {
    expect(zoneAmountsOf(HAND.events, ZONES)).toEqual([
      { t: 200, seq: 1, zone: 'bet:1', amount: 50 },
      { t: 400, seq: 2, zone: 'bet:2', amount: 100 },
      { t: 1100, seq: 4, zone: 'bet:3', amount: 300 },
      { t: 1000, seq: 5, zone: 'pot', amount: 0 },
      { t: 2000, seq: 6, zone: 'pot', amount: 450 },
    ]);
  });

  it('refuses a scenario naming a zone the sensor does not measure, naming the event', () => {
    expect(() => zoneAmountsOf(HAND.events, ['bet:1', 'bet:2', 'pot'])).toThrow(
      'event 4: the chip sensor does not measure zone bet:3',
    );
  });

  it('sets each amount at its t, an earlier t right after the event before it, at the chosen speed', async () => {
    const scheduler = new ManualScheduler();
    const sensor = recorder(scheduler);
    const playback = playChips(sensor, HAND.events, { scheduler, speed: 2 });
    let done = false;
    void playback.done.then(() => (done = true));
    scheduler.advance(999);
    await Promise.resolve();
    expect(done).toBe(false);
    scheduler.advance(1);
    await Promise.resolve();
    expect(sensor.log).toEqual([
      'bet:1 50 @100',
      'bet:2 100 @200',
      'bet:3 300 @550',
      'pot 0 @550',
      'pot 450 @1000',
    ]);
    expect(done).toBe(true);
  });

  it('stops before the next amount', () => {
    const scheduler = new ManualScheduler();
    const sensor = recorder(scheduler);
    const playback = playChips(sensor, HAND.events, { scheduler });
    scheduler.advance(500);
    playback.stop();
    scheduler.advance(5000);
    expect(sensor.log).toEqual(['bet:1 50 @200', 'bet:2 100 @400']);
  });
});
