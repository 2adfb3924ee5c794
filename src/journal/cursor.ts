import Database from 'better-sqlite3';
import { JournalError, sqliteFailure } from './errors.js';
import { APPLICATION_ID, SCHEMA_VERSION } from './open.js';

/**
 * Where a reader of the journal's events stands (the surveillance feed): the seq of the last event it
 * delivered, kept in the journal's own file so that it goes with it (a journal moved aside takes its
 * cursor along; the new one is read from its first event), in a table of its own outside the hash
 * chain: a cursor is not a record, and moving it changes none. It is read and written on a connection of
 * its own beside the journal's (WAL), which never writes a record.
 */

const CURSORS = 'CREATE TABLE IF NOT EXISTS cursors (feed TEXT PRIMARY KEY, seq INTEGER NOT NULL) STRICT';

/** An event as journaled. */
export interface CursorEvent {
  seq: number;
  /** Wall clock, ms, when the journal wrote it. */
  at: number;
  type: string;
  /** Canonical JSON, as stored. */
  body: string;
}

export interface JournalCursor {
  /** The seq of the last event delivered when the cursor was opened; -1 before the first. */
  readonly seq: number;
  /** Up to `limit` events after `seq`, in order; a body that is not JSON is left out (the chain check names it). */
  after(seq: number, limit: number): CursorEvent[];
  /** Every event up to `seq` is delivered. */
  advance(seq: number): void;
  close(): void;
}

/**
 * Opens `feed`'s cursor in the journal at `path`, which must exist and be a croupier journal: any other
 * file is refused untouched. A journal the feed never read is started at its end: what was journaled
 * before the feed existed is not its to deliver.
 */
export function openCursor(path: string, feed: string): JournalCursor {
  if (path === ':memory:' || path === '') {
    throw new JournalError('unreadable', path, 'a journal in memory has no file its events can be read from');
  }
  let db: Database.Database;
  try {
    db = new Database(path, { fileMustExist: true });
  } catch (error) {
    throw sqliteFailure(path, error, 'cannot open') ?? error;
  }
  try {
    const id = db.pragma('application_id', { simple: true });
    const version = db.pragma('user_version', { simple: true });
    if (id !== APPLICATION_ID || version !== SCHEMA_VERSION) {
      throw new JournalError(
        'not-a-journal',
        path,
        `not a croupier journal of schema version ${SCHEMA_VERSION}`,
      );
    }
    // A move needs no sync of its own: the journal's next write syncs the WAL it is in, and a move a power
    // cut loses only delivers its events again.
    db.pragma('synchronous = NORMAL');
    db.exec(CURSORS);
    const save = db.prepare<[string, number]>(
      'INSERT INTO cursors (feed, seq) VALUES (?, ?) ON CONFLICT (feed) DO UPDATE SET seq = excluded.seq',
    );
    const kept = db.prepare<[string], number>('SELECT seq FROM cursors WHERE feed = ?').pluck().get(feed);
    const seq =
      kept ??
      db.prepare<[], number | null>("SELECT max(seq) FROM records WHERE kind = 'event'").pluck().get() ??
      -1;
    if (kept === undefined) save.run(feed, seq);
    const after = db.prepare<[number, number], CursorEvent>(
      `SELECT seq, at, json_extract(body, '$.type') AS type, body FROM records
       WHERE kind = 'event' AND seq > ? AND json_valid(body) ORDER BY seq LIMIT ?`,
    );
    return {
      seq,
      after: (from, limit) => after.all(from, limit),
      advance: (to) => {
        save.run(feed, to);
      },
      close: () => db.close(),
    };
  } catch (error) {
    db.close();
    throw sqliteFailure(path, error, 'cannot open its cursor') ?? error;
  }
}
