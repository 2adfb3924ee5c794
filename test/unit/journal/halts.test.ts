import { describe, expect, it } from 'vitest';
import { standingHalt } from '../../../src/journal/halts.js';
import { TAMPERINGS } from '../../tamperings.js';
import {
  HASH_MISMATCH,
  holeCard,
  journalError,
  open,
  playHands,
  rawHandle,
  rewriteRecord,
  writtenJournal,
} from './journal-fixtures.js';

/*
 * A broken record halts the journal for play, and the halt is journaled: it outlives a reopen (a restart)
 * until a supervisor's clearing, journaled too, acknowledges each broken record as it then stands. The
 * journals: hands of a hand.start, its snapshot and 3 hole cards, 5 records each.
 */

const bodyChanged = (path: string, id: number, value = 1) =>
  rawHandle(path).prepare(`UPDATE records SET body = json_set(body, '$.x', ?) WHERE id = ?`).run(value, id);

describe('journal: each append checks the record it chains onto, as the disk holds it', () => {
  it('its body changed: the append is refused naming it, and nothing is written', () => {
    const path = writtenJournal(0);
    const journal = open(path);
    playHands(journal, 4);
    bodyChanged(path, 20);
    const error = journalError(() => journal.append(holeCard(99)));
    expect(error.code).toBe('chain-broken');
    expect(error.record).toEqual({ id: 20, seq: 15, kind: 'event', problem: 'hash', reason: HASH_MISMATCH });
    expect(error.message).not.toMatch(/Ah|E0040150/);
    expect(journal.lastSeq()).toBe(15);
    // Halted: play is refused from now on, even a snapshot.
    expect(() => journal.snapshot(15, 'v1', {})).toThrow(error);
  });

  it('replaced and hashed again: rewritten', () => {
    const path = writtenJournal(0);
    const journal = open(path);
    playHands(journal, 2);
    rewriteRecord(rawHandle(path), 10, (body) => body.replace('"face":"Ah"', '"face":"Kd"'));
    expect(journalError(() => journal.append(holeCard(99))).record).toMatchObject({
      id: 10,
      problem: 'rewritten',
      reason: 'it was replaced, and hashed again, after croupier wrote it',
    });
  });

  it('the last records deleted: gone, from the first one', () => {
    const path = writtenJournal(0);
    const journal = open(path);
    playHands(journal, 4);
    rawHandle(path).prepare('DELETE FROM records WHERE id > 16').run();
    expect(journalError(() => journal.append(holeCard(99))).record).toMatchObject({
      id: 17,
      problem: 'gone',
      reason: 'croupier wrote up to record 20; the journal ends at record 16',
    });
  });

  it('a record added after the last: added, and the halt goes after it on the disk', () => {
    const path = writtenJournal(0);
    const journal = open(path);
    playHands(journal, 1);
    const db = rawHandle(path);
    db.prepare(
      "INSERT INTO records (id, kind, seq, at, body, prev, hash) VALUES (6, 'event', 5, 0, '{}', 'x', 'y')",
    ).run();
    const error = journalError(() => journal.append(holeCard(99)));
    expect(error.record).toMatchObject({ id: 6, problem: 'added' });
    expect(journal.halt(error.record as never)).toBe(error);
    expect(journal.history().halts).toMatchObject([{ id: 7, record: { id: 6, problem: 'added' } }]);
  });
});

describe('journal: a halt outlives a restart until a supervisor clears it', () => {
  it('is journaled once, and stands at every reopen, even once the record is put back as it was', () => {
    const path = writtenJournal(10);
    const db = rawHandle(path);
    const original = db.prepare('SELECT body FROM records WHERE id = 9').pluck().get() as string;
    bodyChanged(path, 9);
    const journal = open(path);
    // Record 9 is not among the last ones: the whole walk (the background check's) finds it.
    expect(journal.halted()).toBeUndefined();
    const { walked } = journal.audit();
    const error = journal.halt(walked.breaks[0] as never);
    expect(error.record).toMatchObject({ id: 9, seq: 6, problem: 'hash' });
    expect(() => journal.append(holeCard(1))).toThrow(error);
    journal.marker('power-off');
    journal.close();

    // "Repaired": the chain is whole again, the halt stands.
    db.prepare('UPDATE records SET body = ? WHERE id = 9').run(original);
    const again = open(path);
    expect(again.verify()).toMatchObject({ ok: true });
    expect(again.halted()?.record).toMatchObject({ id: 9, problem: 'hash' });
    expect(again.history().halts).toHaveLength(1);
    expect(() => again.append(holeCard(1))).toThrow(/record 9 \(seq 6, kind event\) is broken/);
    again.close();
  });

  it('a clearing names the supervisor and acknowledges each record as it stands: play goes on', () => {
    const path = writtenJournal(10);
    bodyChanged(path, 9);
    TAMPERINGS.find(({ name }) => name === 'a record deleted')?.apply(path, 13);
    const journal = open(path);
    const { walked } = journal.audit();
    expect(walked.breaks).toMatchObject([{ id: 9 }, { id: 14, problem: 'missing' }]);
    journal.halt(walked.breaks[0] as never);
    const [halt] = journal.history().halts;
    journal.clearHalt('Marie', 'chain-broken', walked.breaks);
    journal.close();

    const cleared = open(path);
    expect(cleared.halted()).toBeUndefined();
    const history = cleared.history();
    expect(standingHalt(history)).toBeUndefined();
    expect(history.clearings).toMatchObject([
      { supervisor: 'Marie', cause: 'chain-broken', halt: halt?.id, records: [{ id: 9 }, { id: 14 }] },
    ]);
    const verification = cleared.verify();
    expect(verification).toMatchObject({ ok: true, cleared: [{ id: 9, clearedBy: 'Marie' }, { id: 14 }] });
    playHands(cleared, 1);
    expect(cleared.lastSeq()).toBe(43);
    cleared.close();
  });

  it('the same record changed again is no longer the one cleared: it halts again', () => {
    const path = writtenJournal(10);
    bodyChanged(path, 9);
    const journal = open(path);
    journal.clearHalt('Marie', 'chain-broken', journal.audit().walked.breaks);
    expect(journal.verify()).toMatchObject({ ok: true });
    bodyChanged(path, 9, 2);
    expect(journal.verify()).toMatchObject({ ok: false, id: 9, problem: 'hash' });
  });

  it('a run of broken records (an insert) is cleared as one, and the tail check leaves it to the walk', () => {
    const path = writtenJournal(4);
    TAMPERINGS.find(({ name }) => name === 'a record inserted')?.apply(path, 5);
    const halted = open(path);
    // Every record after the insert has a new id: the last ones too, so the journal opens halted.
    expect(halted.halted()?.record).toMatchObject({ problem: 'hash' });
    const { walked } = halted.audit();
    expect(walked.breaks).toMatchObject([{ id: 6, problem: 'prev', through: 21 }]);
    halted.clearHalt('Marie', 'chain-broken', walked.breaks);
    halted.close();
    const cleared = open(path);
    expect(cleared.halted()).toBeUndefined();
    expect(cleared.verify()).toMatchObject({ ok: true, cleared: [{ id: 6, through: 21 }] });
  });
});
