import { writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { journalVerify } from '../../../src/cli/journal.js';
import { journalPath, open, playHands, rawHandle, writtenJournal } from './journal-fixtures.js';

let stdout: string;
let stderr: string;

beforeEach(() => {
  stdout = '';
  stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((text) => {
    stdout += String(text);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((text) => {
    stderr += String(text);
    return true;
  });
});

afterEach(() => vi.restoreAllMocks());

function verify(path: string) {
  const status = journalVerify(path);
  return { status, stdout, stderr };
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

  it('names the first broken record: exit 1', () => {
    const path = writtenJournal(3);
    const db = rawHandle(path);
    db.prepare('UPDATE records SET body = replace(body, \'"t":5\', \'"t":6\') WHERE id = 8').run();
    db.prepare("UPDATE records SET body = replace(body, 'Ah', 'Kh') WHERE id = 15").run();
    expect(verify(path)).toEqual({
      status: 1,
      stdout: `journal ${path}: record 8 (seq 5, kind event) is broken: its hash does not match its content\n`,
      stderr: '',
    });
  });

  it('a file it cannot read as a journal: a clear message, exit 2', () => {
    const missing = journalPath();
    expect(verify(missing)).toEqual({
      status: 2,
      stdout: '',
      stderr: `journal ${missing}: cannot open the file: unable to open database file\n`,
    });
    stderr = '';
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
