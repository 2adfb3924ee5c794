import type Database from 'better-sqlite3';
import { type ChainLink, checkRecord, GENESIS, type JournalRecord, recordHash } from './chain.js';
import { JournalError } from './errors.js';
import { rotationAnchor } from './rotation.js';

export type Verification =
  | { ok: true; records: number; lastHash: string }
  | { ok: false; id: number; seq: number; kind: string; reason: string };

export type BrokenRecord = Extract<Verification, { ok: false }>;

/** Rows read at a time: a walk holds one page in memory, and no statement open between pages. */
const PAGE = 1000;

/** The records from `fromId` on, in id order, read page by page: the journal may be written meanwhile. */
export function* readRecords(db: Database.Database, fromId = 1): Generator<JournalRecord> {
  const page = db.prepare<[number, number], JournalRecord>(
    'SELECT id, kind, seq, at, body, prev, hash FROM records WHERE id >= ? ORDER BY id LIMIT ?',
  );
  for (let next = fromId; ; ) {
    const rows = page.all(next, PAGE);
    yield* rows;
    const last = rows.at(-1);
    if (!last || rows.length < PAGE) return;
    next = last.id + 1;
  }
}

/**
 * Walks the whole chain from its start (id 1 from GENESIS, or after the last rotation, from the record
 * that follows the one the anchor names) and names the first broken record.
 */
export function verifyChain(db: Database.Database): Verification {
  const anchor = rotationAnchor(db);
  const link: ChainLink = { id: 1, prev: GENESIS };
  if (anchor) {
    // The anchor says where the chain starts: it must itself be intact before it is believed.
    if (recordHash(anchor.record) !== anchor.record.hash) {
      return broken(anchor.record, 'its hash does not match its content');
    }
    if (!anchor.through)
      return broken(anchor.record, 'the rotation marker does not name the last record removed');
    link.id = anchor.through.id + 1;
    link.prev = anchor.through.hash;
  }
  let records = 0;
  for (const record of readRecords(db)) {
    const reason = checkRecord(record, link);
    if (reason) return broken(record, reason);
    records += 1;
  }
  return { ok: true, records, lastHash: link.prev };
}

/** How many of the last records are checked at each open: the ones a crash or a tamper most likely hit. */
const TAIL = 16;

/**
 * Checks the last records before a writer chains onto them; the whole walk is `verify`'s. Throws a
 * `chain-broken` JournalError naming the first broken one.
 */
export function checkTail(db: Database.Database, path: string): void {
  const tail = db
    .prepare<[number], JournalRecord>(
      'SELECT id, kind, seq, at, body, prev, hash FROM records ORDER BY id DESC LIMIT ?',
    )
    .all(TAIL)
    .reverse();
  const [oldest] = tail;
  if (!oldest) return;
  const link: ChainLink = { id: oldest.id, prev: oldest.prev };
  for (const record of tail) {
    const reason = checkRecord(record, link);
    if (reason) throw brokenError(path, broken(record, reason));
  }
}

export function broken(
  { id, seq, kind }: Pick<JournalRecord, 'id' | 'seq' | 'kind'>,
  reason: string,
): BrokenRecord {
  return { ok: false, id, seq, kind, reason };
}

/** `record ID (seq S, kind K) is broken: REASON`, as `croupier journal verify` says it. */
export function describeBroken({ id, seq, kind, reason }: BrokenRecord): string {
  return `record ${id} (seq ${seq}, kind ${kind}) is broken: ${reason}`;
}

export function brokenError(path: string, record: BrokenRecord): JournalError {
  return new JournalError('chain-broken', path, describeBroken(record));
}
