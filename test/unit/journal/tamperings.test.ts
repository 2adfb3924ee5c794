import { describe, expect, it } from 'vitest';
import { JournalError } from '../../../src/journal/errors.js';
import { openJournal } from '../../../src/journal/store.js';
import { verdict, withDamage } from '../../../src/journal/verify.js';
import { walkInSlices } from '../../../src/journal/watch.js';
import { storedRecords, TAMPERINGS } from '../../tamperings.js';
import { holeCard, open, playHands, writtenJournal } from './journal-fixtures.js';

/*
 * Each tampering of the issue, through a real SQLite connection of its own (or the file cut short), on a
 * journal closed (as croupier finds it at start) and on one open for writing (while croupier plays):
 * named at the first record the chain no longer vouches for, and nothing before that record is lost.
 * The journal: 20 hands of a hand.start, its snapshot and 30 hole cards, 640 records.
 */

const HANDS = 20;
const CARDS = 30;
const AT = 200;

/** The first broken record a walk names on a truncated file: its number, and that it is unreadable. */
function damaged(path: string): number {
  let error: unknown;
  try {
    openJournal(path, { readonly: true }).close();
  } catch (thrown) {
    error = thrown;
  }
  expect(error).toBeInstanceOf(JournalError);
  const named = withDamage(error as JournalError);
  expect(named.code).toBe('corrupt');
  expect(named.record).toMatchObject({ problem: 'unreadable' });
  expect(named.message).toMatch(/is broken: it cannot be read, nor any record after it: the file is damaged/);
  return named.record?.id as number;
}

describe('every tampering is named at its first broken record', () => {
  it.each(TAMPERINGS)('$name, the journal closed', (tampering) => {
    const path = writtenJournal(HANDS, CARDS);
    const before = storedRecords(path);
    expect(before).toHaveLength(HANDS * (CARDS + 2));
    const { first, problem } = tampering.apply(path, AT);
    let named: number;
    if (first === undefined) {
      named = damaged(path);
    } else {
      const journal = open(path, { readonly: true });
      expect(journal.verify()).toMatchObject({ ok: false, id: first, problem });
      named = first;
    }
    expect(named).toBeGreaterThan(1);
    // Nothing journaled before it (or before the tampered one) is lost, or changed.
    const kept = Math.min(named, AT);
    expect(storedRecords(path, kept)).toEqual(before.filter((record) => record.id < kept));
  });

  it.each(TAMPERINGS)(
    '$name, while a writer has it open: the background walk names it',
    async (tampering) => {
      const path = writtenJournal(HANDS, CARDS);
      const writer = open(path);
      const before = storedRecords(path);
      const { first, problem } = tampering.apply(path, AT);
      const reader = writer.reader();
      const check = await walkInSlices(reader);
      reader.close();
      const found = verdict(check.walked, check.history);
      if (first === undefined) {
        expect(found).toMatchObject({ ok: false, problem });
      } else {
        expect(found).toMatchObject({ ok: false, id: first, problem });
      }
      const kept = Math.min((found as { id: number }).id, AT);
      expect(storedRecords(path, kept)).toEqual(before.filter((record) => record.id < kept));
    },
  );

  it('reads one snapshot: what is appended or rotated out meanwhile breaks nothing it sees', async () => {
    const path = writtenJournal(HANDS, CARDS);
    const writer = open(path);
    const reader = writer.reader();
    const walking = walkInSlices(reader);
    // The walk has taken its snapshot; it reads it between the writer's changes (it yields between slices).
    writer.appendBatch([holeCard(1)]);
    expect(writer.rotate({ maxRecords: 300 }).records).toBeGreaterThan(0);
    const check = await walking;
    reader.close();
    expect(verdict(check.walked, check.history)).toMatchObject({ ok: true, records: HANDS * (CARDS + 2) });
    expect(writer.verify()).toMatchObject({ ok: true });
  });

  it('names each broken record once, and a run of them (ids shifted by an insert) as one', () => {
    const path = writtenJournal(HANDS, CARDS);
    const insert = TAMPERINGS.find(({ name }) => name === 'a record inserted');
    insert?.apply(path, AT);
    const body = TAMPERINGS.find(({ name }) => name === 'a body changed');
    body?.apply(path, 10);
    const { walked } = open(path, { readonly: true }).audit();
    expect(walked.breaks).toMatchObject([
      { id: 10, problem: 'hash' },
      // Every record after the inserted one has a new id, so a hash that no longer holds.
      { id: AT + 1, problem: 'prev', through: HANDS * (CARDS + 2) + 1 },
    ]);
    expect(walked.records).toBe(HANDS * (CARDS + 2) + 1);
  });

  it('checks the records it chains onto at open: a broken one among them opens the journal halted', () => {
    const path = writtenJournal(HANDS, CARDS);
    TAMPERINGS[0]?.apply(path, HANDS * (CARDS + 2) - 3);
    const journal = open(path);
    expect(journal.halted()?.record).toMatchObject({ id: HANDS * (CARDS + 2) - 3, problem: 'hash' });
    expect(() => playHands(journal, 1)).toThrow(/is broken: its hash does not match its content/);
  });
});
