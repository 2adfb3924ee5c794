import { connectAsync, type IClientOptions, type MqttClient } from 'mqtt';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startEmbeddedBroker } from '../../../src/io/broker.js';
import { brokerAccess, type MqttUser } from '../../../src/mqtt/broker-access.js';
import { hashSecret } from '../../../src/supervisor/credentials.js';

/*
 * One live connection per device credential, on the real embedded broker: a cloned sensor signing in
 * with the real one's username and password is refused while the real one is connected.
 */

const ROOT = 'croupier/v1/t1';
const PASSWORDS = { 'chips-1': 'chips-secret', floor: 'floor-secret', surveillance: 'eye-secret' };
const CONTROLLER = { username: 'croupier', password: 'table-secret' };
type User = keyof typeof PASSWORDS;

let users: MqttUser[];
beforeAll(async () => {
  users = [
    {
      username: 'chips-1',
      password: await hashSecret(PASSWORDS['chips-1']),
      role: 'device',
      device: 'chips-1',
    },
    { username: 'floor', password: await hashSecret(PASSWORDS.floor), role: 'floor' },
    { username: 'surveillance', password: await hashSecret(PASSWORDS.surveillance), role: 'surveillance' },
  ];
});

/** The embedded broker with croupier's access hooks on a free port, and what it refused. */
async function broker() {
  const refused: string[] = [];
  const started = await startEmbeddedBroker({
    port: 0,
    hooks: brokerAccess('t1', users, CONTROLLER, (reason) => refused.push(reason)),
  });
  onTestFinished(() => started.close());
  const connect = async (
    credentials: { username: string; password: string },
    options: IClientOptions = {},
  ) => {
    const client = await connectAsync(started.url, {
      reconnectPeriod: 0,
      connectTimeout: 3000,
      ...credentials,
      ...options,
    });
    onTestFinished(() => client.endAsync(true));
    return client;
  };
  const as = (user: User, options?: IClientOptions) =>
    connect({ username: user, password: PASSWORDS[user] }, options);
  return { url: started.url, refused, as, asController: () => connect(CONTROLLER) };
}

/** The CONNACK code mqtt.js rejected the sign-in with, or `connected`. */
const signIn = (attempt: Promise<MqttClient>): Promise<number | 'connected'> =>
  attempt.then(
    () => 'connected' as const,
    (error: { code?: number }) => error.code ?? -1,
  );

/** Tries to sign in until the broker lets the client in (it frees a credential when it sees the socket close). */
async function signsInAgain(attempt: () => Promise<MqttClient>): Promise<MqttClient> {
  for (let tries = 0; ; tries++) {
    const client = await attempt().catch((error: unknown) => {
      if (tries >= 50) throw error;
      return undefined;
    });
    if (client) return client;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('embedded broker: one connection per device credential', () => {
  it('refuses a clone of a connected sensor, with its client id or another; the sensor stays and is heard', async () => {
    const { as, asController, refused } = await broker();
    const sensor = await as('chips-1', { clientId: 'chips-1' });
    expect(await signIn(as('chips-1', { clientId: 'chips-1' }))).toBe(5);
    expect(await signIn(as('chips-1', { clientId: 'clone' }))).toBe(5);

    const table = await asController();
    const heard: string[] = [];
    table.on('message', (topic, payload) => heard.push(`${topic} ${payload}`));
    await table.subscribeAsync(`${ROOT}/device/#`, { qos: 1 });
    expect(sensor.connected).toBe(true);
    await sensor.publishAsync(`${ROOT}/device/chips-1/reading`, 'still me', { qos: 1 });
    await expect.poll(() => heard).toEqual([`${ROOT}/device/chips-1/reading still me`]);

    expect(refused).toEqual([
      expect.stringMatching(
        /^MQTT client chips-1 from 127\.0\.0\.1:\d+ refused: device user chips-1 is already connected \(one connection per device\)$/,
      ),
      expect.stringMatching(
        /^MQTT client clone from 127\.0\.0\.1:\d+ refused: device user chips-1 is already/,
      ),
    ]);
    expect(refused.join('\n')).not.toContain(PASSWORDS['chips-1']);
  });

  it('lets the sensor back in once its connection is closed, cleanly or not', async () => {
    const { as } = await broker();
    const first = await as('chips-1');
    await first.endAsync();
    const second = await signsInAgain(() => as('chips-1'));
    // A connection cut without a DISCONNECT (power cut): freed when the broker sees the socket close.
    second.stream.destroy();
    const third = await signsInAgain(() => as('chips-1'));
    expect(third.connected).toBe(true);
  });

  it('lets one of two clones signing in at the same moment in, and refuses the other', async () => {
    const { as, refused } = await broker();
    const outcomes = await Promise.all([signIn(as('chips-1')), signIn(as('chips-1')), signIn(as('chips-1'))]);
    expect(outcomes.sort()).toEqual([5, 5, 'connected']);
    expect(refused).toHaveLength(2);
  });

  it('lets floor and surveillance users sign in more than once', async () => {
    const { as, refused } = await broker();
    const clients = await Promise.all([as('floor'), as('floor'), as('surveillance'), as('surveillance')]);
    expect(clients.every((client) => client.connected)).toBe(true);
    expect(refused).toEqual([]);
  });

  it('still refuses a wrong password with "bad user name or password", naming the address', async () => {
    const { url, refused } = await broker();
    const attempt = connectAsync(url, { reconnectPeriod: 0, username: 'chips-1', password: 'guess' });
    expect(await signIn(attempt)).toBe(4);
    expect(refused).toEqual([
      expect.stringMatching(
        /^MQTT client \S+ from 127\.0\.0\.1:\d+ refused: unknown user or wrong password$/,
      ),
    ]);
  });
});
