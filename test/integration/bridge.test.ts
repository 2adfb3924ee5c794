import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import { BRIDGE_GONE, bridgeSerialDevice } from '../../firmware-bridge/bridge.js';
import { openCable } from '../../simulators/network-cable.js';
import { connectMqtt } from '../../src/io/mqtt.js';
import { openSerialLink } from '../../src/io/serial.js';
import { deviceRoot } from '../../src/mqtt/topics.js';
import { publicOutput } from '../../src/outputs/public.js';
import { parseScenarioText } from '../../src/scenario/load.js';
import { replayEvents } from '../../src/table/table.js';
import { playOn, startLiveTable, until } from './live-table.js';
import { requireSocat } from './pty.js';

/*
 * The reader board moved off the Pi: `croupier bridge` (here its function, in this process) holds the
 * board's serial port and puts its bytes on the table's broker; the controller reads them there. The
 * table must judge the hand as with the board plugged into the Pi, and see the board offline when the
 * bridge vanishes.
 */

requireSocat('the bridge tests');

const SCENARIO = fileURLToPath(new URL('../../../shared/scenarios/me-premature-flop.yaml', import.meta.url));

describe('a reader board behind croupier bridge', () => {
  it('gives the incidents croupier replay gives, and goes offline when the bridge vanishes', {
    timeout: 60_000,
  }, async ({ expect, onTestFinished }) => {
    const undo: (() => Promise<unknown>)[] = [];
    onTestFinished(async () => {
      for (const step of undo.reverse()) await step().catch(() => undefined);
    });
    const scenario = parseScenarioText(await readFile(SCENARIO, 'utf8'), SCENARIO);
    let port = '';
    const live = await startLiveTable(
      { push: (step) => undo.push(step) },
      {
        table: { profile: scenario.profile.id, seats: scenario.table.seats },
        devices: (devices) => {
          port = devices.rfid[0]?.link.path ?? '';
          return {
            ...devices,
            rfid: devices.rfid.map((reader) => ({ ...reader, link: { type: 'bridge' } })),
          };
        },
      },
    );
    const reader = () => live.controller.health.report().devices.find((d) => d.kind === 'rfid-reader');
    expect(reader()?.status).not.toBe('online');

    const root = deviceRoot('test-table', 'rfid-1');
    const serial = openSerialLink({ device: { path: port }, baudRate: 115_200 });
    undo.push(() => serial.close());
    const will = {
      topic: `${root}/link`,
      payload: JSON.stringify(BRIDGE_GONE),
      retain: true,
      qos: 1 as const,
    };
    // The bridge's computer reaches the broker over a network cable that can be cut.
    const cable = await openCable(live.controller.mqttUrl);
    undo.push(() => cable.close());
    const mqtt = connectMqtt({ url: cable.url, clientId: 'bridge-rfid-1', will, reconnectMs: 200 });
    undo.push(() => mqtt.close());
    const bridging = bridgeSerialDevice(serial, mqtt, root);
    undo.push(async () => bridging.unsubscribe());
    await until(
      10_000,
      () => 'the bridged reader online',
      () => reader()?.status === 'online',
    );

    const play = playOn(live, scenario.events);
    undo.push(async () => play.stop());
    await play.done;
    const expected = replayEvents(
      { seats: scenario.table.seats, profile: scenario.profile, orderWindowMs: scenario.table.orderWindowMs },
      scenario.events,
    ).map(publicOutput);
    const incidents = () => live.messages.filter((m) => m.topic.endsWith('/incident'));
    await until(
      10_000,
      () => 'the incident',
      () => incidents().length >= expected.length,
    );
    const received = incidents().map((m) => JSON.parse(m.payload.toString()) as { at: number });
    expect(received.map((output) => ({ ...output, at: play.originOf(output.at) }))).toEqual(expected);

    // The bridge's computer loses its network: the broker says its will, the reader is offline.
    cable.cut();
    await until(
      5000,
      () => 'the reader offline',
      () => reader()?.status === 'offline',
    );
    expect(reader()?.detail).toMatch(/the bridge is gone/);
    cable.mend();
    await until(
      10_000,
      () => 'the reader back online',
      () => reader()?.status === 'online',
    );
  });
});
