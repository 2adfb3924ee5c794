import { createHash } from 'node:crypto';

/**
 * The hash chain. Each record's hash is the hex SHA-256 of its fields joined by newlines, UTF-8:
 *
 *   hash = sha256(prev + '\n' + id + '\n' + kind + '\n' + seq + '\n' + at + '\n' + body)
 *
 * numbers in decimal, `body` the stored text exactly. `prev` is the previous record's hash, GENESIS for
 * the first record of a journal, and after a rotation the first kept record's `prev` is the last removed
 * record's hash, which the rotation anchor carries (rotation.ts). Changing any stored field of a record,
 * or removing one from the middle, breaks the chain there. Whoever can write the file can also recompute
 * every hash after their change: the chain shows tampering when its last hash is kept elsewhere too.
 */

export const GENESIS = '0'.repeat(64);

export type RecordKind = 'event' | 'snapshot' | 'marker';

/** A row of the `records` table as stored. */
export interface JournalRecord {
  id: number;
  /** A RecordKind, unless someone changed it. */
  kind: string;
  /** The domain seq the record belongs to: an event's own, a snapshot's hand start, a marker's last event. */
  seq: number;
  /** Wall clock, ms: for the audit trail only. */
  at: number;
  /** Canonical JSON text. */
  body: string;
  prev: string;
  hash: string;
}

export function recordHash({ prev, id, kind, seq, at, body }: Omit<JournalRecord, 'hash'>): string {
  return createHash('sha256').update(`${prev}\n${id}\n${kind}\n${seq}\n${at}\n${body}`).digest('hex');
}

/**
 * JSON with every object's keys sorted, no spaces: the same value always gives the same text. (Integer-like
 * keys, such as seat numbers, come first in ascending order, as JavaScript orders them.)
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

/** Where a chain walk stands: the id and the `prev` the next record must have. */
export interface ChainLink {
  id: number;
  prev: string;
}

/**
 * Checks one record against the link before it; the reason it is broken, or undefined when it holds (the
 * link then moves on to it). The body must be JSON: a record that cannot be read back is as lost.
 */
export function checkRecord(record: JournalRecord, link: ChainLink): string | undefined {
  if (record.id !== link.id) {
    if (record.id < link.id) return `its id should be ${link.id}`;
    return record.id === link.id + 1
      ? `record ${link.id} is missing before it`
      : `records ${link.id} to ${record.id - 1} are missing before it`;
  }
  if (record.prev !== link.prev) return `its prev does not match the hash of record ${record.id - 1}`;
  if (recordHash(record) !== record.hash) return 'its hash does not match its content';
  try {
    JSON.parse(record.body);
  } catch {
    return 'its body is not JSON';
  }
  link.id = record.id + 1;
  link.prev = record.hash;
  return undefined;
}
