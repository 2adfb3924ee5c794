import { z } from 'zod';
import { publicOutputSchema, publicStateSchema } from '../outputs/public-schema.js';

/**
 * croupier's MQTT API in one typed map (DESIGN.md "MQTT"): every topic under `croupier/v1/<tableId>/`,
 * who publishes it, who may read it, and its payload schema. `asyncapi.ts` documents it from this map.
 */

export const API_VERSION = 'v1';

/** Who may read a topic: the floor systems see `public`; the rest is for one role only (issue 7's ACLs). */
export type Audience = 'public' | 'device' | 'floor' | 'surveillance';

export interface TopicSpec {
  /** Below `croupier/v1/<tableId>/`; `{…}` are parameters. */
  path: string;
  /** `croupier` sends it; otherwise croupier receives it from a device or the floor. */
  from: 'croupier' | 'device' | 'floor';
  audience: Audience;
  retain: boolean;
  qos: 0 | 1;
  summary: string;
  payload: z.ZodType;
}

export const statusPayload = z.object({
  state: z
    .enum(['online', 'offline', 'halted'])
    .describe(
      'halted: croupier runs but its journal cannot record, or a record of it is broken, so the table does not play until a supervisor clears it',
    ),
  version: z.string().describe('croupier version'),
  api: z.literal(API_VERSION),
});

export const commandPayload = z
  .strictObject({
    id: z.string().min(1).max(64).describe('unique per command: a repeated id is refused'),
    pin: z
      .string()
      .regex(/^[0-9]{4,12}$/)
      .optional()
      .describe('the supervisor giving it: their PIN'),
    badge: z.string().min(4).max(64).optional().describe('or their badge UID'),
    value: z.string().max(64).optional(),
  })
  .refine((command) => (command.pin === undefined) !== (command.badge === undefined), {
    message: 'a command carries its supervisor: pin or badge, one of them',
  });

/**
 * `on-my-way`: a supervisor answers the open call (its `value` is the state's `call.key`); the table's
 * display says who is coming. It is no dealer input: the decision is still signed at the table.
 */
export const COMMANDS = [
  'acknowledge',
  'floor-decision',
  'void-hand',
  'call-floor',
  'level',
  'on-my-way',
] as const;

export const privateEventPayload = z
  .object({ type: z.string(), seq: z.number().int(), t: z.number() })
  .loose()
  .describe('a domain event as journaled, hole cards included');

export const TOPICS = {
  status: {
    path: 'status',
    from: 'croupier',
    audience: 'public',
    retain: true,
    qos: 1,
    summary: 'croupier online, offline (also its last will) or halted, with versions',
    payload: statusPayload,
  },
  state: {
    path: 'state',
    from: 'croupier',
    audience: 'public',
    retain: true,
    qos: 1,
    summary:
      'the public table state: phase, street, button, seats with card counts, board, burn and dead cards, open incident',
    payload: publicStateSchema,
  },
  incident: {
    path: 'incident',
    from: 'croupier',
    audience: 'public',
    retain: false,
    qos: 1,
    summary: 'each incident with its ruling and procedure steps (and each prompt), hole cards masked',
    payload: publicOutputSchema,
  },
  command: {
    path: 'command/{name}',
    from: 'floor',
    audience: 'floor',
    retain: false,
    qos: 1,
    summary: `floor commands: ${COMMANDS.join(', ')}`,
    payload: commandPayload,
  },
  device: {
    path: 'device/{deviceId}/{channel}',
    from: 'device',
    audience: 'device',
    retain: false,
    qos: 1,
    summary:
      'networked devices’ own traffic (chip sensors, bridged readers); reader frames carry tag UIDs, so only devices and croupier read it',
    payload: z.unknown(),
  },
  privateEvents: {
    path: 'private/events',
    from: 'croupier',
    audience: 'surveillance',
    retain: false,
    qos: 1,
    summary:
      'every domain event as journaled (settles left out), hole-card identities included, in sequence order, each once the configured broadcast delay has passed since it was journaled; read from the journal, so that after a restart or a broker outage the feed resumes after the last event the broker acknowledged (at least once: an event may come twice after a crash, never missing)',
    payload: privateEventPayload,
  },
} as const satisfies Record<string, TopicSpec>;

export type TopicName = keyof typeof TOPICS;

/** The table's topic root, `croupier/v1/<tableId>`. */
export function tableRoot(tableId: string): string {
  return `croupier/${API_VERSION}/${tableId}`;
}

/** Where a networked device speaks: `croupier/v1/<tableId>/device/<deviceId>`, its channels below. */
export function deviceRoot(tableId: string, deviceId: string): string {
  return `${tableRoot(tableId)}/device/${deviceId}`;
}

/** A concrete topic: `topicOf('t1', 'command', { name: 'acknowledge' })`; `+` for a parameter left out. */
export function topicOf(tableId: string, name: TopicName, params: Record<string, string> = {}): string {
  const path = TOPICS[name].path.replace(/\{(\w+)\}/g, (_, key: string) => params[key] ?? '+');
  return `${tableRoot(tableId)}/${path}`;
}
