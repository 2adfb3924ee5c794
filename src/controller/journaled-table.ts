import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { type Observable, tap, throwError } from 'rxjs';
import type { CroupierConfig } from '../config/config.js';
import type { RecentHand } from '../display/protocol.js';
import { canonicalJson } from '../journal/chain.js';
import { JournalError } from '../journal/errors.js';
import { type Journal, openJournal } from '../journal/store.js';
import { publicOutput } from '../outputs/public.js';
import { recentIncidents } from '../recall/recall.js';
import { persistTable } from '../table/persist.js';
import type { TableConfig } from '../table/reduce.js';
import type { TableHealth } from './health.js';
import {
  initialSnapshot,
  type SourceEvent,
  type TableSnapshot,
  type TableUpdate,
  tablePipeline,
} from './pipeline.js';
import { recoverTable } from './recovery.js';

const DAY_MS = 86_400_000;

export interface JournaledTable {
  /** One update per event judged; an error when the journal cannot record (the table stops). */
  updates: Observable<TableUpdate>;
  /** Where the table stands before the first update: as the journal left it. */
  snapshot: TableSnapshot;
  /** The last hands' incidents and prompts from the journal, newest first (hole cards masked). */
  recentHands(limit: number): RecentHand[];
  /** Writes the power-off marker and closes the journal (after the sources have stopped). */
  close(): void;
}

/**
 * The table behind its journal (DESIGN.md "Durability"): the journal opened (never replaced when it is
 * unreadable), the table recovered from it, power-on and power-off journaled, and every event written
 * ahead of the machine. A journal that cannot be opened, or that stops recording, halts the table: it
 * is shown on `/healthz` and the display, and nothing already written is touched.
 */
export function journaledTable(
  config: CroupierConfig,
  tableConfig: TableConfig,
  sources: readonly Observable<SourceEvent>[],
  { log, health, open = openJournal }: { log: Logger; health: TableHealth; open?: (path: string) => Journal },
): JournaledTable {
  const path = config.journal.path;
  const halted = (error: JournalError) => {
    health.journal({ path, state: 'halted', detail: error.message });
    log.fatal(
      { journal: path, code: error.code, reason: error.message },
      'the journal cannot record: play stops',
    );
  };
  let journal: Journal;
  try {
    journal = open(path);
  } catch (error) {
    if (!(error instanceof JournalError)) throw error;
    halted(error);
    return {
      updates: throwError(() => error),
      snapshot: initialSnapshot(tableConfig),
      recentHands: () => [],
      close: () => undefined,
    };
  }
  const recovery = recoverTable(journal, tableConfig);
  const previous = journal.lastMarker()?.kind;
  journal.marker('power-on', {
    after: previous === 'power-off' ? 'clean stop' : previous ? 'power cut' : 'first start',
  });
  health.journal({ path, state: 'recording', seq: recovery.seq });
  const snapshot = recovery.actor.getSnapshot();
  log.info(
    {
      journal: path,
      from: recovery.from,
      replayed: recovery.replayed,
      seq: recovery.seq,
      hand: snapshot.context.hands,
      status: snapshot.context.hand?.status ?? 'none',
      incidentOpen: snapshot.context.open.length > 0,
      state: tableStateHash(recovery.actor),
    },
    'table recovered from the journal',
  );
  const updates = tablePipeline({ config: tableConfig, sources, journal, actor: recovery.actor }).pipe(
    tap({
      next: ({ event, started }) => {
        health.journal({ path, state: 'recording', seq: event.seq });
        if (started) rotate(journal, config.journal, log);
      },
      error: (error: unknown) => {
        if (error instanceof JournalError) halted(error);
      },
    }),
  );
  return {
    updates,
    snapshot,
    recentHands: (limit) =>
      recentIncidents(journal, limit, tableConfig).map(({ number, startedAt, outputs }) => ({
        number,
        startedAt,
        outputs: outputs.map(publicOutput),
      })),
    close: () => {
      try {
        journal.marker('power-off');
      } catch {
        // A journal that cannot record has said so already.
      }
      journal.close();
    },
  };
}

/** Whole hands past the retention go; a failure here is the disk's, and the next append halts on it. */
function rotate(journal: Journal, { keepDays, keepRecords }: CroupierConfig['journal'], log: Logger): void {
  try {
    const removed = journal.rotate({ maxAgeMs: keepDays * DAY_MS, maxRecords: keepRecords });
    if (removed.records > 0) log.info({ removed }, 'journal rotated');
  } catch (error) {
    log.error({ reason: (error as Error).message }, 'journal rotation failed');
  }
}

/** A digest of the table's whole state (hole cards included, so only the digest is ever logged). */
export function tableStateHash(actor: Parameters<typeof persistTable>[0]): string {
  return createHash('sha256')
    .update(canonicalJson(persistTable(actor)))
    .digest('hex')
    .slice(0, 16);
}
