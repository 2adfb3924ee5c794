import { readFile } from 'node:fs/promises';
import { filter, firstValueFrom, startWith } from 'rxjs';
import { describe, it } from 'vitest';
import { type ChipSensorEvent, chipSensor } from '../../devices/chip-sensors/driver.js';
import { parseChipSensorsConfig } from '../../devices/chip-sensors/manifest.js';
import { playChips } from '../../simulators/chip-sensors/from-scenario.js';
import { ON_CHANGE, SimulatedChipSensor } from '../../simulators/chip-sensors/sensor.js';
import type { ChipZone } from '../../src/domain/zones.js';
import { connectMqtt } from '../../src/io/mqtt.js';
import { parseScenarioText } from '../../src/scenario/load.js';
import { cleanupsOf } from './live-table.js';
import { startMosquitto } from './mosquitto.js';
import { within } from './pty.js';

/*
 * What a table's chip sensors cost a card room's broker (issue 20): reporting on change with a heartbeat,
 * a sensor sends a small part of the readings it sent every period, and croupier's driver, unchanged,
 * settles exactly the same amounts, and never takes the quiet sensor for a silent one.
 */

const SCENARIO = 'test/scenarios/clean/me-chip-sensors.yaml';
const BASE = 'croupier/v1/t1/device/chips-1';
const ZONES: ChipZone[] = [...Array.from({ length: 9 }, (_, i): ChipZone => `bet:${i + 1}`), 'pot', 'tray'];

describe('chip sensors reporting on change', () => {
  it('settle the same amounts as sensors reporting every period, for a small part of the messages', {
    timeout: 120_000,
  }, async ({ expect, onTestFinished }) => {
    const undo = cleanupsOf(onTestFinished);
    const broker = await startMosquitto({ push: (step) => undo.push(step) });
    const scenario = parseScenarioText(await readFile(SCENARIO, 'utf8'), SCENARIO);
    const preflop = scenario.events.filter((event) => event.t <= 14_200);

    /** The hand's chips on a sensor, as croupier's driver settles them; and the readings it took. */
    const play = async (onChange: boolean) => {
      const link = connectMqtt({ url: broker.url, clientId: `croupier-${onChange}`, reconnectMs: 200 });
      undo.push(() => link.close());
      const driver = chipSensor(link, BASE, parseChipSensorsConfig({ id: 'chips-1', zones: ZONES }));
      const events: ChipSensorEvent[] = [];
      const listening = driver.events.subscribe((event) => events.push(event));
      undo.push(async () => listening.unsubscribe());
      const settled = () =>
        events.flatMap((event) => (event.kind === 'chips' ? [`${event.zone}=${event.amount}`] : []));
      const sensor = new SimulatedChipSensor({
        url: broker.url,
        baseTopic: BASE,
        zones: ZONES,
        seed: 2014,
        periodMs: 50,
        ...(onChange && { onChange: ON_CHANGE }),
      });
      await sensor.start();
      undo.push(() => sensor.stop());
      const until = (what: string, done: () => boolean) =>
        within(10_000, what, firstValueFrom(driver.events.pipe(startWith(null), filter(done))));
      await until('every zone settled at 0', () => settled().length === ZONES.length);
      const playback = playChips(sensor, preflop);
      undo.push(async () => playback.stop());
      await within(30_000, 'the hand to play', playback.done);
      // Quiet a while: the heartbeat keeps the sensor online, and nothing more settles.
      await new Promise((resolve) => setTimeout(resolve, 4000));
      const statuses = events.flatMap((event) =>
        event.kind === 'status' ? [`${event.status}: ${event.detail}`] : [],
      );
      const readings = sensor.readingsSent;
      const counters = driver.counters();
      await sensor.stop();
      listening.unsubscribe();
      await link.close();
      return { settled: settled(), statuses, readings, counters };
    };

    const periodic = await play(false);
    const onChange = await play(true);
    expect(onChange.settled).toEqual(periodic.settled);
    expect(onChange.settled.length).toBeGreaterThan(ZONES.length + 4);
    // Online once it said hello, and never taken for silent after.
    const online = onChange.statuses.findIndex((status) => status.startsWith('online'));
    expect(onChange.statuses.slice(online)).toEqual([expect.stringMatching(/^online/)]);
    expect(onChange.counters).toMatchObject({ malformed: 0, lost: 0, refused: 0 });
    expect(onChange.readings).toBeLessThan(periodic.readings / 5);
  });
});
