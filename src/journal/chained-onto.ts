import type Database from 'better-sqlite3';
import { type BrokenRecord, type ChainLink, HASH_MISMATCH, type JournalRecord, recordHash } from './chain.js';
import { broken, brokenError } from './verify.js';

/** The record a journal wrote last, and any after it, as the disk holds them. */
export type ChainedOnto = Database.Statement<[number], JournalRecord>;

export function chainedOnto(db: Database.Database): ChainedOnto {
  return db.prepare<[number], JournalRecord>(
    'SELECT id, kind, seq, at, body, prev, hash FROM records WHERE id >= ? ORDER BY id LIMIT 2',
  );
}

/**
 * The check each write makes before it chains on: the record the journal wrote last (`next` is the link
 * after it) must be on the disk as it was written, hash and content, and be the last. Returns the link
 * the next record takes, or throws a `chain-broken` JournalError naming what is not so. Run in the
 * write's transaction: nothing else writes between the check and the write.
 */
export function checkChainedOnto(statement: ChainedOnto, next: ChainLink, path: string): ChainLink {
  const expected = next.id - 1;
  const [last, after] = statement.all(Math.max(expected, 0));
  const refuse = (record: BrokenRecord): never => {
    throw brokenError(path, record);
  };
  if (expected > 0 && last?.id !== expected) {
    const end = statement.database.prepare<[], number | null>('SELECT max(id) FROM records').pluck().get();
    const first = end == null || end >= expected ? expected : end + 1;
    const ends = end == null ? 'the journal holds no record' : `the journal ends at record ${end}`;
    refuse({ id: first, problem: 'gone', reason: `croupier wrote up to record ${expected}; ${ends}` });
  }
  if (expected > 0 && last) {
    if (recordHash(last) !== last.hash) refuse(broken(last, 'hash', HASH_MISMATCH));
    if (last.hash !== next.prev) {
      refuse(broken(last, 'rewritten', 'it was replaced, and hashed again, after croupier wrote it'));
    }
  }
  const extra = expected > 0 ? after : last;
  if (extra) {
    const reason =
      expected > 0
        ? `croupier did not write it: its last record is ${expected}`
        : 'croupier did not write it: the journal was empty';
    refuse(broken(extra, 'added', reason));
  }
  return { ...next };
}
