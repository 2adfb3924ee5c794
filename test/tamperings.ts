import { statSync, truncateSync } from 'node:fs';
import Database from 'better-sqlite3';
import { type ChainProblem, type JournalRecord, recordHash } from '../src/journal/chain.js';

/**
 * The ways someone with the journal's file tampers with it, each through a real SQLite connection of
 * their own (or the file itself, cut short), as the issue lists them: a body, a hash, a `prev` changed,
 * a record deleted, one inserted, two reordered, the file truncated. Each says which record the chain
 * must name first and why; a truncation's first unreadable record depends on SQLite's pages, so it is
 * found by reading (`first: undefined`).
 */
export interface Tampering {
  name: string;
  /** Tampers with the journal at `path` around record `at` (a record in the middle, with one after it). */
  apply(path: string, at: number): { first?: number; problem: ChainProblem };
}

function withFile<T>(path: string, change: (db: Database.Database) => T): T {
  const db = new Database(path);
  try {
    return db.transaction(() => change(db)).immediate();
  } finally {
    db.close();
  }
}

const row = (db: Database.Database, id: number) =>
  db.prepare('SELECT * FROM records WHERE id = ?').get(id) as JournalRecord;

export const TAMPERINGS: readonly Tampering[] = [
  {
    name: 'a body changed',
    apply: (path, at) =>
      withFile(path, (db) => {
        // Still JSON, one field more: only the hash shows it.
        db.prepare(`UPDATE records SET body = json_set(body, '$.tampered', 1) WHERE id = ?`).run(at);
        return { first: at, problem: 'hash' };
      }),
  },
  {
    name: 'a hash changed',
    apply: (path, at) =>
      withFile(path, (db) => {
        db.prepare('UPDATE records SET hash = ? WHERE id = ?').run('f'.repeat(64), at);
        return { first: at, problem: 'hash' };
      }),
  },
  {
    name: 'a prev changed',
    apply: (path, at) =>
      withFile(path, (db) => {
        db.prepare('UPDATE records SET prev = ? WHERE id = ?').run('e'.repeat(64), at);
        return { first: at, problem: 'prev' };
      }),
  },
  {
    name: 'a record deleted',
    apply: (path, at) =>
      withFile(path, (db) => {
        db.prepare('DELETE FROM records WHERE id = ?').run(at);
        return { first: at + 1, problem: 'missing' };
      }),
  },
  {
    name: 'a record inserted',
    apply: (path, at) =>
      withFile(path, (db) => {
        // Made as croupier would make it, chained onto the one before: the record after it shows it.
        db.prepare('UPDATE records SET id = -id WHERE id >= ?').run(at);
        db.prepare('UPDATE records SET id = 1 - id WHERE id < 0').run();
        const before = row(db, at - 1);
        const forged = {
          id: at,
          kind: 'event',
          seq: before.seq,
          at: before.at,
          body: JSON.stringify({ type: 'dealer', t: 0, input: 'confirm', seq: before.seq }),
          prev: before.hash,
        };
        db.prepare(
          'INSERT INTO records (id, kind, seq, at, body, prev, hash) VALUES (@id, @kind, @seq, @at, @body, @prev, @hash)',
        ).run({ ...forged, hash: recordHash(forged) });
        return { first: at + 1, problem: 'prev' };
      }),
  },
  {
    name: 'two records reordered',
    apply: (path, at) =>
      withFile(path, (db) => {
        const [first, second] = [row(db, at), row(db, at + 1)];
        const put = db.prepare(
          'UPDATE records SET kind = @kind, seq = @seq, at = @at, body = @body, prev = @prev, hash = @hash WHERE id = @id',
        );
        put.run({ ...second, id: at });
        put.run({ ...first, id: at + 1 });
        return { first: at, problem: 'prev' };
      }),
  },
  {
    name: 'the file truncated',
    apply: (path) => {
      // Everything in the main file first, as after a clean stop; then its second half is cut away.
      const db = new Database(path);
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
      const pages = Math.floor(statSync(path).size / 4096);
      truncateSync(path, Math.ceil(pages / 2) * 4096);
      return { problem: 'unreadable' };
    },
  },
];

/**
 * The records of the journal at `path` before record `upTo` (all of them without it), as stored, read by
 * a connection of its own. A file cut short is read as far as it goes (better-sqlite3's defensive mode
 * refuses the pragma that lets it), one record at a time: a range would read the damaged page after it.
 */
export function storedRecords(path: string, upTo?: number): JournalRecord[] {
  const db = new Database(path, { readonly: true });
  try {
    db.unsafeMode(true);
    db.pragma('writable_schema = ON');
    if (upTo === undefined) return db.prepare('SELECT * FROM records ORDER BY id').all() as JournalRecord[];
    const one = db.prepare('SELECT * FROM records WHERE id = ?');
    const records: JournalRecord[] = [];
    for (let id = 1; id < upTo; id += 1) {
      const record = one.get(id) as JournalRecord | undefined;
      if (record) records.push(record);
    }
    return records;
  } finally {
    db.close();
  }
}
