import type Database from 'better-sqlite3';
import { z } from 'zod';
import type { JournalRecord } from './chain.js';

/**
 * Retention. Rotation removes whole hands from the oldest end (a hand runs from the event that started
 * it to the next one's; what came before the first hand goes with it), never the last hand, and appends a
 * `rotation` marker, `{ kind: 'rotation', detail: { throughId, hash, records, hands } }`: the id and hash
 * of the last record removed, which the first kept record's `prev` still names. The last such marker is
 * the anchor where a chain walk starts.
 */

export const ROTATION = 'rotation';

export interface RetentionLimits {
  /** Hands whose records are all older than this (wall clock) go. */
  maxAgeMs?: number;
  /** The oldest hands go until the journal holds at most this many records, the rotation marker included. */
  maxRecords?: number;
}

/** What a rotation removed. */
export interface Rotation {
  records: number;
  hands: number;
}

const anchorBody = z.object({
  kind: z.literal(ROTATION),
  detail: z.object({ throughId: z.number().int().nonnegative(), hash: z.string() }),
});

export interface Anchor {
  record: JournalRecord;
  /** The last record removed; undefined when the marker does not say it well. */
  through: { id: number; hash: string } | undefined;
}

/** The last rotation marker, if the journal was ever rotated. */
export function rotationAnchor(db: Database.Database): Anchor | undefined {
  const record = db
    .prepare<[], JournalRecord>(
      `SELECT id, kind, seq, at, body, prev, hash FROM records WHERE kind = 'marker'
         AND CASE WHEN json_valid(body) THEN json_extract(body, '$.kind') END = '${ROTATION}'
       ORDER BY id DESC LIMIT 1`,
    )
    .get();
  if (!record) return undefined;
  const parsed = anchorBody.safeParse(JSON.parse(record.body));
  const through = parsed.success ? parsed.data.detail : undefined;
  return { record, through: through && { id: through.throughId, hash: through.hash } };
}

/** Where the kept records would start under these limits, and how many hands go; undefined for none. */
export function rotationCut(
  db: Database.Database,
  { maxAgeMs, maxRecords }: RetentionLimits,
  now: number,
): { keepFromId: number; hands: number } | undefined {
  // Each hand starts at its hand.start event, written just before its snapshot.
  const starts = db
    .prepare<[], number>(
      `SELECT COALESCE((SELECT e.id FROM records e WHERE e.kind = 'event' AND e.seq = s.seq), s.id)
       FROM records s WHERE s.kind = 'snapshot' ORDER BY s.seq, s.id`,
    )
    .pluck()
    .all();
  const lastStart = starts.at(-1);
  if (lastStart === undefined) return undefined;
  const { first, last } = db
    .prepare<[], { first: number; last: number }>('SELECT min(id) AS first, max(id) AS last FROM records')
    .get() as { first: number; last: number };
  let cut = first;
  if (maxRecords !== undefined && last - first + 1 > maxRecords) {
    // Ids run without a gap, and the rotation marker will be one more record.
    cut = Math.max(cut, starts.find((start) => last - start + 2 <= maxRecords) ?? lastStart);
  }
  if (maxAgeMs !== undefined) {
    const firstRecent = db
      .prepare<[number], number | null>('SELECT min(id) FROM records WHERE at >= ?')
      .pluck()
      .get(now - maxAgeMs);
    // The hand holding the first recent record stays whole.
    const keep = firstRecent == null ? lastStart : starts.findLast((start) => start <= firstRecent);
    cut = Math.max(cut, keep ?? first);
  }
  if (cut <= first) return undefined;
  return { keepFromId: cut, hands: starts.filter((start) => start < cut).length };
}
