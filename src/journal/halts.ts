import type Database from 'better-sqlite3';
import { z } from 'zod';
import type { BrokenRecord, ChainProblem } from './chain.js';
import type { JournalErrorCode } from './errors.js';
import type { ChainBreak } from './walk.js';

/**
 * A broken record halts the table, and the halt is journaled so that it outlives a restart: a `halt`
 * marker, `{ kind: 'halt', detail: { record } }`, naming the first broken record and why. Only a
 * supervisor's signed clearing ends it: a `halt-cleared` marker, `{ kind: 'halt-cleared', detail: {
 * supervisor, cause, halt, records } }`, naming the halt marker it clears and each broken record it
 * acknowledges by its fingerprint (the record exactly as stored when the supervisor cleared it). A walk
 * that meets an acknowledged record again does not halt on it; the same record changed again does.
 * Both markers are records of the chain: removing one from the middle of the journal breaks it.
 *
 * A halt outlives a "repair": a broken record put back as it was leaves its halt marker standing, and
 * the table halted, until a supervisor clears it (what the regulators' critical-data rule asks).
 */

export const HALT = 'halt';
export const HALT_CLEARED = 'halt-cleared';

const PROBLEMS = [
  'id',
  'missing',
  'prev',
  'hash',
  'json',
  'unreadable',
  'gone',
  'rewritten',
  'added',
  'anchor',
] as const satisfies readonly ChainProblem[];

const brokenRecord = z.object({
  id: z.number().int(),
  seq: z.number().int().optional(),
  kind: z.string().optional(),
  problem: z.enum(PROBLEMS),
  reason: z.string(),
});

const haltBody = z.object({ kind: z.literal(HALT), detail: z.object({ record: brokenRecord }) });

const acknowledged = z.object({
  id: z.number().int(),
  through: z.number().int().optional(),
  problem: z.enum(PROBLEMS),
  fingerprint: z.string(),
});

const clearedBody = z.object({
  kind: z.literal(HALT_CLEARED),
  detail: z.object({
    supervisor: z.string(),
    cause: z.string(),
    halt: z.number().int().nullable(),
    records: z.array(acknowledged),
  }),
});

/** A halt as journaled: its marker's id and wall time, and the record it named. */
export interface HaltMarker {
  id: number;
  at: number;
  record: BrokenRecord;
}

/** A supervisor's clearing as journaled. */
export interface Clearing {
  id: number;
  at: number;
  supervisor: string;
  /** What had stopped the table: `chain-broken`, or a journal that could not record. */
  cause: string;
  /** The halt marker it cleared, if the halt had one. */
  halt: number | null;
  records: z.infer<typeof acknowledged>[];
}

export interface HaltHistory {
  halts: HaltMarker[];
  clearings: Clearing[];
}

/** A halt marker's body. */
export function haltMarker(record: BrokenRecord): { kind: string; detail: unknown } {
  const { id, seq, kind, problem, reason } = record;
  return {
    kind: HALT,
    detail: {
      record: { id, problem, reason, ...(seq !== undefined && { seq }), ...(kind !== undefined && { kind }) },
    },
  };
}

/** A clearing marker's body: the halt it ends and each broken record it acknowledges. */
export function clearingMarker(
  supervisor: string,
  cause: JournalErrorCode,
  halt: HaltMarker | undefined,
  breaks: readonly ChainBreak[],
): { kind: string; detail: unknown } {
  const records = breaks.flatMap(({ id, through, problem, fingerprint }) =>
    fingerprint === undefined
      ? []
      : [{ id, ...(through !== undefined && { through }), problem, fingerprint }],
  );
  return { kind: HALT_CLEARED, detail: { supervisor, cause, halt: halt?.id ?? null, records } };
}

/**
 * Every halt and clearing marker, in order. A marker that does not read as one is left out: if it was
 * changed, the chain walk names it.
 */
export function haltHistory(db: Database.Database): HaltHistory {
  const rows = db
    .prepare<[], { id: number; at: number; body: string }>(
      `SELECT id, at, body FROM records WHERE kind = 'marker'
         AND CASE WHEN json_valid(body) THEN json_extract(body, '$.kind') END IN ('${HALT}', '${HALT_CLEARED}')
       ORDER BY id`,
    )
    .all();
  const history: HaltHistory = { halts: [], clearings: [] };
  for (const { id, at, body } of rows) {
    const parsed: unknown = JSON.parse(body);
    const halt = haltBody.safeParse(parsed);
    if (halt.success) history.halts.push({ id, at, record: withoutUndefined(halt.data.detail.record) });
    const cleared = clearedBody.safeParse(parsed);
    if (cleared.success) history.clearings.push({ id, at, ...cleared.data.detail });
  }
  return history;
}

/** The halt no supervisor has cleared: the last halt marker after the last clearing, if any. */
export function standingHalt({ halts, clearings }: HaltHistory): HaltMarker | undefined {
  const cleared = clearings.at(-1)?.id ?? 0;
  const last = halts.at(-1);
  return last && last.id > cleared ? last : undefined;
}

/** The clearing that acknowledged this broken record as it is stored now, if one did. */
export function clearingOf({ clearings }: HaltHistory, broken: ChainBreak): Clearing | undefined {
  return clearings.find((clearing) =>
    clearing.records.some(
      (record) =>
        record.id === broken.id &&
        record.through === broken.through &&
        record.problem === broken.problem &&
        record.fingerprint === broken.fingerprint,
    ),
  );
}

/**
 * Whether a record lies in a run of broken records a clearing acknowledged: a walk of part of the
 * journal (the tail check) sees only part of such a run, and leaves it to the whole walk.
 */
export function inAcknowledgedRun({ clearings }: HaltHistory, id: number): boolean {
  return clearings.some(({ records }) =>
    records.some((record) => record.through !== undefined && record.id <= id && id <= record.through),
  );
}

/** The breaks no clearing acknowledged: what halts the table. */
export function unacknowledged(history: HaltHistory, breaks: readonly ChainBreak[]): ChainBreak[] {
  return breaks.filter((broken) => clearingOf(history, broken) === undefined);
}

/** The clearing that ended a halt marker, if one did. */
export function clearingOfHalt({ clearings }: HaltHistory, halt: HaltMarker): Clearing | undefined {
  return clearings.find((clearing) => clearing.id > halt.id);
}

function withoutUndefined(record: z.infer<typeof brokenRecord>): BrokenRecord {
  const { id, problem, reason, seq, kind } = record;
  return { id, problem, reason, ...(seq !== undefined && { seq }), ...(kind !== undefined && { kind }) };
}
