import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { type JournalCursor, openCursor } from '../../../src/journal/cursor.js';
import { openJournal } from '../../../src/journal/store.js';
import {
  handStart,
  holeCard,
  journalError,
  journalPath,
  open,
  playHands,
  rawHandle,
  rewriteRecord,
} from './journal-fixtures.js';

const cursors: JournalCursor[] = [];
// Closed before the fixtures remove the folder (hooks after a test run last registered first).
afterEach(() => {
  for (const cursor of cursors.splice(0)) cursor.close();
});

const cursor = (path: string) => {
  const opened = openCursor(path, 'private/events');
  cursors.push(opened);
  return opened;
};

describe('a feed cursor in the journal', () => {
  it('is kept beside the hash chain, never in it: the chain stays whole and the journal appends on', () => {
    const path = journalPath();
    const journal = open(path);
    playHands(journal, 1);
    const records = [...journal.records()];
    cursor(path).advance(2);
    expect([...journal.records()]).toEqual(records);
    journal.append(holeCard(10));
    journal.close();
    const reopened = open(path);
    expect(reopened.halted()).toBeUndefined();
    expect(reopened.verify()).toMatchObject({ ok: true });
    const reader = openJournal(path, { readonly: true });
    expect(reader.verify()).toMatchObject({ ok: true });
    reader.close();
  });

  it('starts at the end of a journal it never read, and where it was left after that', () => {
    const path = journalPath();
    const journal = open(path);
    expect(cursor(path).seq).toBe(-1);
    playHands(journal, 2);
    const other = journalPath();
    playHands(open(other), 2);
    expect(cursor(other).seq).toBe(7);
    cursor(path).advance(5);
    expect(cursor(path).seq).toBe(5);
  });

  it('reads the events after a seq in order, without snapshots, markers or a body that is not JSON', () => {
    const path = journalPath();
    const journal = open(path);
    const reading = cursor(path);
    journal.append(handStart(0));
    journal.snapshot(0, 'v1', {});
    journal.marker('power-on');
    journal.appendBatch([holeCard(10), holeCard(20, 3), { type: 'settle', t: 30 }]);
    // The card at seq 1 is record 4: broken, it is the chain check's to name, not the feed's to send.
    rewriteRecord(rawHandle(path), 4, () => '{not json');
    const events = reading.after(-1, 10);
    expect(events.map(({ seq, type }) => [seq, type])).toEqual([
      [0, 'hand.start'],
      [2, 'card.seen'],
      [3, 'settle'],
    ]);
    expect(JSON.parse(events[1]?.body ?? '')).toEqual(journal.eventsBetween(2, 2)[0]);
    expect(events.map((event) => event.at)).toEqual([
      1_700_000_000_000, 1_700_000_000_003, 1_700_000_000_003,
    ]);
    expect(reading.after(0, 1).map((event) => event.seq)).toEqual([2]);
  });

  it('refuses a file that is not a croupier journal, and leaves it as it was', () => {
    const path = journalPath();
    const db = rawHandle(path);
    db.exec('CREATE TABLE notes (text TEXT)');
    db.close();
    const before = readFileSync(path);
    expect(journalError(() => cursor(path)).code).toBe('not-a-journal');
    expect(readFileSync(path)).toEqual(before);
    expect(journalError(() => cursor(journalPath())).code).toBe('unwritable');
  });
});
