import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Logger } from 'pino';
import { BehaviorSubject, merge, Observable, Subject, type Subscriber, type Subscription } from 'rxjs';
import type { CroupierConfig } from '../config/config.js';
import type { RecentHand } from '../display/protocol.js';
import { canonicalJson } from '../journal/chain.js';
import { JournalError } from '../journal/errors.js';
import { openReader } from '../journal/open.js';
import { type Journal, openJournal } from '../journal/store.js';
import { brokenError, describeBroken, withoutFingerprint } from '../journal/verify.js';
import { type ChainCheck, ChainWatch } from '../journal/watch.js';
import { publicOutput } from '../outputs/public.js';
import { recentIncidents } from '../recall/recall.js';
import { persistTable } from '../table/persist.js';
import type { TableConfig } from '../table/reduce.js';
import { ChainState } from './chain-state.js';
import type { HaltClearing, JournalHealth, TableHalt, TableHealth } from './health.js';
import {
  initialSnapshot,
  type SourceEvent,
  type TableSnapshot,
  type TableUpdate,
  tablePipeline,
} from './pipeline.js';
import { type Recovery, recoverTable } from './recovery.js';

const DAY_MS = 86_400_000;

export interface JournaledTable {
  /**
   * One update per event judged. A halt does not end it: play stops, and goes on from the journal once a
   * supervisor clears the halt. It ends with an error only on a failure that is no journal's (a bug).
   */
  updates: Observable<TableUpdate>;
  /** Why the table does not play, or null while it plays: the present one at once, then each change. */
  halts: Observable<TableHalt | null>;
  /** Where the table stands as the journal left it: at start, and again after a halt is cleared. */
  readonly snapshot: TableSnapshot;
  /** The last hands' incidents and prompts from the journal, newest first (hole cards masked), marked. */
  recentHands(limit: number): RecentHand[];
  /**
   * A signed-in supervisor clears the halt: journaled with their name, the table recovered from the
   * journal again, and play goes on; refused when the table plays, or when the file itself is unusable.
   */
  clearHalt(supervisor: string): HaltClearing;
  /**
   * Starts the background check: a whole walk of the chain at once, then every `journal.verifyEveryMs`.
   * Called once croupier is up: the walk of a long journal would otherwise share the event loop with
   * the start itself (cold start is measured to the first `/healthz`).
   */
  checkInBackground(): void;
  /**
   * Journals a record that is no domain event (a dealer's sign-in, a supervisor's answer), as the halt
   * markers are: evidence for the chain, never an input of the table. One that cannot be written is logged.
   */
  mark(kind: string, detail: unknown): void;
  /** The last such record of `kind`, or null. */
  lastMark(kind: string): unknown;
  /** Writes the power-off marker and closes the journal (after the sources have stopped). */
  close(): void;
}

/** Halts a supervisor can clear: a broken record, and a journal that could not write or open (tried again). */
const CLEARABLE: ReadonlySet<JournalError['code']> = new Set(['chain-broken', 'unwritable', 'unreadable']);

/**
 * The table behind its journal (DESIGN.md "Durability"): the journal opened (never replaced when it is
 * unreadable), the table recovered from it, power-on and power-off journaled, and every event written
 * ahead of the machine. The hash chain is checked at open where recovery reads it, by each write where
 * it chains on, and whole in the background (`journal.verifyEveryMs`). A journal that cannot be opened
 * or stops recording, and a broken record, halt the table: `/healthz`, the display and MQTT say why, and
 * nothing already written is touched. A broken record's halt is journaled and outlives a restart until a
 * supervisor clears it.
 */
export function journaledTable(
  config: CroupierConfig,
  tableConfig: TableConfig,
  sources: readonly Observable<SourceEvent>[],
  { log, health, open = openJournal }: { log: Logger; health: TableHealth; open?: (path: string) => Journal },
): JournaledTable {
  const path = config.journal.path;
  const halts = new BehaviorSubject<TableHalt | null>(null);
  const chain = new ChainState();
  let journal: Journal | undefined;
  let current = initialSnapshot(tableConfig);
  /** The table recovered, waiting for its session to start. */
  let recovered: Recovery | undefined;
  /** The events of the session in play (none while halted: they are not recorded, so not judged). */
  let input: Subject<SourceEvent> | undefined;
  let session: Subscription | undefined;
  let downstream: Subscriber<TableUpdate> | undefined;
  let clearing = false;
  /** Why the table does not play (`halts` says it once the halt is known for sure). */
  let stoppedBy: TableHalt | null = null;
  /** The sources have all completed: no session starts any more. */
  let ended = false;
  /** Closed: a clearing under way opens nothing more. */
  let closed = false;
  let journalHealth: JournalHealth = { path, state: 'recording' };
  const report = (patch: Partial<JournalHealth>, replace = false) => {
    journalHealth = replace ? { path, state: 'recording', ...patch } : { ...journalHealth, ...patch };
    health.journal(journalHealth);
  };

  const stopSession = () => {
    session?.unsubscribe();
    session = undefined;
    input = undefined;
  };

  /**
   * Stops play, journals the halt of a broken record, and says why everywhere. `walked`: a whole walk
   * found it, so it is the first broken record already.
   */
  const halt = (error: JournalError, walked = false) => {
    if (stoppedBy) return;
    stopSession();
    recovered?.actor.stop();
    recovered = undefined;
    let named = error;
    if (error.code === 'chain-broken' && error.record && journal) {
      try {
        named = journal.halt(error.record);
      } catch (failure) {
        log.error({ journal: path, reason: (failure as Error).message }, 'the halt could not be journaled');
      }
    }
    const stopped = tableHalt(named);
    report({
      state: 'halted',
      detail: stopped.detail,
      clearable: stopped.clearable,
      ...(stopped.record && { record: stopped.record }),
    });
    stoppedBy = stopped;
    log.fatal(
      {
        journal: path,
        code: named.code,
        reason: named.message,
        ...(named.record && { record: named.record.id }),
      },
      named.code === 'chain-broken'
        ? 'a journal record is broken: play stops until a supervisor clears it'
        : 'the journal cannot record: play stops',
    );
    halts.next(stopped);
    // A whole walk at once names the first broken record (an append or the check at open sees the last
    // ones only), or a damaged file's first unreadable one.
    const unnamed = named.code === 'chain-broken' || (named.code === 'corrupt' && !named.record);
    if (unnamed && !walked) void watch.checkNow();
  };

  /** The halt said again, naming its record better. */
  const rename = (named: TableHalt) => {
    stoppedBy = named;
    report({ detail: named.detail, ...(named.record && { record: named.record }) });
    log.error({ journal: path, reason: named.detail }, 'the first broken journal record found');
    halts.next(named);
  };

  /** A halt found by the check at start or in the background: the first record no clearing acknowledged. */
  const checked = (check: ChainCheck) => {
    const found = chain.checked(check);
    report({ chain: chain.health() });
    const stopped = stoppedBy;
    if (!found) return;
    if (!stopped) {
      halt(brokenError(path, found), true);
      return;
    }
    const record = withoutFingerprint(found);
    if (stopped.code === 'corrupt' && !stopped.record) {
      // The damaged file's first unreadable record, once the walk has found it.
      rename({ ...stopped, record, detail: `${stopped.detail}; ${describeBroken(record)}` });
    } else if (stopped.code === 'chain-broken' && record.id < (stopped.record?.id ?? 0)) {
      // The check at open saw the last records only: the whole walk names the first broken one.
      try {
        journal?.halt(record);
      } catch (failure) {
        log.error({ journal: path, reason: (failure as Error).message }, 'the halt could not be journaled');
      }
      rename(tableHalt(brokenError(path, record)));
    }
  };

  const watch = new ChainWatch({
    everyMs: config.journal.verifyEveryMs,
    reader: () => {
      if (journal) return journal.reader();
      if (path === ':memory:') return undefined;
      const db = openReader(path);
      return { db, close: () => db.close(), own: true };
    },
    checked,
    failed: (error) => {
      log.error({ journal: path, reason: (error as Error).message }, 'the journal check could not be made');
      // The file gone from the disk: the writer would go on into a file no one will ever read again.
      if (journal && !stoppedBy && path !== ':memory:' && !existsSync(path)) {
        halt(
          new JournalError(
            'unreadable',
            path,
            'the file is no longer on the disk: nothing more would be kept',
          ),
        );
      }
    },
  });

  /**
   * Opens the journal and, unless it is halted, recovers the table from it. After a clearing no
   * power-on is journaled (the clearing is), and the clearing of a journal that could not write is
   * journaled by the journal reopened.
   */
  const begin = (clearedBy?: { supervisor: string; cause: JournalError['code'] }): void => {
    let stopped: JournalError | undefined;
    try {
      journal = open(path);
      const previous = clearedBy ? undefined : lastPowerMarker(journal);
      if (clearedBy && clearedBy.cause !== 'chain-broken' && !journal.halted()) {
        journal.clearHalt(clearedBy.supervisor, clearedBy.cause, []);
      }
      chain.opened(journal);
      stopped = journal.halted();
      if (!stopped) recovered = recoverTable(journal, tableConfig);
      // Journaled while halted too: the restarts of a halted table are evidence.
      if (!clearedBy) {
        journal.marker('power-on', {
          after: previous === 'power-off' ? 'clean stop' : previous ? 'power cut' : 'first start',
        });
      }
    } catch (error) {
      if (!(error instanceof JournalError)) throw error;
      stopped ??= error;
    }
    if (stopped) {
      halt(stopped);
      return;
    }
    const recovery = recovered as Recovery;
    current = recovery.actor.getSnapshot();
    report({ seq: recovery.seq, chain: chain.health() }, true);
    log.info(
      {
        journal: path,
        from: recovery.from,
        replayed: recovery.replayed,
        seq: recovery.seq,
        hand: current.context.hands,
        phase: current.context.phase,
        incidentOpen: current.context.open.length > 0,
        state: tableStateHash(recovery.actor),
      },
      'table recovered from the journal',
    );
  };

  /** The recovered table plays: its events are written ahead of it and judged. */
  const play = () => {
    if (!recovered || !journal || !downstream || session || ended) return;
    const playing = journal;
    const events = new Subject<SourceEvent>();
    input = events;
    const pipeline = tablePipeline({
      config: tableConfig,
      sources: [events],
      journal: playing,
      actor: recovered.actor,
    });
    recovered = undefined;
    session = pipeline.subscribe({
      next: (update) => {
        current = update.snapshot;
        report({ seq: update.event.seq });
        if (update.started) rotate(playing, config.journal, log);
        downstream?.next(update);
      },
      error: (error: unknown) => {
        if (error instanceof JournalError) halt(error);
        else downstream?.error(error);
      },
      complete: () => downstream?.complete(),
    });
  };

  begin();

  const updates = new Observable<TableUpdate>((subscriber) => {
    downstream = subscriber;
    play();
    // The sources are subscribed once for the table's life: a halt stops their events being judged,
    // not the devices (a session after a clearing takes them again).
    const relay = merge(...sources).subscribe({
      next: (event) => input?.next(event),
      error: (error: unknown) => subscriber.error(error),
      complete: () => {
        ended = true;
        if (input) input.complete();
        else subscriber.complete();
      },
    });
    return () => {
      relay.unsubscribe();
      stopSession();
      downstream = undefined;
    };
  });

  const clearHalt = (supervisor: string): HaltClearing => {
    const stopped = stoppedBy;
    if (!stopped) return { refused: 'not-halted', error: 'the table is not halted' };
    if (!stopped.clearable) {
      return {
        refused: 'not-clearable',
        error: `${stopped.detail}: the file itself cannot be used; an engineer must move it aside (doctor says how)`,
      };
    }
    if (clearing) return { refused: 'busy', error: 'the halt is being cleared' };
    clearing = true;
    void (async () => {
      try {
        // Every broken record is acknowledged as the whole chain holds it now: one clearing for all.
        const check = stopped.code === 'chain-broken' && journal ? await watch.checkNow() : undefined;
        if (closed) return;
        if (stopped.code === 'chain-broken') {
          if (check) chain.checked(check);
          journal?.clearHalt(supervisor, stopped.code, chain.unacknowledged());
        }
        journal?.close();
        journal = undefined;
        // Reopened as after a restart: if it halts again, that halt is said instead.
        stoppedBy = null;
        begin({ supervisor, cause: stopped.code });
        if (stoppedBy) return;
        halts.next(null);
        log.warn(
          { supervisor, journal: path, ...(stopped.record && { record: stopped.record.id }) },
          'halt cleared by a supervisor: play goes on from the journal',
        );
        play();
        void watch.checkNow();
      } catch (error) {
        // The clearing could not be journaled (the disk): the halt stands.
        log.error({ journal: path, reason: (error as Error).message }, 'the halt could not be cleared');
        if (!journal) begin();
      } finally {
        clearing = false;
      }
    })();
    return { clearing: true };
  };

  return {
    updates,
    halts: halts.asObservable(),
    get snapshot() {
      return current;
    },
    recentHands: (limit) => {
      if (!journal) return [];
      try {
        return recentIncidents(journal, limit, tableConfig, chain.known()).map(
          ({ number, startedAt, outputs, broken, unreadable }) => ({
            number,
            startedAt,
            outputs: outputs.map(publicOutput),
            ...(broken && { broken }),
            ...(unreadable !== undefined && { unreadable }),
            ...(!chain.whole() && { unchecked: true }),
          }),
        );
      } catch (error) {
        if (!(error instanceof JournalError)) throw error;
        log.error({ journal: path, reason: error.message }, 'the last hands cannot be recalled');
        return [];
      }
    },
    clearHalt,
    mark: (kind, detail) => {
      try {
        journal?.marker(kind, detail);
      } catch (error) {
        log.error(
          { journal: path, kind, reason: (error as Error).message },
          'a marker could not be journaled',
        );
      }
    },
    lastMark: (kind) => {
      try {
        return journal?.lastMarker([kind])?.detail ?? null;
      } catch {
        return null; // a marker that cannot be read back: the chain check names it
      }
    },
    checkInBackground: () => watch.start(),
    close: () => {
      closed = true;
      watch.stop();
      try {
        journal?.marker('power-off');
      } catch {
        // A journal that cannot record has said so already.
      }
      journal?.close();
      journal = undefined;
      halts.complete();
    },
  };
}

/** What every output says of a halt. */
function tableHalt(error: JournalError): TableHalt {
  return {
    code: error.code,
    detail: error.message,
    clearable: CLEARABLE.has(error.code),
    ...(error.record && { record: error.record }),
  };
}

/** The last power-on or power-off: how the previous run ended (halts and clearings left aside). */
function lastPowerMarker(journal: Journal): string | undefined {
  try {
    return journal.lastMarker(['power-on', 'power-off'])?.kind;
  } catch {
    return undefined; // a marker that cannot be read back: the chain check names it
  }
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
