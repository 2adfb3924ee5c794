import { filter, firstValueFrom, take, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { type EmbeddedBroker, startEmbeddedBroker } from '../../../src/io/broker.js';
import { connectMqtt, type MqttLink, topicMatches } from '../../../src/io/mqtt.js';

const undo: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of undo.splice(0).reverse()) await step();
});

async function broker(port = 0): Promise<EmbeddedBroker> {
  const started = await startEmbeddedBroker({ port });
  undo.push(() => started.close());
  return started;
}

function link(
  url: string,
  clientId: string,
  extra: Partial<Parameters<typeof connectMqtt>[0]> = {},
): MqttLink {
  const made = connectMqtt({ url, clientId, reconnectMs: 100, ...extra });
  undo.push(() => made.close());
  return made;
}

const connected = (mqtt: MqttLink) =>
  firstValueFrom(mqtt.status$.pipe(filter((status) => status.state === 'connected')));

describe('topicMatches', () => {
  it.each([
    ['croupier/v1/+/state', 'croupier/v1/t1/state', true],
    ['croupier/v1/#', 'croupier/v1/t1/device/rfid/status', true],
    ['croupier/v1/#', 'croupier/v1', true],
    ['croupier/v1/+/state', 'croupier/v1/t1/incident', false],
    ['croupier/+', 'croupier/v1/t1', false],
    ['#', '$SYS/broker/uptime', false],
    ['a/b', 'a/b/c', false],
  ])('%s against %s is %s', (topicFilter, topic, expected) => {
    expect(topicMatches(topicFilter, topic)).toBe(expected);
  });
});

describe('the MQTT link against the embedded broker', () => {
  it('publishes, subscribes and reports its status', async () => {
    const { url } = await broker();
    const floor = link(url, 'floor');
    const table = link(url, 'table');
    await Promise.all([connected(floor), connected(table)]);
    const received = firstValueFrom(floor.messages('croupier/v1/+/incident').pipe(take(2), toArray()));
    await new Promise((resolve) => setTimeout(resolve, 100)); // the SUBACK
    await table.publish('croupier/v1/t1/state', '{}', { retain: true });
    await table.publish('croupier/v1/t1/incident', 'one', { qos: 1 });
    await table.publish('croupier/v1/t1/incident', 'two', { qos: 1 });
    expect((await received).map((message) => message.payload.toString())).toEqual(['one', 'two']);
  });

  it('sends a QoS 1 publish again when the broker died before acknowledging it', async () => {
    const first = await broker();
    const table = link(first.url, 'table', { reconnectMs: 1000 });
    await connected(table);
    const sent = table.publish('croupier/v1/t1/incident', 'in flight', { qos: 1 });
    await first.close();
    undo.pop();
    const again = await broker(first.port);
    const floor = link(again.url, 'floor');
    await connected(floor);
    const received = firstValueFrom(floor.messages('croupier/v1/t1/incident'));
    await sent;
    expect((await received).payload.toString()).toBe('in flight');
  });

  it('keeps QoS 1 publishes made while the broker is away and delivers them when it is back', async () => {
    const first = await broker();
    // The table retries once a second: the floor is back and subscribed before it.
    const table = link(first.url, 'table', { reconnectMs: 1000 });
    await connected(table);
    await first.close();
    undo.pop();
    await firstValueFrom(table.status$.pipe(filter((status) => status.state === 'offline')));
    const sent = table.publish('croupier/v1/t1/incident', 'while away', { qos: 1 });
    const again = await broker(first.port);
    const floor = link(again.url, 'floor');
    await connected(floor);
    const received = firstValueFrom(floor.messages('croupier/v1/t1/incident'));
    await sent;
    expect((await received).payload.toString()).toBe('while away');
  });
});
