import { readFile } from 'node:fs/promises';
import { filter, firstValueFrom, startWith } from 'rxjs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ChipSensor, type ChipSensorEvent, chipSensor } from '../../devices/chip-sensors/driver.js';
import { parseChipSensorsConfig } from '../../devices/chip-sensors/manifest.js';
import { playChips } from '../../simulators/chip-sensors/from-scenario.js';
import { type Malformation, SimulatedChipSensor } from '../../simulators/chip-sensors/sensor.js';
import type { ChipZone } from '../../src/domain/zones.js';
import { startEmbeddedBroker } from '../../src/io/broker.js';
import { connectMqtt } from '../../src/io/mqtt.js';
import { toDomain } from '../../src/normaliser/chip-sensors.js';
import { parseScenarioText } from '../../src/scenario/load.js';
import { requireMosquitto, startMosquitto } from './mosquitto.js';
import { within } from './pty.js';

/*
 * The simulated chip sensor and croupier's driver as two clients of a real broker, the embedded aedes and
 * Debian's Mosquitto: the sensor publishes raw, jittering readings; the driver must see exactly the
 * amounts laid on each zone, once each.
 */

const SCENARIO = 'test/scenarios/clean/me-chip-sensors.yaml';
const BASE = 'croupier/v1/t1/device/chips-1';
const ZONES: ChipZone[] = [...Array.from({ length: 9 }, (_, i): ChipZone => `bet:${i + 1}`), 'pot', 'tray'];
const SERIAL = 'SIM-CHIPS-IT';
/**
 * The scenario's dealer pushes a call to the pot 550 ms after it lands: the cell's swing (150 ms) and the
 * driver's stable time (300 ms, its default) fit in that, as they must at a real table, if the zones are
 * read often enough.
 */
const PERIOD_MS = 50;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

interface Table {
  driver: ChipSensor;
  events: ChipSensorEvent[];
  /** Resolves once `done()` holds, checked at each driver event; fails after `ms`, saying `what`. */
  when(ms: number, what: string, done: () => boolean): Promise<unknown>;
  /** Settled amounts per zone, in order. */
  amounts(): Partial<Record<ChipZone, number[]>>;
  status(): string | undefined;
  rejections(): string[];
}

/** croupier's side: its MQTT link and the chip sensor driver on the device's base topic. */
function openTable(url: string): Table {
  const link = connectMqtt({ url, clientId: 'croupier-t1', reconnectMs: 200 });
  cleanups.push(() => link.close());
  const driver = chipSensor(link, BASE, parseChipSensorsConfig({ id: 'chips-1', zones: ZONES }));
  const events: ChipSensorEvent[] = [];
  const subscription = driver.events.subscribe((event) => events.push(event));
  cleanups.push(async () => subscription.unsubscribe());
  const of = <K extends ChipSensorEvent['kind']>(kind: K) =>
    events.filter((event): event is Extract<ChipSensorEvent, { kind: K }> => event.kind === kind);
  return {
    driver,
    events,
    when: (ms, what, done) =>
      within(ms, what, firstValueFrom(driver.events.pipe(startWith(null), filter(done)))),
    amounts: () => {
      const amounts: Partial<Record<ChipZone, number[]>> = {};
      for (const { zone, amount } of of('chips')) amounts[zone] = [...(amounts[zone] ?? []), amount];
      return amounts;
    },
    status: () => {
      const last = of('status').at(-1);
      return last && `${last.status}: ${last.detail}`;
    },
    rejections: () => of('rejected').map((event) => event.reason),
  };
}

async function startSensor(url: string): Promise<SimulatedChipSensor> {
  const sensor = new SimulatedChipSensor({
    url,
    baseTopic: BASE,
    zones: ZONES,
    serial: SERIAL,
    seed: 2014,
    periodMs: PERIOD_MS,
  });
  await sensor.start();
  cleanups.push(() => sensor.stop());
  return sensor;
}

const ONLINE = `online: sensor ${SERIAL}, firmware 1.0.0`;
const settledCount = (table: Table) => Object.values(table.amounts()).flat().length;

/** Sensor and driver up, every zone settled at its starting 0. */
async function startBoth(url: string): Promise<{ table: Table; sensor: SimulatedChipSensor }> {
  const table = openTable(url);
  const sensor = await startSensor(url);
  await table.when(10_000, 'every zone to settle at 0', () => settledCount(table) === ZONES.length);
  expect(table.status()).toBe(ONLINE);
  return { table, sensor };
}

/** Each zone's amounts as the driver should settle them: 0 at the start, then each change. */
function expectedAmounts(
  changes: readonly { zone: ChipZone; amount: number }[],
): Partial<Record<ChipZone, number[]>> {
  const expected: Partial<Record<ChipZone, number[]>> = Object.fromEntries(ZONES.map((zone) => [zone, [0]]));
  for (const { zone, amount } of changes) {
    const amounts = expected[zone] ?? [];
    if (amounts.at(-1) !== amount) amounts.push(amount);
    expected[zone] = amounts;
  }
  return expected;
}

const total = (amounts: Partial<Record<ChipZone, number[]>>) => Object.values(amounts).flat().length;

const brokers: [string, (cleanup: typeof cleanups) => Promise<string>][] = [
  [
    'the embedded aedes broker',
    async (cleanup) => {
      const broker = await startEmbeddedBroker({ port: 0 });
      cleanup.push(() => broker.close());
      return broker.url;
    },
  ],
  ['Debian’s Mosquitto', async (cleanup) => (await startMosquitto(cleanup)).url],
];

describe.each(brokers)('chip sensor and driver over %s', (name, startBroker) => {
  beforeAll(() => {
    if (name.includes('Mosquitto')) requireMosquitto('the chip sensor integration tests');
  });

  it('settles exactly the amounts a scenario lays on the zones, once each', async () => {
    const url = await startBroker(cleanups);
    const { table, sensor } = await startBoth(url);
    const scenario = parseScenarioText(await readFile(SCENARIO, 'utf8'), SCENARIO);
    // Hand 1 preflop: blinds, bets, the bets pushed to the pot and the zones back to 0.
    const preflop = scenario.events.filter((event) => event.t <= 14_200);
    const expected = expectedAmounts(preflop.flatMap((event) => (event.type === 'chips' ? [event] : [])));

    const playback = playChips(sensor, preflop);
    cleanups.push(async () => playback.stop());
    await within(30_000, 'the scenario to play', playback.done);
    await table.when(10_000, 'every change to settle', () => settledCount(table) >= total(expected));
    // Readings go on: nothing more may settle.
    await new Promise((resolve) => setTimeout(resolve, 1000));

    expect(table.amounts()).toEqual(expected);
    expect(table.rejections()).toEqual([]);
    expect(table.driver.counters()).toMatchObject({ malformed: 0, lost: 0, refused: 0 });
    // As the table gets them: one chips event per settled amount, and the sensor online throughout.
    const domain = table.events.flatMap((event) => toDomain(event, { id: 'chips-1', inferActions: false }));
    expect(domain.filter((event) => event.type === 'chips')).toHaveLength(total(expected));
    expect(domain.filter((event) => event.type === 'device').at(-1)).toMatchObject({ status: 'online' });
  });

  it('goes offline with the sensor’s last will when its cable is pulled, and resumes when it is back', async () => {
    const url = await startBroker(cleanups);
    const { table, sensor } = await startBoth(url);
    sensor.set('pot', 500);
    await table.when(5000, 'the pot at 500', () => table.amounts().pot?.at(-1) === 500);

    sensor.unplug();
    await table.when(
      5000,
      'the last will',
      () => table.status() === `offline: sensor ${SERIAL} is offline: connection lost`,
    );
    // Chips moved while the sensor is away are seen once it is back.
    sensor.set('pot', 800);
    sensor.plug();
    await table.when(
      10_000,
      'the sensor back with the pot at 800',
      () => table.amounts().pot?.at(-1) === 800,
    );

    expect(table.status()).toBe(ONLINE);
    expect(table.amounts().pot).toEqual([0, 500, 800]);
    expect(table.driver.counters()).toMatchObject({ malformed: 0, lost: 0 });
  });

  it('counts malformed messages and loses no valid reading beside them', async () => {
    const url = await startBroker(cleanups);
    const { table, sensor } = await startBoth(url);
    const kinds: Malformation[] = ['not-json', 'wrong-type', 'unknown-field', 'bad-zone', 'unknown-channel'];
    for (const [i, kind] of kinds.entries()) {
      sensor.sendMalformed(kind);
      sensor.set(`bet:${i + 1}`, 100 * (i + 1));
    }
    const expected = expectedAmounts(
      kinds.map((_, i) => ({ zone: `bet:${i + 1}` as ChipZone, amount: 100 * (i + 1) })),
    );
    await table.when(10_000, 'every bet to settle', () => settledCount(table) >= total(expected));

    expect(table.amounts()).toEqual(expected);
    expect(table.driver.counters()).toMatchObject({ malformed: kinds.length, lost: 0, refused: 0 });
    expect(table.rejections()).toHaveLength(kinds.length);
    expect(table.rejections().at(-1)).toBe('a message on "weight", which is no channel of the protocol');
  });
});
