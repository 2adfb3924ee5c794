import { filter, firstValueFrom, map, take, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  decode,
  healthSchema,
  type Reading,
  readingSchema,
  replySchema,
  statusSchema,
} from '../../../../devices/chip-sensors/protocol.js';
import { type Malformation, SimulatedChipSensor } from '../../../../simulators/chip-sensors/sensor.js';
import { ManualScheduler } from '../../../../simulators/rfid-reader/scheduler.js';
import { startEmbeddedBroker } from '../../../../src/io/broker.js';
import { connectMqtt, type MqttLink } from '../../../../src/io/mqtt.js';

const BASE = 'croupier/v1/t1/device/chips-1';
const SCHEMAS: Record<string, z.ZodType> = {
  status: statusSchema,
  reading: readingSchema,
  health: healthSchema,
  reply: replySchema,
};

const undo: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of undo.splice(0).reverse()) await step();
});

interface Rig {
  sensor: SimulatedChipSensor;
  scheduler: ManualScheduler;
  /** croupier's side: a plain MQTT client on the broker. */
  host: MqttLink;
  brokerUrl: string;
  /** The next `count` payloads on `channel` from now on, each through the protocol's schema for it. */
  next(channel: string, count?: number): Promise<unknown[]>;
  /** The same, as they came. */
  nextRaw(channel: string, count?: number): Promise<string[]>;
}

async function rig(options: { jitter?: number } = {}): Promise<Rig> {
  const broker = await startEmbeddedBroker({ port: 0 });
  undo.push(() => broker.close());
  const host = connectMqtt({ url: broker.url, clientId: 'host', reconnectMs: 100 });
  undo.push(() => host.close());
  const all = host.messages(`${BASE}/#`);
  const keep = all.subscribe(); // subscribed on the broker before the sensor says anything
  undo.push(async () => keep.unsubscribe());
  await firstValueFrom(host.status$.pipe(filter((status) => status.state === 'connected')));
  await new Promise((resolve) => setTimeout(resolve, 100)); // the SUBACK
  const scheduler = new ManualScheduler();
  const sensor = new SimulatedChipSensor({
    url: broker.url,
    baseTopic: BASE,
    zones: ['bet:1', 'pot'],
    serial: 'SIM-7',
    seed: 42,
    scheduler,
    ...options,
  });
  const nextRaw = (channel: string, count = 1) =>
    firstValueFrom(
      all.pipe(
        filter((message) => message.topic === `${BASE}/${channel}`),
        map((message) => message.payload.toString()),
        take(count),
        toArray(),
      ),
    );
  const next = async (channel: string, count = 1) =>
    (await nextRaw(channel, count)).map((payload) => {
      const decoded = decode(SCHEMAS[channel] ?? readingSchema, Buffer.from(payload));
      if (!decoded.ok) throw new Error(`the sensor sent a malformed ${channel}: ${decoded.reason}`);
      return decoded.value;
    });
  const hello = next('status');
  await sensor.start();
  undo.push(() => sensor.stop());
  await hello;
  return { sensor, scheduler, host, brokerUrl: broker.url, next, nextRaw };
}

/** Advances the sensor's clock by `ms` and waits for what that makes it publish on `channel`. */
async function during(r: Rig, ms: number, channel: string, count: number): Promise<unknown[]> {
  const got = r.next(channel, count);
  r.scheduler.advance(ms);
  return got;
}

const amounts = (readings: unknown[], zone: string) =>
  (readings as Reading[]).filter((reading) => reading.zone === zone).map((reading) => reading.amount);

describe('simulated chip sensor on a broker', () => {
  it('says hello in a retained status, and reads every zone each period in one numbered sequence', async () => {
    const r = await rig();
    const late = connectMqtt({ url: r.brokerUrl, clientId: 'late', reconnectMs: 100 });
    undo.push(() => late.close());
    const status = await firstValueFrom(late.messages(`${BASE}/status`));
    expect(status.retain).toBe(true);
    expect(JSON.parse(status.payload.toString())).toEqual({
      state: 'online',
      kind: 'chip-sensors',
      serial: 'SIM-7',
      firmware: '1.0.0',
      zones: ['bet:1', 'pot'],
    });
    const readings = (await during(r, 300, 'reading', 6)) as Reading[];
    expect(readings.map((reading) => [reading.zone, reading.sensorTime])).toEqual([
      ['bet:1', 100],
      ['pot', 100],
      ['bet:1', 200],
      ['pot', 200],
      ['bet:1', 300],
      ['pot', 300],
    ]);
    const first = readings[0]?.seq ?? 0;
    expect(readings.map((reading) => reading.seq - first)).toEqual([0, 1, 2, 3, 4, 5]);
    for (const amount of readings.map((reading) => reading.amount))
      expect(Math.abs(amount)).toBeLessThanOrEqual(0.2);
  });

  it('swings while chips are laid down, then jitters around their value', async () => {
    const r = await rig({ jitter: 0.3 });
    r.sensor.set('bet:1', 300);
    const readings = await during(r, 1000, 'reading', 20);
    const bet = amounts(readings, 'bet:1');
    const swing = bet.slice(0, 2);
    const steady = bet.slice(3);
    expect(swing.some((amount) => Math.abs(amount - 300) > 1)).toBe(true);
    for (const amount of steady) expect(Math.abs(amount - 300)).toBeLessThanOrEqual(0.3);
    for (const amount of amounts(readings, 'pot')) expect(Math.abs(amount)).toBeLessThanOrEqual(0.3);
  });

  it('tares a zone on command, refusing zones it does not measure and while in fault', async () => {
    const r = await rig();
    r.sensor.drift('pot', 12);
    expect(amounts(await during(r, 100, 'reading', 2), 'pot')[0]).toBeGreaterThan(11);
    const command = (id: number, zone: string) =>
      r.host.publish(`${BASE}/command`, JSON.stringify({ id, command: 'tare', zone }), { qos: 1 });
    let replies = r.next('reply', 2);
    await command(1, 'pot');
    await command(2, 'tray');
    expect(await replies).toMatchObject([
      { id: 1, ok: true },
      { id: 2, ok: false, error: 'unknown-zone' },
    ]);
    expect(Math.abs(amounts(await during(r, 100, 'reading', 2), 'pot')[0] ?? 99)).toBeLessThanOrEqual(0.2);

    const health = r.next('health');
    r.sensor.fault('cell pot overloaded', 3);
    expect(await health).toMatchObject([{ status: 'fault', code: 3, detail: 'cell pot overloaded' }]);
    replies = r.next('reply');
    await command(3, 'pot');
    expect(await replies).toMatchObject([{ id: 3, ok: false, error: 'fault' }]);
  });

  it('stops publishing while hung, and resumes where its clock is', async () => {
    const r = await rig();
    r.sensor.hang();
    const sent = r.sensor.readingsSent;
    r.scheduler.advance(1000);
    expect(r.sensor.readingsSent).toBe(sent);
    r.sensor.recover();
    expect(((await during(r, 100, 'reading', 1)) as Reading[])[0]?.sensorTime).toBe(1100);
  });

  it('pulled from the network, leaves its last will; plugged back, says hello again', async () => {
    const r = await rig();
    const will = r.next('status');
    r.sensor.unplug();
    expect(await will).toEqual([{ state: 'offline', reason: 'connection lost' }]);
    const hello = r.next('status');
    r.sensor.plug();
    expect(await hello).toMatchObject([
      { state: 'online', kind: 'chip-sensors', serial: 'SIM-7', zones: ['bet:1', 'pot'] },
    ]);
  });

  it('says goodbye in its retained status when stopped', async () => {
    const r = await rig();
    const goodbye = r.next('status');
    await r.sensor.stop();
    expect(await goodbye).toEqual([{ state: 'offline', reason: 'shutdown' }]);
  });

  it('publishes malformed messages on demand, each one the protocol refuses', async () => {
    const r = await rig();
    const kinds: Malformation[] = ['not-json', 'wrong-type', 'unknown-field', 'bad-zone'];
    const got = r.nextRaw('reading', kinds.length);
    for (const kind of kinds) r.sensor.sendMalformed(kind);
    const refusals = (await got).map((payload) => decode(readingSchema, Buffer.from(payload)));
    expect(refusals.map((decoded) => decoded.ok)).toEqual([false, false, false, false]);
    const weight = r.nextRaw('weight');
    r.sensor.sendMalformed('unknown-channel');
    expect(await weight).toHaveLength(1);
  });
});
