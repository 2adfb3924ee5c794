import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { journalVerify } from '../../../src/cli/journal.js';
import { TAMPERINGS } from '../../tamperings.js';
import { capturedOutput } from '../captured-output.js';
import { journalPath, open, playHands, rawHandle, writtenJournal } from './journal-fixtures.js';

const output = capturedOutput();

function verify(path: string) {
  const status = journalVerify(path);
  return { status, stdout: output.stdout, stderr: output.stderr };
}

describe('croupier journal verify', () => {
  it('says an intact chain, its length and last hash: exit 0', () => {
    const path = writtenJournal(2);
    const lastHash = rawHandle(path).prepare('SELECT hash FROM records WHERE id = 10').pluck().get();
    expect(verify(path)).toEqual({
      status: 0,
      stdout: `journal ${path}: 10 records, chain intact (last hash ${lastHash})\n`,
      stderr: '',
    });
  });

  it('reads a journal the controller is writing', () => {
    const path = journalPath();
    const writer = open(path);
    playHands(writer, 1);
    expect(verify(path).stdout).toMatch(/: 5 records, chain intact/);
    playHands(writer, 1);
    expect(verify(path).status).toBe(0);
  });

  it('names every broken record, the first first: exit 1', () => {
    const path = writtenJournal(3);
    const db = rawHandle(path);
    db.prepare('UPDATE records SET body = replace(body, \'"t":5\', \'"t":6\') WHERE id = 8').run();
    db.prepare("UPDATE records SET body = replace(body, 'Ah', 'Kh') WHERE id = 15").run();
    expect(verify(path)).toEqual({
      status: 1,
      stdout:
        `journal ${path}: record 8 (seq 5, kind event) is broken: its hash does not match its content\n` +
        `journal ${path}: record 15 (seq 11, kind event) is broken: its hash does not match its content\n`,
      stderr: '',
    });
  });

  it('says who cleared a broken record, and a halt no supervisor has cleared', () => {
    const path = writtenJournal(3);
    rawHandle(path).prepare("UPDATE records SET body = replace(body, 'Ah', 'Kh') WHERE id = 4").run();
    const journal = open(path, { now: () => Date.UTC(2026, 0, 2, 3, 4, 5) });
    const { walked } = journal.audit();
    journal.halt(walked.breaks[0] as never);
    journal.clearHalt('Marie', 'chain-broken', walked.breaks);
    expect(verify(path)).toMatchObject({
      status: 1,
      stdout: `journal ${path}: record 4 (seq 2, kind event) is broken: its hash does not match its content (cleared by Marie at 2026-01-02T03:04:05.000Z)\n`,
    });
    // Put back as it was, then broken again and halted on: the halt stands until cleared.
    output.stdout = '';
    rawHandle(path).prepare("UPDATE records SET body = replace(body, 'Kh', 'Ah') WHERE id = 4").run();
    journal.halt({
      id: 4,
      seq: 2,
      kind: 'event',
      problem: 'hash',
      reason: 'its hash does not match its content',
    });
    expect(verify(path)).toMatchObject({ status: 1 });
    expect(output.stdout).toMatch(/: 18 records, chain intact \(last hash [0-9a-f]{64}\)\n/);
    expect(output.stdout).toMatch(
      /croupier halted on record 4 \(seq 2, kind event\) is broken: .+ \(record 18\), and no supervisor has cleared it\n$/,
    );
  });

  it('names the first record of a file cut short that cannot be read: exit 2', () => {
    const path = writtenJournal(20, 30);
    TAMPERINGS.find(({ name }) => name === 'the file truncated')?.apply(path, 0);
    const { status, stderr: said } = verify(path);
    expect(status).toBe(2);
    expect(said).toMatch(
      new RegExp(
        `^journal ${path}: cannot open: the database is damaged \\(SQLITE_CORRUPT\\); record \\d+ is broken: it cannot be read, nor any record after it: the file is damaged \\(SQLITE_CORRUPT\\)\n$`,
      ),
    );
  });

  it('a file it cannot read as a journal: a clear message, exit 2', () => {
    const missing = journalPath();
    expect(verify(missing)).toEqual({
      status: 2,
      stdout: '',
      stderr: `journal ${missing}: cannot open the file: unable to open database file\n`,
    });
    output.stderr = '';
    const garbage = journalPath();
    writeFileSync(
      garbage,
      'not a journal at all, but long enough to be read as a database header.\n'.repeat(100),
    );
    expect(verify(garbage)).toEqual({
      status: 2,
      stdout: '',
      stderr: `journal ${garbage}: cannot open: not an SQLite database, or its header is damaged (SQLITE_NOTADB)\n`,
    });
  });
});
