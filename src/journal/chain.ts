import * as crypto from 'node:crypto';

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
  return sha256(`${prev}\n${id}\n${kind}\n${seq}\n${at}\n${body}`);
}

/**
 * Hex SHA-256 of UTF-8 text. `crypto.hash` (Node 20.12 on) is one call with no Hash object: on a record's
 * few hundred bytes it is about 2.5 times as fast, and a walk of the chain spends much of its time here.
 */
export const sha256: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'hex')
    : (text) => crypto.createHash('sha256').update(text).digest('hex');

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

/** What is wrong with a record, as a code the display translates and a reason in the journal's words. */
export type ChainProblem =
  /** An id before the one expected (the start of the chain does not hold). */
  | 'id'
  /** Records before it are gone. */
  | 'missing'
  /** Its `prev` is not the hash of the record before it. */
  | 'prev'
  /** Its hash is not the hash of its fields. */
  | 'hash'
  /** Its body cannot be read back. */
  | 'json'
  /** SQLite cannot read it: the file is damaged (cut short, a bad page). */
  | 'unreadable'
  /** The journal no longer holds a record croupier wrote (found at an append). */
  | 'gone'
  /** The record croupier wrote was replaced by another, hashed again (found at an append). */
  | 'rewritten'
  /** A record croupier did not write follows its last one (found at an append). */
  | 'added'
  /** The rotation marker the chain starts from does not say where. */
  | 'anchor';

export interface Flaw {
  problem: ChainProblem;
  reason: string;
}

/**
 * A record the chain does not vouch for: its id, and its seq and kind when it can be read. The reason
 * is croupier's own sentence, never the record's content (an event's body holds hole cards).
 */
export interface BrokenRecord extends Flaw {
  id: number;
  seq?: number;
  kind?: string;
}

/**
 * Checks one record against the link before it; what is wrong with it, or undefined when it holds (the
 * link then moves on to it). A null `prev` takes any (the record after a broken one: the link between
 * them is already named). The body must be JSON: a record that cannot be read back is as lost; a walk
 * that asked SQLite already (`json_valid`) says so in `bodyIsJson`.
 */
export function checkRecord(
  record: JournalRecord,
  link: { id: number; prev: string | null },
  bodyIsJson?: boolean,
): Flaw | undefined {
  if (record.id !== link.id) {
    if (record.id < link.id) return { problem: 'id', reason: `its id should be ${link.id}` };
    return {
      problem: 'missing',
      reason:
        record.id === link.id + 1
          ? `record ${link.id} is missing before it`
          : `records ${link.id} to ${record.id - 1} are missing before it`,
    };
  }
  if (link.prev !== null && record.prev !== link.prev) {
    return { problem: 'prev', reason: `its prev does not match the hash of record ${record.id - 1}` };
  }
  if (recordHash(record) !== record.hash) return { problem: 'hash', reason: HASH_MISMATCH };
  if (!(bodyIsJson ?? isJson(record.body))) return { problem: 'json', reason: 'its body is not JSON' };
  link.id = record.id + 1;
  link.prev = record.hash;
  return undefined;
}

export const HASH_MISMATCH = 'its hash does not match its content';

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A record exactly as stored, every field and its stored hash: what a supervisor's clearing names, so
 * that the clearing holds for that record as it was seen and not for any later change to it.
 */
export function fingerprint(record: JournalRecord): string {
  return sha256(`${recordHash(record)}\n${record.hash}`);
}
