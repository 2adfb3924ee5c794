import { z } from 'zod';
import type { ChipZone } from '../../src/domain/zones.js';
import { describeIssues } from '../../src/problems.js';

/**
 * The chip sensor's MQTT messages (PROTOCOL.md beside this file): JSON payloads on channels under the
 * device's base topic `croupier/v1/<tableId>/device/<deviceId>`. The driver and the simulator both
 * read and write them through these schemas, so the two cannot drift apart.
 */

export const CHIP_SENSORS_KIND = 'chip-sensors';

/** The channels, one topic level each under the base topic. */
export const CHANNELS = {
  /** Sensor → host, retained: its hello, or `offline` (its last will, or a clean goodbye). */
  status: 'status',
  /** Sensor → host, QoS 0: one zone's amount. */
  reading: 'reading',
  /** Sensor → host, QoS 1: the sensor's health, at each hello and when it changes. */
  health: 'health',
  /** Host → sensor, QoS 1: tare a zone. */
  command: 'command',
  /** Sensor → host, QoS 1: the answer to a command. */
  reply: 'reply',
} as const;

export const channelTopic = (baseTopic: string, channel: keyof typeof CHANNELS): string =>
  `${baseTopic}/${CHANNELS[channel]}`;

const CHIP_ZONE = /^(?:bet:[1-9][0-9]*|pot|tray)$/;

export const chipZoneSchema = z
  .string()
  .regex(CHIP_ZONE, {
    error: (issue) => `${JSON.stringify(issue.input)} is no chip zone: use bet:N, pot or tray`,
  })
  .transform((zone) => zone as ChipZone);

export const chipZonesSchema = z
  .array(chipZoneSchema)
  .min(1, 'name at least one zone')
  .refine((zones) => new Set(zones).size === zones.length, 'a zone is listed twice');

const U32_MAX = 2 ** 32 - 1;
const u32 = z.int().min(0).max(U32_MAX);

/** Every sensor → host message but the status: a sequence number (gaps are lost messages) and the sensor's clock. */
const stamped = {
  /** One counter per sensor over reading, health and reply; from any value at each hello; wraps at 2^32. */
  seq: u32,
  /** Milliseconds of the sensor's monotonic clock (its uptime); wraps at 2^32. */
  sensorTime: u32,
};

export const helloSchema = z.strictObject({
  state: z.literal('online'),
  kind: z.string().min(1).max(64),
  serial: z.string().min(1).max(64),
  firmware: z.string().min(1).max(32),
  /** The zones it measures. */
  zones: chipZonesSchema,
});

export const goodbyeSchema = z.strictObject({
  state: z.literal('offline'),
  /** Why, for the logs: the last will says `connection lost`, a clean shutdown `shutdown`. */
  reason: z.string().max(200).optional(),
});

export const statusSchema = z.discriminatedUnion('state', [helloSchema, goodbyeSchema]);

export const readingSchema = z.strictObject({
  ...stamped,
  zone: chipZoneSchema,
  /** In chip value units; a load cell may read a little below zero around an empty zone. */
  amount: z.number(),
});

export const HEALTH_STATUSES = ['ok', 'degraded', 'fault'] as const;

export const healthSchema = z.strictObject({
  ...stamped,
  status: z.enum(HEALTH_STATUSES),
  code: z.int().min(0).max(0xffff),
  detail: z.string().max(200),
});

export const commandSchema = z.strictObject({
  /** Chosen by the host, echoed in the reply. */
  id: u32,
  command: z.literal('tare'),
  zone: chipZoneSchema,
});

export const REPLY_ERRORS = ['unknown-zone', 'fault'] as const;

export const replySchema = z.discriminatedUnion('ok', [
  z.strictObject({ ...stamped, id: u32, ok: z.literal(true) }),
  z.strictObject({ ...stamped, id: u32, ok: z.literal(false), error: z.enum(REPLY_ERRORS) }),
]);

export type Hello = z.output<typeof helloSchema>;
export type Goodbye = z.output<typeof goodbyeSchema>;
export type Reading = z.output<typeof readingSchema>;
export type Health = z.output<typeof healthSchema>;
export type Command = z.output<typeof commandSchema>;
export type Reply = z.output<typeof replySchema>;

export type Decoded<T> = { ok: true; value: T } | { ok: false; reason: string };

/** A payload through its schema: the value, or why not, naming each field at fault. */
export function decode<T>(schema: z.ZodType<T, unknown>, payload: Uint8Array): Decoded<T> {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(payload).toString('utf8'));
  } catch (error) {
    return { ok: false, reason: `not JSON (${(error as Error).message})` };
  }
  const result = schema.safeParse(json);
  return result.success
    ? { ok: true, value: result.data }
    : { ok: false, reason: describeIssues(result.error.issues, '', '; ') };
}

/**
 * How a sequence number follows the one expected: `lost` messages were skipped (0 when in order), or it is
 * `stale` (a duplicate or an older message). Modulo 2^32, so the wrap is in order.
 */
export function followSeq(expected: number, seq: number): { lost: number } | { stale: true } {
  const ahead = (seq - expected) >>> 0;
  return ahead < 2 ** 31 ? { lost: ahead } : { stale: true };
}

export const nextSeq = (seq: number): number => (seq + 1) >>> 0;
