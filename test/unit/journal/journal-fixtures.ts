import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach } from 'vitest';
import type { Unsequenced } from '../../../src/domain/events.js';
import { type JournalRecord, recordHash } from '../../../src/journal/chain.js';
import { JournalError } from '../../../src/journal/errors.js';
import { type JournaledEvent, type JournalOptions, openJournal } from '../../../src/journal/store.js';

/** The journal tests' files: a fresh folder per test, removed after it with whatever was left open. */
const opened: { close(): unknown }[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const handle of opened.splice(0)) handle.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export function journalPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'croupier-journal-'));
  dirs.push(dir);
  return join(dir, 'journal.db');
}

/** A journal closed after the test; its clock ticks 1 ms per record unless one is given. */
export function open(path: string, options: JournalOptions = {}) {
  let wall = 1_700_000_000_000;
  const journal = openJournal(path, { now: () => wall++, ...options });
  opened.push(journal);
  return journal;
}

/** A second handle on the file, as whoever tampers with it (or checks it) would have. */
export function rawHandle(path: string): Database.Database {
  const db = new Database(path);
  opened.push(db);
  return db;
}

export const handStart = (t: number): Unsequenced<JournaledEvent> => ({
  type: 'hand.start',
  t,
  button: 1,
  players: [1, 2, 3],
  blinds: [50, 100],
});

/** A hole card: what must never show in an error message. */
export const holeCard = (t: number, seat = 2): Unsequenced<JournaledEvent> => ({
  type: 'card.seen',
  t,
  zone: `seat:${seat}`,
  uid: `E0040150${String(t).padStart(8, '0')}`,
  face: 'Ah',
  deck: 'A',
});

/** Plays `count` hands of a hand.start, its snapshot and `cards` hole cards each; the snapshot state names the hand. */
export function playHands(journal: ReturnType<typeof open>, count: number, cards = 3): void {
  for (let h = 0; h < count; h += 1) {
    const start = journal.append(handStart(journal.lastSeq() + 1));
    journal.snapshot(start.seq, 'v1', { dealt: h });
    journal.appendBatch(Array.from({ length: cards }, (_, i) => holeCard(start.seq + 1 + i, 2 + (i % 2))));
  }
}

/** A journal file of `hands` hands, closed: everything in the main file, none left in the WAL. */
export function writtenJournal(hands: number, cards = 3): string {
  const path = journalPath();
  const journal = open(path);
  playHands(journal, hands, cards);
  journal.close();
  return path;
}

/** Changes a record's body and rehashes it, as a tamperer who knows the hash formula would. */
export function rewriteRecord(db: Database.Database, id: number, change: (body: string) => string): void {
  const record = db.prepare('SELECT * FROM records WHERE id = ?').get(id) as JournalRecord;
  const body = change(record.body);
  db.prepare('UPDATE records SET body = ?, hash = ? WHERE id = ?').run(
    body,
    recordHash({ ...record, body }),
    id,
  );
}

export const HASH_MISMATCH = 'its hash does not match its content';

/** What `verify` says of a chain whose first broken record is `id`. */
export const brokenAt = (id: number, reason: string) => ({ ok: false, id, reason });

/** The JournalError `action` throws; anything else it throws, or nothing, fails the test. */
export function journalError(action: () => unknown): JournalError {
  try {
    action();
  } catch (error) {
    if (error instanceof JournalError) return error;
    throw error;
  }
  throw new Error('no JournalError');
}
