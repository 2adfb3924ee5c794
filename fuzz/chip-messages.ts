import {
  commandSchema,
  decode,
  healthSchema,
  readingSchema,
  replySchema,
  statusSchema,
} from '../devices/chip-sensors/protocol.js';
import { clearReason, printable, type Target } from './harness.js';
import { hostileJsonText } from './json.js';
import { pick, type Rand } from './mutate.js';

/**
 * The chip sensors' JSON messages (devices/chip-sensors/protocol.ts), each through its channel's schema:
 * samples with a field of the wrong type, range or size, unknown keys, deep nesting, broken JSON and
 * invalid UTF-8.
 */

const HELLO = {
  state: 'online',
  kind: 'chip-sensors',
  serial: 'CS-0042',
  firmware: '1.4.0',
  zones: ['bet:1', 'bet:3', 'pot'],
};
const SAMPLES = {
  status: [HELLO, { state: 'offline', reason: 'connection lost' }],
  reading: [{ seq: 4_294_967_295, sensorTime: 1000, zone: 'bet:3', amount: 250.5 }],
  health: [{ seq: 1, sensorTime: 0, status: 'degraded', code: 65_535, detail: 'cell 2 drifting' }],
  command: [{ id: 7, command: 'tare', zone: 'pot' }],
  reply: [
    { seq: 2, sensorTime: 5, id: 7, ok: true },
    { seq: 3, sensorTime: 6, id: 7, ok: false, error: 'unknown-zone' },
  ],
} as const;
const SCHEMAS = {
  status: statusSchema,
  reading: readingSchema,
  health: healthSchema,
  command: commandSchema,
  reply: replySchema,
};
type Channel = keyof typeof SCHEMAS;
const CHANNEL_NAMES = Object.keys(SCHEMAS) as Channel[];

export interface ChipInput {
  channel: Channel;
  payload: Buffer;
}

export const CHIP_HELLO = HELLO;

export function hostileMessage(rand: Rand): ChipInput {
  const channel = pick(rand, CHANNEL_NAMES);
  return { channel, payload: hostileJsonText(rand, SAMPLES[channel]) };
}

export const chipMessages: Target<ChipInput> = {
  name: 'chip-messages',
  family: 'chip-sensors',
  generate: hostileMessage,
  check({ channel, payload }) {
    const decoded = decode<unknown>(SCHEMAS[channel], payload);
    if (decoded.ok) return 'accepted';
    clearReason(decoded.reason, `${channel} refused`);
    return 'refused';
  },
  show: ({ channel, payload }) => `${channel} ${printable(payload)}`,
};
