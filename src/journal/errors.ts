import type { BrokenRecord } from './chain.js';

/**
 * What can go wrong with a journal, for the controller to act on: `unwritable` stops the table (it must
 * not play on unrecorded); the others are found at open and shown as they are, the file kept untouched.
 */
export type JournalErrorCode =
  | 'corrupt'
  | 'unwritable'
  | 'unreadable'
  | 'chain-broken'
  | 'not-a-journal'
  | 'version';

/**
 * A journal failure; the message names the file and what is wrong. Never a record's body: event bodies
 * hold hole cards.
 */
export class JournalError extends Error {
  override name = 'JournalError';
  /** The first record the chain does not vouch for, when one is known (`chain-broken`, `corrupt`). */
  readonly record: BrokenRecord | undefined;

  constructor(
    readonly code: JournalErrorCode,
    readonly file: string,
    problem: string,
    options?: ErrorOptions & { record?: BrokenRecord },
  ) {
    super(`journal ${file}: ${problem}`, options);
    this.record = options?.record;
  }
}

/** What SQLite's result codes mean for the table; the extended codes (SQLITE_IOERR_WRITE …) share a prefix. */
const SQLITE_FAILURES: readonly [prefix: string, code: JournalErrorCode, problem: string][] = [
  ['SQLITE_FULL', 'unwritable', 'the disk is full'],
  ['SQLITE_READONLY', 'unwritable', 'the file or its disk is read-only'],
  ['SQLITE_IOERR', 'unwritable', 'the disk failed to read or write'],
  ['SQLITE_CANTOPEN', 'unwritable', 'the file cannot be opened'],
  ['SQLITE_NOTADB', 'corrupt', 'not an SQLite database, or its header is damaged'],
  ['SQLITE_CORRUPT', 'corrupt', 'the database is damaged'],
];

/**
 * A better-sqlite3 failure in the journal's words, or undefined for one that is a bug (rethrown as is).
 * SQLite's own message names no bound value, so it may be kept as the cause.
 */
export function sqliteFailure(
  file: string,
  error: unknown,
  doing: string,
  consequence = '',
): JournalError | undefined {
  const sqliteCode = (error as { code?: unknown } | null)?.code;
  if (typeof sqliteCode !== 'string') return undefined;
  const known = SQLITE_FAILURES.find(([prefix]) => sqliteCode.startsWith(prefix));
  if (!known) return undefined;
  const [, code, problem] = known;
  return new JournalError(code, file, `${doing}: ${problem} (${sqliteCode})${consequence}`, { cause: error });
}
