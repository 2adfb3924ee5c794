import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JournalError, type JournalErrorCode } from '../../../src/journal/errors.js';
import { openJournal } from '../../../src/journal/store.js';
import {
  HASH_MISMATCH,
  handStart,
  holeCard,
  journalError,
  journalPath,
  open,
  rawHandle,
  writtenJournal,
} from './journal-fixtures.js';

function expectRefusal(action: () => unknown, code: JournalErrorCode, path: string, problem: RegExp): void {
  const error = journalError(action);
  expect(error.code).toBe(code);
  expect(error.message).toMatch(new RegExp(`^journal ${path}: `));
  expect(error.message).toMatch(problem);
}

describe('journal: a disk that refuses to write', () => {
  it('disk full: the append fails as unwritable, nothing more is written, nothing before is lost', () => {
    const path = journalPath();
    const journal = open(path, { maxBytes: 64 * 1024 });
    const written = [];
    let refused: JournalError | undefined;
    for (let t = 0; !refused; t += 1) {
      try {
        written.push(journal.append(holeCard(t)));
      } catch (error) {
        refused = error as JournalError;
      }
    }
    expect(refused).toBeInstanceOf(JournalError);
    expect(refused?.code).toBe('unwritable');
    expect(refused?.message).toMatch(/cannot record: the disk is full \(SQLITE_FULL\)/);
    expect(refused?.message).toMatch(/nothing more is recorded until it is reopened/);
    // Hole cards never in a message.
    expect(refused?.message).not.toMatch(/Ah|E0040150/);
    // Refused from now on, even what would fit, and the seq did not move.
    expect(() => journal.marker('power-off')).toThrow(refused);
    expect(() => journal.append(handStart(0))).toThrow(refused);
    expect(journal.lastSeq()).toBe(written.length - 1);
    journal.close();

    const again = open(path);
    expect(again.eventsBetween(0, Number.MAX_SAFE_INTEGER)).toEqual(written);
    expect(again.verify()).toMatchObject({ ok: true, records: written.length });
  });

  it('a batch that does not fit is written not at all', () => {
    const path = journalPath();
    const journal = open(path, { maxBytes: 64 * 1024 });
    journal.append(handStart(0));
    const batch = Array.from({ length: 2_000 }, (_, t) => holeCard(t));
    expect(journalError(() => journal.appendBatch(batch)).code).toBe('unwritable');
    journal.close();
    expect(open(path).lastSeq()).toBe(0);
  });

  it('read-only: the first append fails as unwritable and the file keeps what it had', () => {
    const path = writtenJournal(1);
    const before = readFileSync(path);
    const journal = open(path, { readonly: true });
    expectRefusal(() => journal.append(holeCard(9)), 'unwritable', path, /read-only \(SQLITE_READONLY\)/);
    expect(journal.lastSeq()).toBe(3);
    journal.close();
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('a folder that does not exist: unwritable at open', () => {
    const path = join(journalPath(), 'no-such-folder', 'journal.db');
    expectRefusal(() => openJournal(path), 'unwritable', path, /cannot open or create the file/);
  });
});

describe('journal: a file that is not a sound journal is refused at open and left as it is', () => {
  function expectRefusedUntouched(path: string, code: JournalErrorCode, problem: RegExp): void {
    const before = readFileSync(path);
    expectRefusal(() => openJournal(path), code, path, problem);
    expect(readFileSync(path).equals(before)).toBe(true);
  }

  it('random bytes', () => {
    const path = journalPath();
    writeFileSync(path, Buffer.from(Array.from({ length: 8192 }, (_, i) => (i * 7919 + 13) % 256)));
    expectRefusedUntouched(path, 'corrupt', /not an SQLite database, or its header is damaged/);
  });

  it('a journal cut short', () => {
    const path = writtenJournal(1, 2_000);
    const whole = readFileSync(path);
    const cut = journalPath();
    writeFileSync(cut, whole.subarray(0, whole.length / 2));
    expectRefusedUntouched(cut, 'corrupt', /damaged/);
    writeFileSync(cut, whole.subarray(0, 60));
    expectRefusedUntouched(cut, 'corrupt', /damaged/);
  });

  it('a damaged page', () => {
    const path = writtenJournal(1, 2_000);
    const bytes = readFileSync(path);
    bytes.fill(0xff, 4096 * 3, 4096 * 3 + 64);
    writeFileSync(path, bytes);
    expectRefusedUntouched(
      path,
      'corrupt',
      /the database is damaged \(quick_check: Tree \d+ page \d+: .+\)$/,
    );
  });

  it('another SQLite database', () => {
    const path = journalPath();
    rawHandle(path).exec('CREATE TABLE players (name TEXT)').close();
    expectRefusedUntouched(path, 'not-a-journal', /an SQLite database, but not a croupier journal/);
  });

  it('a journal of another schema version', () => {
    const path = journalPath();
    open(path).close();
    rawHandle(path).pragma('user_version = 7');
    expectRefusedUntouched(path, 'version', /schema version 7, but this croupier reads version 1/);
  });

  it('a journal whose last records were tampered with: opened halted, no play is chained onto them', () => {
    const path = writtenJournal(3);
    rawHandle(path).prepare("UPDATE records SET body = replace(body, 'Ah', 'Kh') WHERE id = 14").run();
    const journal = open(path);
    const halt = journal.halted();
    expect(halt?.code).toBe('chain-broken');
    expect(halt?.message).toMatch(
      new RegExp(
        `^journal ${path}: record 14 \\(seq 10, kind event\\) is broken: its hash does not match its content$`,
      ),
    );
    expect(halt?.record).toEqual({ id: 14, seq: 10, kind: 'event', problem: 'hash', reason: HASH_MISMATCH });
    expectRefusal(() => journal.append(holeCard(99)), 'chain-broken', path, /record 14/);
    // The halt itself is journaled, after what was there: the evidence, not play.
    expect(journal.lastSeq()).toBe(11);
    expect(journal.history().halts).toMatchObject([{ id: 16, record: { id: 14, problem: 'hash' } }]);
  });

  it('a reader opens only an existing journal', () => {
    const path = journalPath();
    expectRefusal(() => openJournal(path, { readonly: true }), 'unreadable', path, /cannot open the file/);
    writeFileSync(path, '');
    expectRefusal(() => openJournal(path, { readonly: true }), 'not-a-journal', path, /an empty database/);
  });

  it('an empty file becomes a journal', () => {
    const path = journalPath();
    writeFileSync(path, '');
    open(path).append(handStart(1));
    expect(open(path, { readonly: true }).lastSeq()).toBe(0);
  });
});
