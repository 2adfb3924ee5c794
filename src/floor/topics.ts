import type { z } from 'zod';
import { describeIssues } from '../config/problems.js';
import { API_VERSION, statusPayload } from '../mqtt/topics.js';
import type { PublicOutput, PublicState } from '../outputs/public.js';
import { publicOutputSchema, publicStateSchema } from '../outputs/public-schema.js';

/** The public topics the floor reads (DESIGN.md "MQTT"), and never any other. */
export const FLOOR_TOPICS = ['status', 'state', 'incident'] as const;
export type FloorTopic = (typeof FLOOR_TOPICS)[number];

export type TableStatusPayload = z.infer<typeof statusPayload>;

/** What one public message says, or why it is refused. */
export type TableMessage =
  | { table: string; topic: 'status'; status: TableStatusPayload }
  | { table: string; topic: 'state'; state: PublicState }
  | { table: string; topic: 'incident'; output: PublicOutput }
  /** An empty retained message: the table's status or state was cleared from the broker. */
  | { table: string; topic: 'status' | 'state'; cleared: true }
  | { refused: string; table?: string };

const TABLE_ID = /^[A-Za-z0-9_-]{1,32}$/;

const SCHEMAS = { status: statusPayload, state: publicStateSchema, incident: publicOutputSchema } as const;

/** The topic filters of the tables `tables` (ids, or `+` for every table) on the public topics. */
export function floorFilters(
  tables: readonly string[],
  topics: readonly FloorTopic[] = FLOOR_TOPICS,
): string[] {
  return tables.flatMap((table) => topics.map((topic) => `croupier/${API_VERSION}/${table}/${topic}`));
}

/**
 * A message of a table's public topic, checked against the topic map's schema (the payloads the tables
 * publish): a wrong topic, JSON or payload is refused with the reason, never thrown.
 */
export function readTableMessage(topic: string, payload: Buffer): TableMessage {
  const [root, version, table, name, ...rest] = topic.split('/');
  if (root !== 'croupier' || version !== API_VERSION || table === undefined || !TABLE_ID.test(table))
    return { refused: `not a table's topic: ${topic.slice(0, 96)}` };
  if (rest.length > 0 || !(FLOOR_TOPICS as readonly string[]).includes(name ?? ''))
    return { refused: `not a public topic the floor reads: ${topic.slice(0, 96)}`, table };
  const which = name as FloorTopic;
  if (payload.length === 0) {
    if (which === 'incident') return { refused: 'an empty incident', table };
    return { table, topic: which, cleared: true };
  }
  let json: unknown;
  try {
    json = JSON.parse(payload.toString('utf8'));
  } catch {
    return { refused: `${which}: the payload is not JSON`, table };
  }
  const parsed = SCHEMAS[which].safeParse(json);
  if (!parsed.success)
    return { refused: `${which}: ${describeIssues(parsed.error.issues, '', '; ')}`, table };
  switch (which) {
    case 'status':
      return { table, topic: which, status: parsed.data as TableStatusPayload };
    case 'state':
      return { table, topic: which, state: parsed.data as PublicState };
    case 'incident':
      return { table, topic: which, output: parsed.data as PublicOutput };
  }
}
