import { pino } from 'pino';
import { z } from 'zod';
import { BRIDGE_CHANNELS, BRIDGE_GONE, bridgeSerialDevice } from '../../firmware-bridge/bridge.js';
import { describeIssues } from '../config/problems.js';
import { connectMqtt } from '../io/mqtt.js';
import { openSerialLink } from '../io/serial.js';
import { deviceRoot } from '../mqtt/topics.js';

const bridgeArgs = z.strictObject({
  table: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, 'the table id, as in the controller’s config'),
  device: z.string().regex(/^[A-Za-z][A-Za-z0-9_.:-]*$/, 'the device id, as in the controller’s config'),
  serial: z.string().min(1, 'the serial port, e.g. /dev/ttyACM0'),
  baud: z.coerce.number().int().positive().default(115_200),
  mqtt: z
    .string()
    .regex(/^(mqtts?|wss?):\/\/\S+$/, 'the table’s broker, e.g. mqtt://table-7.casino.lan:1883'),
  username: z.string().optional(),
});

/** `croupier bridge`: one serial device's bytes on the table's broker, until SIGINT or SIGTERM. */
export async function bridge(options: Record<string, unknown>): Promise<number> {
  const parsed = bridgeArgs.safeParse(options);
  if (!parsed.success) {
    process.stderr.write(`croupier bridge: ${describeIssues(parsed.error.issues, '', '\n')}\n`);
    return 2;
  }
  const { table, device, serial: path, baud, mqtt: url, username } = parsed.data;
  // Not on the command line, where `ps` shows it to every user of the machine.
  const password = process.env.CROUPIER_MQTT_PASSWORD;
  const log = pino();
  const root = deviceRoot(table, device);
  const serial = openSerialLink({ device: { path }, baudRate: baud });
  const mqtt = connectMqtt({
    url,
    clientId: `croupier-bridge-${table}-${device}`,
    ...(username !== undefined && { username }),
    ...(password !== undefined && { password }),
    will: {
      topic: `${root}/${BRIDGE_CHANNELS.link}`,
      payload: JSON.stringify(BRIDGE_GONE),
      retain: true,
      qos: 1,
    },
  });
  serial.status$.subscribe((status) => log.info({ serial: status }, 'serial port'));
  mqtt.status$.subscribe((status) => log.info({ mqtt: status }, 'broker'));
  const running = bridgeSerialDevice(serial, mqtt, root);
  log.info({ serial: path, broker: url, topics: `${root}/#` }, 'bridging');
  await new Promise<void>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve());
  });
  running.unsubscribe();
  await serial.close();
  await mqtt.close();
  return 0;
}
