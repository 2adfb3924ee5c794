import type { BrokenRecord, ChainProblem } from '../journal/chain.js';
import { clearingOf, clearingOfHalt, type HaltHistory } from '../journal/halts.js';
import type { Hand } from '../journal/store.js';
import type { ChainBreak } from '../journal/walk.js';

/**
 * What recall cannot vouch for. A broken record breaks the chain for every record after it, so a hand
 * that holds one, or comes after one, is marked with it, and never shown as clean: by the broken record
 * it holds, else by the last one before it.
 */
export interface ChainMark {
  /** The broken record's number (`croupier journal verify` names it the same way). */
  record: number;
  problem: ChainProblem;
  reason: string;
  /** `in`: the hand holds the broken record; `after`: the hand comes after it. */
  where: 'in' | 'after';
  /** The supervisor whose signed clearing let play go on past it, if one did. */
  clearedBy?: string;
}

/** The broken records known: a walk's, and the halts journaled (a record put back as it was stays named). */
export interface KnownBreaks {
  breaks: readonly ChainBreak[];
  history: HaltHistory;
}

interface Named {
  record: BrokenRecord;
  clearedBy?: string;
}

/** Each broken record known, once, in id order, with who cleared it. */
export function brokenRecords({ breaks, history }: KnownBreaks): Named[] {
  const named = new Map<number, Named>();
  for (const found of breaks) {
    const clearedBy = clearingOf(history, found)?.supervisor;
    named.set(found.id, { record: found, ...(clearedBy !== undefined && { clearedBy }) });
  }
  for (const halt of history.halts) {
    if (named.has(halt.record.id)) continue;
    const clearedBy = clearingOfHalt(history, halt)?.supervisor;
    named.set(halt.record.id, { record: halt.record, ...(clearedBy !== undefined && { clearedBy }) });
  }
  return [...named.values()].sort((a, b) => a.record.id - b.record.id);
}

/**
 * The mark of a hand running from record `hand.firstRecord` up to `endRecord` (the next hand's first
 * record; none for the last hand), or undefined when no broken record is in it or before it.
 */
export function markOf(
  hand: Pick<Hand, 'firstRecord'>,
  endRecord: number | undefined,
  broken: readonly Named[],
): ChainMark | undefined {
  const end = endRecord ?? Number.POSITIVE_INFINITY;
  const inside = broken.find(({ record }) => record.id >= hand.firstRecord && record.id < end);
  const before = broken.findLast(({ record }) => record.id < hand.firstRecord);
  const named = inside ?? before;
  if (!named) return undefined;
  const { id, problem, reason } = named.record;
  return {
    record: id,
    problem,
    reason,
    where: inside ? 'in' : 'after',
    ...(named.clearedBy !== undefined && { clearedBy: named.clearedBy }),
  };
}

/** `contains broken record 40 (…)` / `follows broken record 40 (…)`, for the command line. */
export function describeMark({ record, reason, where, clearedBy }: ChainMark): string {
  const cleared = clearedBy === undefined ? '' : `, cleared by ${clearedBy}`;
  return `${where === 'in' ? 'contains' : 'follows'} broken record ${record} (${reason}${cleared})`;
}
