import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectAsync, type MqttClient } from 'mqtt';
import { pino } from 'pino';
import { describe, it } from 'vitest';
import { parseConfig } from '../../src/config/config.js';
import { startController } from '../../src/controller/controller.js';
import { mosquittoAcl } from '../../src/mqtt/mosquitto-acl.js';
import { hashSecret } from '../../src/supervisor/credentials.js';
import { cleanupsOf, type Undo, until } from './live-table.js';
import { startMosquitto } from './mosquitto.js';

/*
 * The table's broker holds every client to its role (DESIGN.md "Security rules"): the embedded broker by
 * its hooks, Mosquitto by the ACL `croupier mqtt-acl` writes. Unknown clients are refused; the floor reads
 * no private or device topic; a device cannot speak as another; only surveillance reads `private/`.
 */

const TABLE = 't1';
const ROOT = `croupier/v1/${TABLE}`;
const PASSWORDS = { floor: 'floor-secret', surveillance: 'eye-secret', 'chips-1': 'chips-secret' };
const ROLES = [
  { username: 'floor', role: 'floor' },
  { username: 'surveillance', role: 'surveillance' },
  { username: 'chips-1', role: 'device', device: 'chips-1' },
] as const;

/** A client as `username` (or anonymous), collecting what it receives. */
async function client(url: string, undo: Undo, username?: keyof typeof PASSWORDS) {
  const mqtt = await connectAsync(url, {
    reconnectPeriod: 0,
    connectTimeout: 3000,
    ...(username && { username, password: PASSWORDS[username] }),
  });
  undo.push(() => mqtt.endAsync(true));
  const received: string[] = [];
  mqtt.on('message', (topic) => received.push(topic));
  return { mqtt, received };
}

/** What granted a subscription (0 or 1), or 128 when the broker refused it. */
async function granted(mqtt: MqttClient, filter: string): Promise<number> {
  // mqtt.js rejects a subscription the broker refused (SUBACK 0x80).
  const grants = await mqtt.subscribeAsync(filter, { qos: 1 }).catch(() => []);
  return grants[0]?.qos ?? 128;
}

describe('MQTT access control', () => {
  it('on the embedded broker: unknown clients refused, each role held to its topics', {
    timeout: 60_000,
  }, async ({ expect, onTestFinished }) => {
    const undo = cleanupsOf(onTestFinished);
    const dir = await mkdtemp(join(tmpdir(), 'croupier-acl-'));
    undo.push(() => rm(dir, { recursive: true, force: true }));
    const users = await Promise.all(
      ROLES.map(async (user) => ({ ...user, password: await hashSecret(PASSWORDS[user.username]) })),
    );
    const config = parseConfig({
      table: { id: TABLE },
      http: { port: 0 },
      mqtt: { embedded: { port: 0 }, users, privateDelayMs: 0 },
      supervisors: [{ name: 'Marie', pin: await hashSecret('2468') }],
      journal: { path: join(dir, 'journal.db') },
    });
    const controller = await startController(config, 'test', pino({ level: 'silent' }));
    undo.push(() => controller.close());
    const url = controller.mqttUrl;

    await expect(connectAsync(url, { reconnectPeriod: 0 })).rejects.toThrow();
    await expect(
      connectAsync(url, { reconnectPeriod: 0, username: 'floor', password: 'guess' }),
    ).rejects.toThrow();

    const floor = await client(url, undo, 'floor');
    const eye = await client(url, undo, 'surveillance');
    const chips = await client(url, undo, 'chips-1');
    // A clone of the sensor, signing in with its credential while it is connected, is refused.
    await expect(
      connectAsync(url, { reconnectPeriod: 0, username: 'chips-1', password: PASSWORDS['chips-1'] }),
    ).rejects.toThrow('Not authorized');
    expect(await granted(floor.mqtt, `${ROOT}/#`)).toBe(128);
    expect(await granted(floor.mqtt, `${ROOT}/private/events`)).toBe(128);
    expect(await granted(floor.mqtt, `${ROOT}/device/+/reading`)).toBe(128);
    expect(await granted(floor.mqtt, '$SYS/#')).toBe(128);
    expect(await granted(floor.mqtt, `${ROOT}/+`)).toBe(1);
    expect(await granted(eye.mqtt, `${ROOT}/private/events`)).toBe(1);
    expect(await granted(chips.mqtt, `${ROOT}/device/chips-2/#`)).toBe(128);
    expect(await granted(chips.mqtt, `${ROOT}/device/chips-1/command`)).toBe(1);

    // The floor's command, signed with a supervisor's PIN, reaches the table; its event goes to
    // surveillance on private/, and to no one else.
    await floor.mqtt.publishAsync(`${ROOT}/command/call-floor`, '{"id":"c1","pin":"2468"}', { qos: 1 });
    await until(
      5_000,
      () => 'the private event',
      () => eye.received.includes(`${ROOT}/private/events`),
    );
    expect(floor.received).toContain(`${ROOT}/status`);
    expect(floor.received.filter((topic) => !/\/(status|state|incident)$/.test(topic))).toEqual([]);

    // A device publishing as another is cut off; the refusals are counted.
    const cut = new Promise<void>((resolve) => chips.mqtt.once('close', () => resolve()));
    chips.mqtt.publish(`${ROOT}/device/chips-2/reading`, '{}', { qos: 1 });
    await cut;
    const refused = controller.health.report().refused.mqtt ?? 0;
    // Two sign-ins, the clone, five subscriptions, one publish.
    expect(refused).toBe(9);
  });

  it('on Mosquitto, with the ACL croupier mqtt-acl writes: the same rules', {
    timeout: 60_000,
  }, async ({ expect, onTestFinished }) => {
    const undo = cleanupsOf(onTestFinished);
    const acl = mosquittoAcl(
      TABLE,
      'croupier',
      ROLES.map((user) => ({ ...user, password: 'unused: Mosquitto keeps its own password file' })),
    );
    const broker = await startMosquitto(
      { push: (step) => undo.push(step) },
      { access: { users: { ...PASSWORDS, croupier: 'table-secret' }, acl } },
    );
    await expect(connectAsync(broker.url, { reconnectPeriod: 0 })).rejects.toThrow();
    const table = await connectAsync(broker.url, {
      reconnectPeriod: 0,
      username: 'croupier',
      password: 'table-secret',
    });
    undo.push(() => table.endAsync(true));
    const floor = await client(broker.url, undo, 'floor');
    const eye = await client(broker.url, undo, 'surveillance');
    const chips = await client(broker.url, undo, 'chips-1');
    const tableHeard: string[] = [];
    table.on('message', (topic) => tableHeard.push(topic));
    await table.subscribeAsync(`${ROOT}/device/#`, { qos: 1 });
    for (const { mqtt } of [floor, eye]) await mqtt.subscribeAsync(`${ROOT}/#`, { qos: 1 });

    await chips.mqtt.publishAsync(`${ROOT}/device/chips-2/reading`, '{}', { qos: 1 }).catch(() => undefined);
    await chips.mqtt.publishAsync(`${ROOT}/device/chips-1/reading`, '{}', { qos: 1 });
    for (const topic of ['state', 'private/events'])
      await table.publishAsync(`${ROOT}/${topic}`, '{}', { qos: 1 });
    await floor.mqtt
      .publishAsync(`${ROOT}/private/events`, '{"forged":true}', { qos: 1 })
      .catch(() => undefined);
    await until(
      5_000,
      () => 'the deliveries',
      () => eye.received.length >= 2 && floor.received.length >= 1,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(floor.received).toEqual([`${ROOT}/state`]);
    expect(eye.received).toEqual([`${ROOT}/state`, `${ROOT}/private/events`]);
    expect(tableHeard).toEqual([`${ROOT}/device/chips-1/reading`]);
  });
});
