import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectAsync } from 'mqtt';
import { pino } from 'pino';
import { describe, it } from 'vitest';
import { startFloorLoad } from '../../simulators/floor-load/room.js';
import { parseConfig } from '../../src/config/config.js';
import type { OpenCall } from '../../src/floor/protocol.js';
import { type FloorService, startFloor } from '../../src/floor/service.js';
import type { DownStats } from '../../src/floor/stats.js';
import { mosquittoAcl } from '../../src/mqtt/mosquitto-acl.js';
import { statusMessage } from '../../src/mqtt/publisher.js';
import { hashSecret } from '../../src/supervisor/credentials.js';
import { misdeal, stateOf, withIncident } from '../unit/floor/fixtures.js';
import { eventually, getJson } from './floor-room.js';
import { cleanupsOf } from './live-table.js';
import { startMosquitto } from './mosquitto.js';

/*
 * Several floor services on one casino broker (issue 20), held to the ACL `croupier mqtt-acl` writes: one
 * for the whole room and one per pit (`floor.tables`), each showing its tables, the statistics counted
 * once across them through an MQTT 5 shared subscription; and a supervisor's answer reaches the table
 * as a command the floor's user may send.
 */

const PASSWORDS = { floor: 'floor-secret', 'croupier-T1': 't1-secret', load: 'load-secret' };
const PIN = '2468';

describe('floor services sharing one broker', () => {
  it('each show their tables, count every incident once between them, and send an answer the ACL lets through', {
    timeout: 120_000,
  }, async ({ expect, onTestFinished }) => {
    const undo = cleanupsOf(onTestFinished);
    const dir = await mkdtemp(join(tmpdir(), 'croupier-floors-'));
    undo.push(() => rm(dir, { recursive: true, force: true }));
    const acl = [
      mosquittoAcl('T1', 'croupier-T1', [{ username: 'floor', password: 'unused', role: 'floor' }]),
      // The simulated room's tables, all under one user of the test's.
      'user load\ntopic readwrite croupier/v1/#\n',
    ].join('\n');
    const broker = await startMosquitto(
      { push: (step) => undo.push(step) },
      { access: { users: PASSWORDS, acl } },
    );
    const load = await startFloorLoad({
      url: broker.url,
      username: 'load',
      password: PASSWORDS.load,
      tables: 12,
      prefix: 'pit-',
      seed: 11,
      incidentsPerTableHour: 0,
      callsPerTableHour: 0,
      burstEveryMs: 0,
      offlinePerTableHour: 0,
    });
    undo.push(() => load.stop());
    const table = await connectAsync(broker.url, {
      username: 'croupier-T1',
      password: PASSWORDS['croupier-T1'],
      reconnectPeriod: 0,
    });
    undo.push(() => table.endAsync(true));
    await table.publishAsync('croupier/v1/T1/status', statusMessage('online', 'test'), {
      qos: 1,
      retain: true,
    });

    const supervisors = [{ name: 'Marie', pin: await hashSecret(PIN) }];
    const floor = async (name: string, tables: string[], file = name): Promise<FloorService> => {
      const service = await startFloor(
        parseConfig({
          mqtt: { url: broker.url, username: 'floor', password: PASSWORDS.floor },
          supervisors,
          floor: { port: 0, tables, stats: join(dir, `${file}.db`) },
        }),
        'test',
        pino({ level: 'silent' }),
      );
      undo.push(() => service.close());
      return service;
    };
    const room = await floor('room', ['+']);
    const pit = await floor('pit', ['pit-001', 'pit-002', 'T1']);
    // A second room service on the same floor server, sharing the room's file.
    const spare = await floor('spare', ['+'], 'room');
    await eventually(
      10_000,
      () => `the room (${room.room.size}) and the pit (${pit.room.size})`,
      async () => room.room.size === 13 && pit.room.size === 3,
    );

    // Incidents in bursts: between the services, each is counted once.
    const heard = await connectAsync(broker.url, {
      username: 'load',
      password: PASSWORDS.load,
      reconnectPeriod: 0,
    });
    undo.push(() => heard.endAsync(true));
    let published = 0;
    heard.on('message', (_, payload) => {
      if ((JSON.parse(payload.toString()) as { kind: string }).kind === 'incident') published++;
    });
    await heard.subscribeAsync('croupier/v1/+/incident', { qos: 1 });
    for (let burst = 0; burst < 4; burst++) {
      load.burst(12);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(published).toBeGreaterThan(8);
    const counted = async () =>
      Promise.all(
        [room, pit].map(async (service) => {
          const downs = await getJson<DownStats[]>(`${service.url}/api/stats`);
          return downs.reduce(
            (sum, down) => sum + Object.values(down.incidents).reduce((a, n) => a + n, 0),
            0,
          );
        }),
      );
    await eventually(
      10_000,
      () => `${published} incidents counted between the services`,
      async () => (await counted()).reduce((a, n) => a + n, 0) === published,
    );
    const [byRoom, byPit] = await counted();
    expect(byRoom).toBeGreaterThan(0);
    expect(byPit).toBeGreaterThan(0);
    // The room's file holds what both its services counted: the spare's page gives the same.
    expect(await getJson<DownStats[]>(`${spare.url}/api/stats`)).toEqual(
      await getJson<DownStats[]>(`${room.url}/api/stats`),
    );
    // The pit's page shows its own tables only, the room's all of them.
    const pitCalls = await getJson<OpenCall[]>(`${pit.url}/api/incidents`);
    expect(pitCalls.every((call) => ['pit-001', 'pit-002', 'T1'].includes(call.table))).toBe(true);

    // A supervisor answers T1's incident on the pit's page: the table receives the signed command.
    const commands: { topic: string; payload: string }[] = [];
    table.on('message', (topic, payload) => commands.push({ topic, payload: payload.toString() }));
    await table.subscribeAsync('croupier/v1/T1/command/+', { qos: 1 });
    await table.publishAsync(
      'croupier/v1/T1/state',
      JSON.stringify({ ...withIncident(5, misdeal(77)), call: { key: '5:77', since: Date.now() } }),
      { qos: 1, retain: true },
    );
    await eventually(
      5000,
      () => 'T1’s incident on the pit',
      async () => (await getJson<OpenCall[]>(`${pit.url}/api/incidents`)).some((call) => call.table === 'T1'),
    );
    const post = (path: string, body: object) =>
      fetch(`${pit.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const session = (await (await post('/api/sign-in', { pin: PIN })).json()) as { token: string };
    expect((await post('/api/answer', { token: session.token, table: 'T1', call: '5:77' })).status).toBe(202);
    expect((await post('/api/answer', { token: 'forged', table: 'T1', call: '5:77' })).status).toBe(401);
    await eventually(
      5000,
      () => 'the command at the table',
      async () => commands.length > 0,
    );
    expect(commands[0]?.topic).toBe('croupier/v1/T1/command/on-my-way');
    expect(JSON.parse(commands[0]?.payload ?? '{}')).toMatchObject({ pin: PIN, value: '5:77' });
    await table.publishAsync('croupier/v1/T1/state', JSON.stringify(stateOf()), { qos: 1, retain: true });
  });
});
