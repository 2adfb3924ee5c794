import { combineLatest, distinctUntilChanged, filter, map, merge, of, Subscription } from 'rxjs';
import { z } from 'zod';
import type { ByteLink } from '../devices/device-session.js';
import type { MqttLink } from '../src/io/mqtt.js';
import type { SerialLink } from '../src/io/serial.js';

/**
 * The bridge: a serial device's bytes on MQTT and back, so that a reader board (or a shuffler) can hang
 * off another computer than the Pi, as zigbee2mqtt does for its adapters. The bytes go through untouched,
 * in order (QoS 1): framing, CRC and sequence numbers stay the device's and the driver's business, and a
 * bridged device is judged exactly as a local one. Under the device's topic root
 * (`croupier/v1/<tableId>/device/<deviceId>`):
 *
 * - `rx`: bytes from the device, in chunks as the port delivered them;
 * - `tx`: bytes for the device;
 * - `link` (retained, the bridge's last will): whether the bridge has the port open, and why not.
 *
 * Tag UIDs cross `rx`: only croupier and the device may read these topics (issue 7's ACLs).
 */

export const BRIDGE_CHANNELS = { rx: 'rx', tx: 'tx', link: 'link' } as const;

export const bridgeLinkSchema = z.strictObject({
  state: z.enum(['up', 'down']),
  /** Why the port is not open (unplugged, bridge gone…). */
  reason: z.string().max(500).optional(),
});

export type BridgeLinkState = z.infer<typeof bridgeLinkSchema>;

/** The bridge's will: the broker says it for a bridge that vanished. */
export const BRIDGE_GONE: BridgeLinkState = { state: 'down', reason: 'the bridge is gone' };

const topic = (root: string, channel: keyof typeof BRIDGE_CHANNELS) => `${root}/${BRIDGE_CHANNELS[channel]}`;

/** Runs the bridge for one serial device until unsubscribed. */
export function bridgeSerialDevice(serial: SerialLink, mqtt: MqttLink, root: string): Subscription {
  const subscription = new Subscription();
  const say = (state: BridgeLinkState) =>
    mqtt.publish(topic(root, 'link'), JSON.stringify(state), { qos: 1, retain: true }).catch(() => undefined);
  // Said again at each reconnect: meanwhile the broker may have said the will in our place.
  const connected = mqtt.status$.pipe(filter((status) => status.state === 'connected'));
  subscription.add(
    combineLatest([serial.status$, connected]).subscribe(([status]) =>
      say(status.state === 'open' ? { state: 'up' } : { state: 'down', reason: describe(status) }),
    ),
  );
  subscription.add(
    serial.data$.subscribe((bytes) => {
      mqtt.publish(topic(root, 'rx'), bytes, { qos: 1 }).catch(() => undefined);
    }),
  );
  subscription.add(
    mqtt.messages(topic(root, 'tx')).subscribe((message) => {
      // A command for a device that is not there is lost, as on a local port: the driver times it out.
      serial.write(message.payload).catch(() => undefined);
    }),
  );
  return subscription;
}

function describe(status: SerialLink['status']): string {
  return status.state === 'opening'
    ? `opening ${status.device}`
    : 'reason' in status
      ? status.reason
      : status.state;
}

/**
 * croupier's end: a bridged device as the byte link a driver takes. It is down while the bridge says so,
 * and while croupier itself cannot reach the broker.
 */
export function bridgedByteLink(mqtt: MqttLink, root: string): ByteLink {
  const fromBridge = mqtt.messages(topic(root, 'link')).pipe(
    map((message): BridgeLinkState => {
      const parsed = bridgeLinkSchema.safeParse(parseJson(message.payload));
      return parsed.success
        ? parsed.data
        : { state: 'down', reason: `the bridge's link status is malformed` };
    }),
    map((state) =>
      state.state === 'up' ? { up: true as const } : { up: false as const, reason: state.reason ?? 'down' },
    ),
  );
  const brokerLost = mqtt.status$.pipe(
    filter((status) => status.state !== 'connected'),
    map(() => ({ up: false as const, reason: 'the broker is unreachable' })),
  );
  return {
    bytes: mqtt.messages(topic(root, 'rx')).pipe(map((message) => new Uint8Array(message.payload))),
    state: merge(of({ up: false as const, reason: 'waiting for the bridge' }), fromBridge, brokerLost).pipe(
      distinctUntilChanged((a, b) => a.up === b.up),
    ),
    write: (bytes) => {
      mqtt.publish(topic(root, 'tx'), bytes, { qos: 1 }).catch(() => undefined);
    },
  };
}

function parseJson(payload: Buffer): unknown {
  try {
    return JSON.parse(payload.toString('utf8'));
  } catch {
    return undefined;
  }
}
