import type Database from 'better-sqlite3';
import type { BrokenRecord, ChainProblem, JournalRecord } from './chain.js';
import { JournalError } from './errors.js';
import { clearingOf, type HaltHistory, haltHistory, inAcknowledgedRun } from './halts.js';
import { openReader } from './open.js';
import { type ChainBreak, ChainWalk, type Walked } from './walk.js';

/** A broken record a supervisor's clearing acknowledged: who cleared it, and when (wall clock, ms). */
export interface ClearedBreak extends ChainBreak {
  clearedBy: string;
  clearedAt: number;
}

export type Verification =
  | { ok: true; records: number; lastHash: string; cleared?: ClearedBreak[] }
  | ({ ok: false } & BrokenRecord);

export type { BrokenRecord };

/** Rows read at a time: a walk holds one page in memory, and no statement open between pages. */
const PAGE = 1000;

/** The records from `fromId` on, in id order, read page by page: the journal may be written meanwhile. */
export function* readRecords(db: Database.Database, fromId = 1): Generator<JournalRecord> {
  const page = db.prepare<[number, number], JournalRecord>(
    'SELECT id, kind, seq, at, body, prev, hash FROM records WHERE id >= ? ORDER BY id LIMIT ?',
  );
  for (let next = fromId; ; ) {
    const rows = page.all(next, PAGE);
    yield* rows;
    const last = rows.at(-1);
    if (!last || rows.length < PAGE) return;
    next = last.id + 1;
  }
}

/**
 * Walks the whole chain from its start (id 1 from GENESIS, or after the last rotation, from the record
 * that follows the one the anchor names) and names the first broken record no supervisor's clearing
 * acknowledged; the acknowledged ones are listed with who cleared them.
 */
export function verifyChain(db: Database.Database): Verification {
  const walk = new ChainWalk(db);
  walk.step();
  return verdict(walk.result(), haltHistory(db));
}

/** What a walk says of the chain, given the clearings journaled. */
export function verdict(walked: Walked, history: HaltHistory): Verification {
  const cleared: ClearedBreak[] = [];
  for (const found of walked.breaks) {
    const clearing = clearingOf(history, found);
    if (!clearing) return { ok: false, ...withoutFingerprint(found) };
    cleared.push({ ...found, clearedBy: clearing.supervisor, clearedAt: clearing.at });
  }
  const { records, lastHash } = walked;
  return { ok: true, records, lastHash, ...(cleared.length > 0 && { cleared }) };
}

/** How many of the last records are checked at each open, at least: the ones a crash or a tamper most likely hit. */
const TAIL = 16;

/**
 * The first broken record no clearing acknowledged among those a writer chains onto and recovery
 * replays: from the last hand's start (the whole journal before the first hand), and at least the last
 * 16. The whole walk is `verifyChain`'s, or the background check's.
 */
export function checkTail(db: Database.Database, history: HaltHistory): ChainBreak | undefined {
  const last = db.prepare<[], number | null>('SELECT max(id) FROM records').pluck().get();
  if (last == null) return undefined;
  const handStart = db
    .prepare<[], number>(
      `SELECT COALESCE((SELECT e.id FROM records e WHERE e.kind = 'event' AND e.seq = s.seq), s.id)
       FROM records s WHERE s.kind = 'snapshot' ORDER BY s.seq DESC, s.id DESC LIMIT 1`,
    )
    .pluck()
    .get();
  const walk =
    handStart === undefined
      ? new ChainWalk(db)
      : new ChainWalk(db, { from: Math.min(handStart, last - TAIL + 1) });
  walk.step();
  return walk
    .result()
    .breaks.find(
      (found) => clearingOf(history, found) === undefined && !inAcknowledgedRun(history, found.id),
    );
}

export function broken(
  { id, seq, kind }: Pick<JournalRecord, 'id' | 'seq' | 'kind'>,
  problem: ChainProblem,
  reason: string,
): BrokenRecord {
  return { id, seq, kind, problem, reason };
}

/** `record ID (seq S, kind K) is broken: REASON`, as `croupier journal verify` says it. */
export function describeBroken({
  id,
  seq,
  kind,
  reason,
  through,
}: BrokenRecord & { through?: number }): string {
  const which = seq === undefined || kind === undefined ? '' : ` (seq ${seq}, kind ${kind})`;
  const run = through === undefined ? '' : `; so are records after it, up to record ${through}`;
  return `record ${id}${which} is broken: ${reason}${run}`;
}

export function brokenError(path: string, record: BrokenRecord): JournalError {
  return new JournalError('chain-broken', path, describeBroken(record), {
    record: withoutFingerprint(record),
  });
}

/** A broken record as the table says it: its first record (the fingerprint and run are a clearing's). */
export function withoutFingerprint(
  record: BrokenRecord & { fingerprint?: string; through?: number },
): BrokenRecord {
  const { fingerprint: _, through: __, ...named } = record;
  return named;
}

/**
 * The first record of a damaged file (cut short, a bad page) that SQLite cannot read, or the first
 * broken one before it; undefined when the walk finds none or the file cannot be opened at all. A walk of
 * the whole file: for the command line, and for the table's background check (`watch.ts`).
 */
export function locateDamage(path: string): BrokenRecord | undefined {
  let db: Database.Database;
  try {
    db = openReader(path);
  } catch {
    return undefined;
  }
  try {
    const walk = new ChainWalk(db);
    walk.step();
    const [first] = walk.result().breaks;
    return first && withoutFingerprint(first);
  } catch {
    return undefined;
  } finally {
    db.close();
  }
}

/** A damaged journal's error, naming the first record that cannot be read when a walk finds it. */
export function withDamage(error: JournalError): JournalError {
  if (error.code !== 'corrupt' || error.record) return error;
  const record = locateDamage(error.file);
  if (!record) return error;
  return new JournalError(
    'corrupt',
    error.file,
    `${error.message.slice(`journal ${error.file}: `.length)}; ${describeBroken(record)}`,
    { cause: error, record },
  );
}
