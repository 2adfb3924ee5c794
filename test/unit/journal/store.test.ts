import { describe, expect, it } from 'vitest';
import { GENESIS, recordHash } from '../../../src/journal/chain.js';
import { openJournal } from '../../../src/journal/store.js';
import { handStart, holeCard, journalPath, open, playHands, rawHandle } from './journal-fixtures.js';

describe('journal: appending', () => {
  it('numbers events from 0 and returns them as written', () => {
    const journal = open(journalPath());
    expect(journal.lastSeq()).toBe(-1);
    expect(journal.append(handStart(10))).toEqual({ ...handStart(10), seq: 0 });
    expect(journal.appendBatch([holeCard(11), holeCard(12)]).map((event) => event.seq)).toEqual([1, 2]);
    expect(journal.appendBatch([])).toEqual([]);
    expect(journal.lastSeq()).toBe(2);
  });

  it('keeps every event across close and reopen, and numbers on after the last', () => {
    const path = journalPath();
    const first = open(path);
    const written = [first.append(handStart(1)), ...first.appendBatch([holeCard(2), holeCard(3)])];
    first.marker('power-off', { clean: true });
    first.close();

    const again = open(path);
    expect(again.lastSeq()).toBe(2);
    expect(again.eventsBetween(0, 2)).toEqual(written);
    expect(again.append(holeCard(4)).seq).toBe(3);
    expect(again.verify()).toMatchObject({ ok: true, records: 5 });
  });

  it('writes the file in WAL mode', () => {
    const path = journalPath();
    open(path).append(handStart(1));
    const db = rawHandle(path);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
  });

  it('stores records in one chain: canonical bodies, wall time, each hash over the previous one', () => {
    const journal = open(journalPath(), { now: () => 42 });
    journal.marker('power-on', { version: '0.1.0' });
    journal.append(handStart(5));
    journal.snapshot(0, 'v1', { b: 1, a: [2] });
    const [marker, event, snapshot] = [...journal.records()];
    expect(marker).toMatchObject({ id: 1, kind: 'marker', seq: -1, at: 42, prev: GENESIS });
    expect(marker?.body).toBe('{"detail":{"version":"0.1.0"},"kind":"power-on"}');
    expect(event).toMatchObject({ id: 2, kind: 'event', seq: 0, prev: marker?.hash });
    expect(event?.body).toBe(
      '{"blinds":[50,100],"button":1,"players":[1,2,3],"seq":0,"t":5,"type":"hand.start"}',
    );
    expect(snapshot?.body).toBe('{"hand":1,"machineVersion":"v1","seq":0,"state":{"a":[2],"b":1}}');
    for (const record of [marker, event, snapshot]) {
      if (record) expect(recordHash(record)).toBe(record.hash);
    }
  });

  it('refuses a snapshot after an event not yet written, and a rotation marker from outside', () => {
    const journal = open(journalPath());
    expect(() => journal.snapshot(0, 'v1', {})).toThrow(RangeError);
    expect(() => journal.marker('rotation', {})).toThrow(RangeError);
    expect([...journal.records()]).toEqual([]);
  });

  it('works in memory, for tests', () => {
    const journal = openJournal(':memory:');
    journal.append(handStart(1));
    expect(journal.verify()).toMatchObject({ ok: true, records: 1 });
    journal.close();
  });
});

describe('journal: recovery and recall', () => {
  it('restores from the last snapshot with the events after it, in order', () => {
    const journal = open(journalPath());
    expect(journal.restorePoint()).toEqual({ snapshot: null, events: [] });
    journal.append(holeCard(1));
    expect(journal.restorePoint().events.map((event) => event.seq)).toEqual([0]);

    playHands(journal, 2, 3); // hands at seqs 1..4 and 5..8
    journal.marker('power-off');
    const { snapshot, events } = journal.restorePoint();
    expect(snapshot).toEqual({ hand: 2, seq: 5, machineVersion: 'v1', state: { dealt: 1 } });
    expect(events).toEqual(journal.eventsBetween(6, 8));
    expect(events.map((event) => event.seq)).toEqual([6, 7, 8]);
    expect(events[0]).toEqual({ ...holeCard(6, 2), seq: 6 });
  });

  it('restores across a reopen, and numbers the hands on', () => {
    const path = journalPath();
    playHands(open(path), 2);
    const journal = open(path);
    expect(journal.restorePoint().snapshot?.hand).toBe(2);
    journal.append(handStart(99));
    expect(journal.snapshot(journal.lastSeq(), 'v1', {})).toBe(3);
  });

  it('lists the last hands, oldest first, each from its hand.start to the next', () => {
    const journal = open(journalPath(), { now: () => 1_000 });
    playHands(journal, 3, 2); // seqs 0..2, 3..5, 6..8
    journal.append(holeCard(50));
    expect(journal.hands(2)).toEqual([
      { number: 2, firstRecord: 5, firstSeq: 3, lastSeq: 5, startedAt: 1_000 },
      { number: 3, firstRecord: 9, firstSeq: 6, lastSeq: 9, startedAt: 1_000 },
    ]);
    expect(journal.hands(10).map((hand) => hand.number)).toEqual([1, 2, 3]);
  });

  it('finds a hand by its number', () => {
    const journal = open(journalPath());
    playHands(journal, 3, 2);
    expect(journal.hand(2)).toMatchObject({ number: 2, firstSeq: 3, lastSeq: 5 });
    expect(journal.eventsBetween(3, 5).map((event) => event.type)).toEqual([
      'hand.start',
      'card.seen',
      'card.seen',
    ]);
    expect(journal.hand(3)).toMatchObject({ firstSeq: 6, lastSeq: 8 });
    expect(journal.hand(0)).toBeNull();
    expect(journal.hand(4)).toBeNull();
  });

  it('iterates the records from an id, page after page', () => {
    const journal = open(journalPath());
    journal.appendBatch(Array.from({ length: 2_500 }, (_, t) => holeCard(t)));
    const ids = [...journal.records(2)].map((record) => record.id);
    expect(ids).toHaveLength(2_499);
    expect(ids[0]).toBe(2);
    expect(ids.at(-1)).toBe(2_500);
  });
});
