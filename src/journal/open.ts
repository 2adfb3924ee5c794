import Database from 'better-sqlite3';
import { JournalError, sqliteFailure } from './errors.js';

/** 'CRPJ' in SQLite's application_id: what tells a croupier journal from any other SQLite file. */
export const APPLICATION_ID = 0x4352504a;
export const SCHEMA_VERSION = 1;

/** One append-only table for every record kind, so that one hash chain runs through them all. */
const SCHEMA = `
BEGIN;
CREATE TABLE records (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('event', 'snapshot', 'marker')),
  seq INTEGER NOT NULL,
  at INTEGER NOT NULL,
  body TEXT NOT NULL,
  prev TEXT NOT NULL,
  hash TEXT NOT NULL
) STRICT;
CREATE INDEX records_by_kind ON records (kind, seq);
PRAGMA application_id = ${APPLICATION_ID};
PRAGMA user_version = ${SCHEMA_VERSION};
COMMIT;
`;

export interface OpenOptions {
  readonly: boolean;
  maxBytes?: number;
}

/**
 * Opens the journal's database, creating it when the file is new or empty (a writer only). Anything
 * else that is not a sound croupier journal of this schema version is refused before a byte of it is
 * written, so that it is never replaced: the checks read, and WAL mode is switched on only after them.
 */
export function openDatabase(path: string, { readonly, maxBytes }: OpenOptions): Database.Database {
  let db: Database.Database;
  try {
    db = new Database(path, { readonly, fileMustExist: readonly });
  } catch (error) {
    const problem = `cannot open${readonly ? '' : ' or create'} the file: ${(error as Error).message}`;
    throw new JournalError(readonly ? 'unreadable' : 'unwritable', path, problem, { cause: error });
  }
  try {
    checkFormat(db, path, readonly);
    if (!readonly) {
      // Each commit is on the disk when it returns: what an append promises.
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
    }
    if (maxBytes !== undefined) {
      const pageSize = db.pragma('page_size', { simple: true }) as number;
      db.pragma(`max_page_count = ${Math.max(1, Math.floor(maxBytes / pageSize))}`);
    }
    return db;
  } catch (error) {
    db.close();
    throw sqliteFailure(path, error, 'cannot open') ?? error;
  }
}

function checkFormat(db: Database.Database, path: string, readonly: boolean): void {
  const applicationId = db.pragma('application_id', { simple: true });
  const version = db.pragma('user_version', { simple: true });
  const tables = db.prepare('SELECT count(*) FROM sqlite_schema').pluck().get();
  if (applicationId === 0 && version === 0 && tables === 0) {
    if (readonly) throw new JournalError('not-a-journal', path, 'an empty database, not a croupier journal');
    db.exec(SCHEMA);
    return;
  }
  if (applicationId !== APPLICATION_ID) {
    throw new JournalError('not-a-journal', path, 'an SQLite database, but not a croupier journal');
  }
  if (version !== SCHEMA_VERSION) {
    throw new JournalError(
      'version',
      path,
      `journal schema version ${version}, but this croupier reads version ${SCHEMA_VERSION}`,
    );
  }
  const verdict = String(db.prepare('PRAGMA quick_check(1)').pluck().get());
  if (verdict !== 'ok') {
    // Its first line, when there are two, only says which database: the second says what is wrong.
    const problem = verdict.split('\n').at(-1);
    throw new JournalError('corrupt', path, `the database is damaged (quick_check: ${problem})`);
  }
}

/**
 * A read-only connection for a walk of the chain beside the writer (WAL: it reads a snapshot while the
 * writer goes on), that reads a file cut short as far as it goes: `writable_schema` lifts SQLite's
 * refusal of a file shorter than its header says. better-sqlite3's defensive mode keeps that pragma off
 * (`unsafeMode` lifts it); the connection is opened read-only, so it writes nothing all the same.
 */
export function openReader(path: string): Database.Database {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    db.unsafeMode(true);
    db.pragma('writable_schema = ON');
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
