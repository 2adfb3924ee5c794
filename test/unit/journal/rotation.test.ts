import { describe, expect, it } from 'vitest';
import {
  brokenAt,
  HASH_MISMATCH,
  handStart,
  holeCard,
  journalPath,
  open,
  playHands,
  rawHandle,
} from './journal-fixtures.js';

/*
 * A power-on marker (id 1), then 4 hands of 5 records (hand.start, snapshot, 3 hole cards): hand 1 is
 * ids 2-6, hand 2 ids 7-11, hand 3 ids 12-16, hand 4 ids 17-21; seqs 0 to 15.
 */
function played(now?: () => number) {
  const path = journalPath();
  const journal = open(path, now && { now });
  journal.marker('power-on');
  playHands(journal, 4);
  return { path, journal };
}

const ids = (journal: ReturnType<typeof open>) => [...journal.records()].map((record) => record.id);

describe('journal: rotation', () => {
  it('removes the oldest whole hands down to maxRecords, the rotation marker counted', () => {
    const { journal } = played();
    expect(journal.rotate({ maxRecords: 12 })).toEqual({ records: 11, hands: 2 });
    expect(ids(journal)).toEqual([12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22]);
    const [marker] = [...journal.records(22)];
    expect(JSON.parse(marker?.body ?? '')).toEqual({
      kind: 'rotation',
      detail: { throughId: 11, hash: expect.stringMatching(/^[0-9a-f]{64}$/), records: 11, hands: 2 },
    });
    expect(journal.verify()).toMatchObject({ ok: true, records: 11 });
  });

  it('keeps the recall, the restore point and the numbering', () => {
    const { path, journal } = played();
    const restore = journal.restorePoint();
    journal.rotate({ maxRecords: 12 });
    expect(journal.hands(10).map((hand) => hand.number)).toEqual([3, 4]);
    expect(journal.hand(2)).toBeNull();
    expect(journal.hand(3)).toMatchObject({ number: 3, firstSeq: 8, lastSeq: 11 });
    expect(journal.restorePoint()).toEqual(restore);
    journal.close();

    const again = open(path);
    expect(again.append(handStart(99)).seq).toBe(16);
    expect(again.snapshot(16, 'v1', {})).toBe(5);
    expect(again.verify()).toMatchObject({ ok: true, records: 13 });
  });

  it('never removes the last hand', () => {
    const { journal } = played();
    expect(journal.rotate({ maxRecords: 1 })).toEqual({ records: 16, hands: 3 });
    expect(ids(journal)).toEqual([17, 18, 19, 20, 21, 22]);
    expect(journal.rotate({ maxRecords: 1 })).toEqual({ records: 0, hands: 0 });
    expect(journal.verify()).toMatchObject({ ok: true, records: 6 });
  });

  it('removes nothing, and writes nothing, within the limits or without a hand', () => {
    const { journal } = played();
    expect(journal.rotate({ maxRecords: 100, maxAgeMs: 60_000 })).toEqual({ records: 0, hands: 0 });
    expect(ids(journal)).toHaveLength(21);
    const handless = open(journalPath());
    handless.appendBatch([holeCard(1), holeCard(2)]);
    expect(handless.rotate({ maxRecords: 1 })).toEqual({ records: 0, hands: 0 });
  });

  it('removes the hands whose records are all older than maxAgeMs', () => {
    let wall = 0;
    // Each write 1 s after the last: hand 2's at 5, 6 and 7 s, hand 3's from 8 s.
    const { journal } = played(() => (wall += 1_000));
    wall = 30_000;
    // Now is 31 s: the records since 7 s are recent, and hand 2 holds the first of them.
    expect(journal.rotate({ maxAgeMs: 24_000 })).toEqual({ records: 6, hands: 1 });
    expect(ids(journal)[0]).toBe(7);
    expect(journal.verify()).toMatchObject({ ok: true });
  });

  it('keeps the chain verifiable over several rotations, and the export reads what is kept', () => {
    const { journal } = played();
    journal.rotate({ maxRecords: 17 });
    playHands(journal, 3);
    journal.rotate({ maxRecords: 12 });
    const records = [...journal.records()];
    expect(records[0]?.id).toBeGreaterThan(22);
    expect(
      records.filter((record) => record.kind === 'marker').map((record) => JSON.parse(record.body).kind),
    ).toEqual(['rotation']);
    expect(journal.verify()).toMatchObject({ ok: true, records: records.length });
  });
});

describe('journal: tampering after a rotation', () => {
  function rotated() {
    const { path, journal } = played();
    journal.rotate({ maxRecords: 12 });
    return { journal, db: rawHandle(path) };
  }

  it('names a kept record that was changed', () => {
    const { journal, db } = rotated();
    db.prepare("UPDATE records SET body = replace(body, 'Ah', 'As') WHERE id = 14").run();
    expect(journal.verify()).toMatchObject(brokenAt(14, HASH_MISMATCH));
  });

  it('names the rotation marker when its anchor was changed', () => {
    const { journal, db } = rotated();
    db.prepare(
      `UPDATE records SET body = replace(body, '"throughId":11', '"throughId":12') WHERE id = 22`,
    ).run();
    expect(journal.verify()).toEqual({
      ok: false,
      id: 22,
      seq: 15,
      kind: 'marker',
      problem: 'hash',
      reason: HASH_MISMATCH,
    });
  });

  it('names the first kept record when more records were removed, or the rotation marker too', () => {
    const { journal, db } = rotated();
    db.prepare('DELETE FROM records WHERE id = 12').run();
    expect(journal.verify()).toMatchObject(brokenAt(13, 'record 12 is missing before it'));
    db.prepare('DELETE FROM records WHERE id = 22').run();
    expect(journal.verify()).toMatchObject(brokenAt(13, 'records 1 to 12 are missing before it'));
  });
});
