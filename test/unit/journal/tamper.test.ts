import { describe, expect, it } from 'vitest';
import { GENESIS } from '../../../src/journal/chain.js';
import { JournalError } from '../../../src/journal/errors.js';
import {
  brokenAt,
  HASH_MISMATCH,
  journalPath,
  open,
  playHands,
  rawHandle,
  rewriteRecord,
} from './journal-fixtures.js';

/*
 * Tampering through a second handle on the file, as someone with the file would: every change to what is
 * stored is named at the first record it breaks, whether the journal was open meanwhile or reopened.
 * The journal: 4 hands of 5 records (hand.start, snapshot, 3 hole cards), ids 1 to 20, seqs 0 to 15.
 */
function played() {
  const path = journalPath();
  const journal = open(path);
  playHands(journal, 4);
  return { path, journal, db: rawHandle(path) };
}

describe('journal: the hash chain shows tampering', () => {
  it('is intact as written, and says its last hash', () => {
    const { journal, db } = played();
    const lastHash = db.prepare('SELECT hash FROM records WHERE id = 20').pluck().get();
    expect(journal.verify()).toEqual({ ok: true, records: 20, lastHash });
  });

  it('names the record one byte of whose body changed', () => {
    const { journal, db } = played();
    const body = db.prepare('SELECT body FROM records WHERE id = 9').pluck().get() as string;
    const changed = body.replace('"face":"Ah"', '"face":"Ac"');
    expect(changed).not.toBe(body);
    db.prepare('UPDATE records SET body = ? WHERE id = 9').run(changed);
    expect(journal.verify()).toEqual({
      ok: false,
      id: 9,
      seq: 6,
      kind: 'event',
      problem: 'hash',
      reason: HASH_MISMATCH,
    });
  });

  it('names the record after a deleted one', () => {
    const { journal, db } = played();
    db.prepare('DELETE FROM records WHERE id = 7').run();
    expect(journal.verify()).toMatchObject(brokenAt(8, 'record 7 is missing before it'));
    db.prepare('DELETE FROM records WHERE id IN (1, 2)').run();
    expect(journal.verify()).toMatchObject(brokenAt(3, 'records 1 to 2 are missing before it'));
  });

  it('names a record whose hash was changed', () => {
    const { journal, db } = played();
    db.prepare('UPDATE records SET hash = ? WHERE id = 12').run('f'.repeat(64));
    expect(journal.verify()).toMatchObject(brokenAt(12, HASH_MISMATCH));
  });

  it('names the record after one rehashed to hide a change to it', () => {
    const { journal, db } = played();
    rewriteRecord(db, 14, (body) => body.replace('"face":"Ah"', '"face":"Ks"'));
    expect(journal.verify()).toMatchObject(brokenAt(15, 'its prev does not match the hash of record 14'));
  });

  it('names a record whose body is no longer JSON, and reads it back for no one', () => {
    const { journal, db } = played();
    rewriteRecord(db, 20, (body) => body.slice(0, -1));
    expect(journal.verify()).toMatchObject(brokenAt(20, 'its body is not JSON'));
    const read = () => journal.restorePoint();
    expect(read).toThrow(JournalError);
    expect(read).toThrow(/: record 20 \(seq 15, kind event\) is broken: its body is not JSON$/);
  });

  it('names a record whose seq, kind or wall time was changed', () => {
    for (const change of ['seq = seq + 1', "kind = 'marker'", 'at = at - 60000']) {
      const { journal, db } = played();
      db.prepare(`UPDATE records SET ${change} WHERE id = 15`).run();
      expect(journal.verify()).toMatchObject(brokenAt(15, HASH_MISMATCH));
    }
  });

  it('verifies an empty journal', () => {
    expect(open(journalPath()).verify()).toEqual({ ok: true, records: 0, lastHash: GENESIS });
  });
});
