import type Database from 'better-sqlite3';
import type { DomainEvent, Unsequenced } from '../domain/events.js';
import {
  type BrokenRecord,
  type ChainLink,
  canonicalJson,
  GENESIS,
  type JournalRecord,
  type RecordKind,
  recordHash,
} from './chain.js';
import { type ChainedOnto, chainedOnto, checkChainedOnto } from './chained-onto.js';
import { JournalError, type JournalErrorCode, sqliteFailure } from './errors.js';
import {
  clearingMarker,
  HALT,
  HALT_CLEARED,
  type HaltHistory,
  haltHistory,
  haltMarker,
  standingHalt,
} from './halts.js';
import { openDatabase, openReader } from './open.js';
import { type RetentionLimits, ROTATION, type Rotation, rotationCut } from './rotation.js';
import {
  broken,
  brokenError,
  checkTail,
  readRecords,
  type Verification,
  verifyChain,
  withoutFingerprint,
} from './verify.js';
import { type ChainBreak, ChainWalk, type Walked } from './walk.js';

/**
 * The journal (DESIGN.md "Durability"): every domain event, numbered and written ahead of the table
 * machine, the machine's snapshot at each hand start, and markers (power-on, power-off, rotation), all
 * records of one SQLite table in one hash chain (chain.ts). A record's body is canonical JSON:
 *
 * - `event`: the domain event with its `seq`;
 * - `snapshot`: `{ hand, seq, machineVersion, state }`, the machine after the event `seq` that started
 *   the hand (a `hand.start` or a `next-hand`), `hand` the hand's number (1, 2, … for the journal's life, rotation or not);
 * - `marker`: `{ kind, detail }`, its `seq` the last event's (-1 before the first).
 *
 * Each write first checks the record it chains onto as the disk holds it: the one this journal wrote
 * last, hash and content, and nothing after it. A broken record found there, at open or by a walk
 * (`halt`) stops play: events, snapshots and rotations are refused until a supervisor's clearing
 * (`halts.ts`); markers are still written, onto the record the disk holds last, as evidence.
 */

/**
 * The events the journal numbers and keeps: every domain event, settles included (live play journals
 * only those that judge something), so that replaying the journal gives the state play had.
 */
export type JournaledEvent = DomainEvent;

export interface JournalOptions {
  /** Wall clock, ms: stamped on each record for the audit trail; the table machine never sees it. */
  now?: () => number;
  /** Read an existing journal only (verify, recall): it is never created, and any write is refused. */
  readonly?: boolean;
  /** The size the file may not grow past: beyond it an append fails as on a full disk. */
  maxBytes?: number;
}

export interface StoredSnapshot {
  hand: number;
  /** The seq of the event that started the hand: the state is the machine's after it. */
  seq: number;
  machineVersion: string;
  state: unknown;
}

/** Where recovery starts: the last snapshot (null before the first hand) and the events after it, in order. */
export interface RestorePoint {
  snapshot: StoredSnapshot | null;
  events: JournaledEvent[];
}

/** A hand as the journal holds it: from its snapshot to the next one. */
export interface Hand {
  number: number;
  /** The id of its first record (the event that started it): where the hand begins in the chain. */
  firstRecord: number;
  firstSeq: number;
  /** The last event before the next hand; for the hand in play, the last event so far. */
  lastSeq: number;
  /** Wall clock, ms, of the event that started it. */
  startedAt: number;
}

/** A connection to walk the chain on; `own`: opened for the walk (it reads a snapshot, and is closed after). */
export interface ChainReader {
  db: Database.Database;
  close(): void;
  own: boolean;
}

/** The chain as a whole walk found it, and the halts and clearings journaled. */
export interface Audit {
  walked: Walked;
  history: HaltHistory;
}

interface Draft {
  kind: RecordKind;
  seq: number;
  body: unknown;
}

const COLUMNS = 'id, kind, seq, at, body, prev, hash';

/**
 * Opens the journal at `path` (`:memory:` for a test), creating it when new. A file that is not a sound
 * croupier journal is refused with a JournalError and left as it is. A writer also checks the records it
 * chains onto and recovery replays (`checkTail`): a broken one, or a halt no supervisor has cleared,
 * opens it halted (`halted()`).
 */
export function openJournal(
  path: string,
  { now = Date.now, readonly = false, maxBytes }: JournalOptions = {},
): Journal {
  const db = openDatabase(path, { readonly, maxBytes });
  try {
    return new Journal(db, path, now, !readonly);
  } catch (error) {
    db.close();
    throw error;
  }
}

/** The markers only the journal writes: each has its own method. */
const OWN_MARKERS: ReadonlySet<string> = new Set([ROTATION, HALT, HALT_CLEARED]);

export class Journal {
  /** The first write that failed: the table must not play on unrecorded, so nothing more is written. */
  #failure: JournalError | undefined;
  /** The first broken record found: no play is recorded until a supervisor clears it. */
  #halt: JournalError | undefined;
  /** The id and prev of the next record. */
  #next: ChainLink;
  #lastSeq: number;
  readonly #transaction: (draft: (at: number) => Draft[], onDiskTail: boolean) => JournalRecord[];
  /** The record this journal wrote last, and any after it, as the disk holds them. */
  readonly #chainedOnto: ChainedOnto;

  /** Use `openJournal`. */
  constructor(
    private readonly db: Database.Database,
    readonly path: string,
    private readonly now: () => number,
    writer = false,
  ) {
    const tail = this.#diskTail();
    this.#next = { id: (tail?.id ?? 0) + 1, prev: tail?.hash ?? GENESIS };
    this.#lastSeq = db.prepare<[], number | null>('SELECT max(seq) FROM records').pluck().get() ?? -1;
    this.#chainedOnto = chainedOnto(db);
    const insert = db.prepare<[JournalRecord]>(
      `INSERT INTO records (${COLUMNS}) VALUES (@id, @kind, @seq, @at, @body, @prev, @hash)`,
    );
    const transaction = db.transaction((draft: (at: number) => Draft[], onDiskTail: boolean) => {
      // Halted, a marker goes after whatever the disk holds last; otherwise after what this journal wrote.
      const last = onDiskTail ? this.#diskTail() : undefined;
      const link = onDiskTail
        ? { id: (last?.id ?? 0) + 1, prev: last?.hash ?? GENESIS }
        : checkChainedOnto(this.#chainedOnto, this.#next, this.path);
      const at = Math.floor(this.now());
      const records = draft(at).map(({ kind, seq, body }) => {
        const unhashed = { id: link.id, kind, seq, at, body: canonicalJson(body), prev: link.prev };
        const record = { ...unhashed, hash: recordHash(unhashed) };
        insert.run(record);
        link.id += 1;
        link.prev = record.hash;
        return record;
      });
      return records;
    });
    this.#transaction = (draft, onDiskTail) => transaction.immediate(draft, onDiskTail);
    if (writer) this.#guard();
  }

  /**
   * At open, before anything is chained on: a halt no supervisor has cleared stands, and a broken record
   * among the last ones halts the journal (journaled, unless it is the halt standing).
   */
  #guard(): void {
    const history = haltHistory(this.db);
    const standing = standingHalt(history);
    if (standing) this.#halt = brokenError(this.path, standing.record);
    const found = checkTail(this.db, history);
    if (found) this.halt(found);
  }

  /** Why no play is recorded, if it is not: a disk that refused a write, or a broken record. */
  halted(): JournalError | undefined {
    return this.#failure ?? this.#halt;
  }

  /**
   * Halts on a broken record (the walk's, or one an append found): no more play is recorded, and the halt
   * is journaled (unless the one standing already names it), so that it outlives a restart. Returns the
   * halt in force: the first one found stays the one named.
   */
  halt(record: BrokenRecord): JournalError {
    this.#halt ??= brokenError(this.path, record);
    const standing = standingHalt(haltHistory(this.db));
    const same = standing?.record.id === record.id && standing.record.problem === record.problem;
    if (!same) {
      this.#write(
        'cannot record the halt',
        () => [{ kind: 'marker', seq: this.#lastSeq, body: haltMarker(withoutFingerprint(record)) }],
        true,
      );
    }
    return this.#halt;
  }

  /**
   * A supervisor's clearing, journaled: it ends the halt standing and acknowledges each broken record
   * given, as stored now. The journal stays halted: the table reopens it, and recovers from it, as after
   * a restart (its last records may not be the ones this journal wrote).
   */
  clearHalt(supervisor: string, cause: JournalErrorCode, breaks: readonly ChainBreak[]): void {
    const standing = standingHalt(haltHistory(this.db));
    this.#write(
      'cannot record the clearing',
      () => [
        { kind: 'marker', seq: this.#lastSeq, body: clearingMarker(supervisor, cause, standing, breaks) },
      ],
      true,
    );
  }

  /** Every halt and supervisor's clearing journaled. */
  history(): HaltHistory {
    return haltHistory(this.db);
  }

  /**
   * A connection for a walk that must not hold the writer up (`openReader`); a journal in memory has no
   * other connection, so its own is lent (`own: false`: no snapshot, and not to be closed).
   */
  reader(): ChainReader {
    if (this.path === ':memory:' || this.path === '') {
      return { db: this.db, close: () => undefined, own: false };
    }
    const db = openReader(this.path);
    return { db, close: () => db.close(), own: true };
  }

  /** The whole chain walked, with the halts and clearings journaled: what recall marks hands by. */
  audit(): Audit {
    const walk = new ChainWalk(this.db);
    walk.step();
    return { walked: walk.result(), history: haltHistory(this.db) };
  }

  #diskTail(): JournalRecord | undefined {
    return this.db
      .prepare<[], JournalRecord>(`SELECT ${COLUMNS} FROM records ORDER BY id DESC LIMIT 1`)
      .get();
  }

  /** Numbers the event (0, 1, … after the last one stored) and returns it once it is on the disk. */
  append(event: Unsequenced<JournaledEvent>): JournaledEvent {
    return this.appendBatch([event])[0] as JournaledEvent;
  }

  /** `append` for several events, in one transaction: all of them are written, or none. */
  appendBatch(events: readonly Unsequenced<JournaledEvent>[]): JournaledEvent[] {
    const sequenced = events.map((event, i) => ({ ...event, seq: this.#lastSeq + 1 + i }) as JournaledEvent);
    if (sequenced.length === 0) return sequenced;
    this.#write('cannot record', () =>
      sequenced.map((event) => ({ kind: 'event', seq: event.seq, body: event })),
    );
    this.#lastSeq += sequenced.length;
    return sequenced;
  }

  /** Stores the machine's state after the event `seq` that started a hand; returns the hand's number. */
  snapshot(seq: number, machineVersion: string, state: unknown): number {
    if (!Number.isInteger(seq) || seq < 0 || seq > this.#lastSeq) {
      throw new RangeError(`journal ${this.path}: no event ${seq} to snapshot after (last ${this.#lastSeq})`);
    }
    let hand = 0;
    this.#write('cannot record the snapshot', () => {
      hand = (this.#lastSnapshot()?.hand ?? 0) + 1;
      return [{ kind: 'snapshot', seq, body: { hand, seq, machineVersion, state } }];
    });
    return hand;
  }

  /**
   * A fact about the controller, not the table: power-on, power-off … (rotation, halt and clearing
   * markers each have their own method). Written while halted too: they are evidence, not play.
   */
  marker(kind: string, detail: unknown = null): void {
    if (OWN_MARKERS.has(kind))
      throw new RangeError(`journal ${this.path}: a ${kind} marker is written by the journal itself`);
    this.#write(
      `cannot record the ${kind} marker`,
      () => [{ kind: 'marker', seq: this.#lastSeq, body: { kind, detail } }],
      true,
    );
  }

  /** The last marker written (power-on, power-off, rotation…), or of these `kinds` only; or null. */
  lastMarker(kinds?: readonly string[]): { kind: string; detail: unknown } | null {
    const among = kinds
      ? `AND CASE WHEN json_valid(body) THEN json_extract(body, '$.kind') END IN (SELECT value FROM json_each(?))`
      : '';
    const row = this.db
      .prepare<unknown[], JournalRecord>(
        `SELECT ${COLUMNS} FROM records WHERE kind = 'marker' ${among} ORDER BY id DESC LIMIT 1`,
      )
      .get(...(kinds ? [JSON.stringify(kinds)] : []));
    return row ? (this.#body(row) as { kind: string; detail: unknown }) : null;
  }

  /** The last event's seq; -1 before the first. */
  lastSeq(): number {
    return this.#lastSeq;
  }

  restorePoint(): RestorePoint {
    const snapshot = this.#lastSnapshot() ?? null;
    return { snapshot, events: this.eventsBetween(snapshot ? snapshot.seq + 1 : 0, this.#lastSeq) };
  }

  /** The last `limit` hands, oldest first. */
  hands(limit: number): Hand[] {
    const rows = this.#latestSnapshots(limit);
    let nextFirstSeq = this.#lastSeq + 1;
    const hands = rows.map((row) => {
      const hand = this.#hand(row, nextFirstSeq);
      nextFirstSeq = row.seq;
      return hand;
    });
    return hands.reverse();
  }

  /** Hand `number`, or null when the journal no longer (or not yet) holds it. */
  hand(number: number): Hand | null {
    const rows = this.#snapshotRows(number);
    return rows ? this.#hand(rows.row, rows.next?.seq ?? this.#lastSeq + 1) : null;
  }

  /** The snapshot stored at hand `number`'s start, or null. */
  handSnapshot(number: number): StoredSnapshot | null {
    const rows = this.#snapshotRows(number);
    return rows ? this.#snapshotOf(rows.row) : null;
  }

  /** Hand `number`'s snapshot record and the next hand's, if any. */
  #snapshotRows(number: number): { row: JournalRecord; next: JournalRecord | undefined } | null {
    const snapshots = this.db.prepare<[number, number], JournalRecord>(
      `SELECT ${COLUMNS} FROM records WHERE kind = 'snapshot' ORDER BY seq, id LIMIT ? OFFSET ?`,
    );
    const [oldest] = snapshots.all(1, 0);
    if (!oldest) return null;
    // Hands are numbered without a gap, so hand N is found by its rank among the kept ones.
    const offset = number - this.#snapshotOf(oldest).hand;
    if (!Number.isInteger(offset) || offset < 0) return null;
    const [row, next] = snapshots.all(2, offset);
    return row && this.#snapshotOf(row).hand === number ? { row, next } : null;
  }

  /** The events numbered `fromSeq` to `toSeq`, both included, in order. */
  eventsBetween(fromSeq: number, toSeq: number): JournaledEvent[] {
    const events: JournaledEvent[] = [];
    const from = `FROM records WHERE kind = 'event' AND seq BETWEEN ? AND ? ORDER BY seq`;
    // A night's replay reads hundreds of thousands of rows: only their bodies, one at a time.
    let unreadable = false;
    const bodies = this.db.prepare<[number, number], string>(`SELECT body ${from}`).pluck();
    for (const body of bodies.iterate(fromSeq, toSeq)) {
      try {
        events.push(JSON.parse(body));
      } catch {
        unreadable = true;
        break;
      }
    }
    if (!unreadable) return events;
    // The row after the last one read, read whole to be named.
    const row = this.db
      .prepare<[number, number, number], JournalRecord>(`SELECT ${COLUMNS} ${from} LIMIT 1 OFFSET ?`)
      .get(fromSeq, toSeq, events.length) as JournalRecord;
    throw this.#unreadable(row);
  }

  /** Every record from `fromId` on, as stored, read page by page (for export). */
  records(fromId = 1): Generator<JournalRecord> {
    return readRecords(this.db, fromId);
  }

  /** Walks the whole chain; the first broken record, if any. */
  verify(): Verification {
    return verifyChain(this.db);
  }

  /** Removes the oldest whole hands beyond the limits, keeping the chain verifiable; what it removed. */
  rotate(limits: RetentionLimits): Rotation {
    let removed: Rotation = { records: 0, hands: 0 };
    this.#write('cannot rotate', (at) => {
      const cut = rotationCut(this.db, limits, at);
      if (!cut) return [];
      const throughId = cut.keepFromId - 1;
      const hash = this.db
        .prepare<[number], string>('SELECT hash FROM records WHERE id = ?')
        .pluck()
        .get(throughId);
      const { changes } = this.db.prepare('DELETE FROM records WHERE id <= ?').run(throughId);
      removed = { records: changes, hands: cut.hands };
      return [
        {
          kind: 'marker',
          seq: this.#lastSeq,
          body: { kind: ROTATION, detail: { throughId, hash, ...removed } },
        },
      ];
    });
    return removed;
  }

  close(): void {
    this.db.close();
  }

  /**
   * One transaction, on the disk when it returns. A disk that refuses it stops all writing until the
   * journal is reopened; nothing written before is touched, as SQLite rolls the transaction back. A
   * broken record under it halts play (`marker`: a marker, written all the same).
   */
  #write(doing: string, draft: (at: number) => Draft[], marker = false): void {
    if (this.#failure) throw this.#failure;
    if (this.#halt && !marker) throw this.#halt;
    let records: JournalRecord[];
    try {
      records = this.#transaction(draft, this.#halt !== undefined);
    } catch (error) {
      if (error instanceof JournalError && error.code === 'chain-broken') {
        this.#halt ??= error;
        throw error;
      }
      const consequence =
        '; what was written before is kept, and nothing more is recorded until it is reopened';
      this.#failure = sqliteFailure(this.path, error, doing, consequence);
      throw this.#failure ?? error;
    }
    const last = records.at(-1);
    if (last) this.#next = { id: last.id + 1, prev: last.hash };
  }

  #lastSnapshot(): StoredSnapshot | undefined {
    const [row] = this.#latestSnapshots(1);
    return row && this.#snapshotOf(row);
  }

  /** The snapshot records, latest first. */
  #latestSnapshots(limit: number): JournalRecord[] {
    return this.db
      .prepare<[number], JournalRecord>(
        `SELECT ${COLUMNS} FROM records WHERE kind = 'snapshot' ORDER BY seq DESC, id DESC LIMIT ?`,
      )
      .all(limit);
  }

  #hand(row: JournalRecord, nextFirstSeq: number): Hand {
    const start = this.db
      .prepare<[number], { id: number; at: number }>(
        "SELECT id, at FROM records WHERE kind = 'event' AND seq = ?",
      )
      .get(row.seq);
    return {
      number: this.#snapshotOf(row).hand,
      firstRecord: start?.id ?? row.id,
      firstSeq: row.seq,
      lastSeq: nextFirstSeq - 1,
      startedAt: start?.at ?? row.at,
    };
  }

  #snapshotOf(row: JournalRecord): StoredSnapshot {
    return this.#body(row) as StoredSnapshot;
  }

  /** A record's body read back; one that is not JSON was tampered with, and is named (never shown). */
  #body(row: JournalRecord): unknown {
    try {
      return JSON.parse(row.body);
    } catch {
      throw this.#unreadable(row);
    }
  }

  #unreadable(row: JournalRecord): JournalError {
    return brokenError(this.path, broken(row, 'json', 'its body is not JSON'));
  }
}
