import type Database from 'better-sqlite3';
import {
  type BrokenRecord,
  checkRecord,
  fingerprint,
  GENESIS,
  HASH_MISMATCH,
  type JournalRecord,
  recordHash,
  sha256,
} from './chain.js';
import { rotationAnchor } from './rotation.js';

/**
 * A broken record as a walk found it, with the fingerprint a supervisor's clearing names it by; or a run
 * of broken records one after another (a record inserted shifts the ids of all those after it, and so
 * breaks each of them), named by its first record, up to `through`.
 */
export interface ChainBreak extends BrokenRecord {
  /** The last record of the run, when more than one record in a row is broken. */
  through?: number;
  /** The records as stored (`fingerprint`, over each of the run's); none for one SQLite cannot read. */
  fingerprint?: string;
}

/**
 * Runs kept, at most: past them, every further broken record joins the last run (which then spans
 * records that are not all broken), so that a walk of a journal broken everywhere holds a bounded list.
 */
const MAX_RUNS = 1000;

/** What a walk went over: the records it read, the last one's hash, every broken record as found. */
export interface Walked {
  records: number;
  lastHash: string;
  breaks: ChainBreak[];
}

/** Rows read at a time: a walk holds one page in memory. */
const PAGE = 500;

type Row = [number, string, number, number, string, string, string, number];

/**
 * A walk along the hash chain, a page at a time, that goes on past a broken record to the end (recall
 * marks every hand a broken record touches, and a supervisor's clearing names each one). After a broken
 * record the link to the next one is not checked if the broken one's own hash does not hold (the break
 * is named once, not again at its neighbour). `step` lets a caller walk a long journal in slices.
 */
export class ChainWalk {
  readonly #page: Database.Statement<[number, number], Row>;
  readonly #one: Database.Statement<[number], Row>;
  readonly #link: { id: number; prev: string | null };
  readonly #breaks: ChainBreak[] = [];
  #records = 0;
  #lastHash = GENESIS;
  #done = false;
  /** The rotation marker, when it was found broken before the walk began. */
  #brokenAnchor: number | undefined;

  /**
   * From the chain's start (id 1 from GENESIS, or after the last rotation, the record after the one its
   * anchor names); or from record `from`, trusting its `prev` (the tail check at open).
   */
  constructor(db: Database.Database, { from }: { from?: number } = {}) {
    const columns = 'id, kind, seq, at, body, prev, hash, json_valid(body)';
    this.#page = db
      .prepare<[number, number], Row>(`SELECT ${columns} FROM records WHERE id >= ? ORDER BY id LIMIT ?`)
      .raw();
    this.#one = db
      .prepare<[number], Row>(`SELECT ${columns} FROM records WHERE id >= ? ORDER BY id LIMIT 1`)
      .raw();
    this.#link = from === undefined ? this.#start(db) : this.#startAt(from);
  }

  /** Walks at most `limit` more records; true once the walk has reached the end of the journal. */
  step(limit = Number.POSITIVE_INFINITY): boolean {
    for (let walked = 0; !this.#done && walked < limit; ) {
      const read = this.#read(Math.min(PAGE, limit - walked));
      walked += read;
      if (read === 0) this.#done = true;
    }
    return this.#done;
  }

  get done(): boolean {
    return this.#done;
  }

  result(): Walked {
    return { records: this.#records, lastHash: this.#lastHash, breaks: [...this.#breaks] };
  }

  #start(db: Database.Database): { id: number; prev: string | null } {
    let anchor: ReturnType<typeof rotationAnchor>;
    try {
      anchor = rotationAnchor(db);
    } catch (error) {
      // A damaged file whose index cannot be read: the records are walked as far as they can be read,
      // from the first one, whatever its prev.
      this.#failed(error);
      return this.#startAt(1, true);
    }
    if (!anchor) return { id: 1, prev: GENESIS };
    // The anchor says where the chain starts: it must itself be intact before it is believed.
    const { record, through } = anchor;
    if (recordHash(record) !== record.hash) {
      this.#broken(record, 'hash', HASH_MISMATCH);
    } else if (through) {
      return { id: through.id + 1, prev: through.hash };
    } else {
      this.#broken(record, 'anchor', 'the rotation marker does not name the last record removed');
    }
    this.#brokenAnchor = record.id;
    // Where the kept records start is unknown: from the first one, whatever its prev.
    return this.#startAt(1, true);
  }

  #startAt(from: number, anyPrev = false): { id: number; prev: string | null } {
    try {
      const first = this.#one.get(from);
      if (first) return { id: first[0], prev: anyPrev ? null : first[5] };
    } catch (error) {
      this.#unreadable(from, error);
    }
    return { id: from, prev: null };
  }

  /** Checks the next rows; how many there were (0 at the end, or once SQLite cannot read on). */
  #read(limit: number): number {
    let rows: Row[];
    try {
      rows = this.#page.all(this.#link.id, limit);
    } catch (error) {
      this.#failed(error);
      return this.#readOneByOne(limit);
    }
    for (const row of rows) this.#check(row);
    return rows.length;
  }

  /** Past a damaged page, one row at a time: to name the first record that cannot be read. */
  #readOneByOne(limit: number): number {
    let read = 0;
    for (; read < limit; read += 1) {
      let row: Row | undefined;
      try {
        row = this.#one.get(this.#link.id);
      } catch (error) {
        this.#unreadable(this.#link.id, error);
        break;
      }
      if (!row) break;
      this.#check(row);
    }
    return read;
  }

  #check([id, kind, seq, at, body, prev, hash, json]: Row): void {
    const record: JournalRecord = { id, kind, seq, at, body, prev, hash };
    this.#records += 1;
    this.#lastHash = hash;
    const flaw = checkRecord(record, this.#link, json === 1);
    if (!flaw) return;
    this.#broken(record, flaw.problem, flaw.reason);
    // Past a broken record: its successor's prev is checked against it only if its own hash holds.
    this.#link.id = id + 1;
    this.#link.prev = recordHash(record) === hash ? hash : null;
  }

  #broken(record: JournalRecord, problem: ChainBreak['problem'], reason: string): void {
    const last = this.#breaks.at(-1);
    // The anchor, found broken first, is met again in its place.
    if (record.id === this.#brokenAnchor) return;
    const print = fingerprint(record);
    if (last?.fingerprint && (last.through ?? last.id) < record.id) {
      if ((last.through ?? last.id) === record.id - 1 || this.#breaks.length >= MAX_RUNS) {
        last.through = record.id;
        last.fingerprint = sha256(`${last.fingerprint}\n${print}`);
        return;
      }
    }
    const { id, seq, kind } = record;
    this.#breaks.push({ id, seq, kind, problem, reason, fingerprint: print });
  }

  /** A failure that is not the file's (a bug) is thrown as it is. */
  #failed(error: unknown): string {
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code !== 'string' || !/^SQLITE_(CORRUPT|IOERR|NOTADB)/.test(code)) throw error;
    return code;
  }

  /** SQLite cannot read from record `id` on: the walk ends there. */
  #unreadable(id: number, error: unknown): void {
    const code = this.#failed(error);
    this.#done = true;
    this.#breaks.push({
      id,
      problem: 'unreadable',
      reason: `it cannot be read, nor any record after it: the file is damaged (${code})`,
    });
  }
}
