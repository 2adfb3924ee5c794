import { asyncScheduler, merge, Observable, type SchedulerLike, type Subscription } from 'rxjs';
import { type Actor, createActor } from 'xstate';
import type { DomainEvent, ReaderRound, SourceEvent, Unsequenced } from '../domain/events.js';
import type { Journal } from '../journal/store.js';
import { startTable, tableMachine } from '../table/machine.js';
import { MACHINE_VERSION, persistTable } from '../table/persist.js';
import { nextSettle, settleAllAfter, settleJudges, type TableConfig } from '../table/reduce.js';
import type { TableSnapshot, TableUpdate } from '../table/update.js';

/**
 * The domain's and the table's types (src/table/update.ts), for the controller and src/display, which import
 * them from here; the outputs import src/table/update.ts.
 */
export type { SourceEvent, TableSnapshot, TableUpdate };

/** Where a table stands before its first event. */
export function initialSnapshot(config: TableConfig): TableSnapshot {
  return startTable(config);
}

export interface TablePipelineOptions {
  config: TableConfig;
  /** Domain events from the table's devices (normalised driver output) and from the dealer's inputs. */
  sources: readonly Observable<SourceEvent>[];
  /** The host clock the sources stamp `t` with; it also paces the reordering window. */
  clock?: SchedulerLike;
  /**
   * Writes each event ahead of the machine and numbers it, and keeps a snapshot at each hand start.
   * Without it (replays, tests) events are numbered in memory. An event it cannot write ends the
   * pipeline with that error: the table does not play on unrecorded.
   */
  journal?: Journal;
  /** The table to go on with (recovered from the journal, started); a new table without it. */
  actor?: Actor<typeof tableMachine>;
}

/**
 * One table's data flow (DESIGN.md "Shape"): the sources merged in arrival order, each event written to
 * the journal (which numbers it), then judged by the table actor; one update comes out per event judged.
 * Subscribing starts the actor and subscribes the sources; the updates complete once every source has.
 * The machine stays pure: the clock reaches it only as the `t` of a `settle` event, sent when a reader
 * board's round ends and settles a held read, and at the exact instant the next judgment that waits on
 * time falls due (`nextSettle`): a held read's window, a puck read that stayed, a deal paused at a fold.
 * Nothing polls: a quiet table has no timer.
 */
export function tablePipeline({
  config,
  sources,
  clock = asyncScheduler,
  journal,
  actor: recovered,
}: TablePipelineOptions): Observable<TableUpdate> {
  return new Observable<TableUpdate>((subscriber) => {
    const actor = recovered ?? createActor(tableMachine, { input: config }).start();
    actor.subscribe({ error: (error: unknown) => subscriber.error(error) });
    let seq = -1;
    const record = (event: Unsequenced<DomainEvent>): DomainEvent =>
      journal ? journal.append(event) : ({ ...event, seq: ++seq } as DomainEvent);
    const judge = (source: Unsequenced<DomainEvent>): void => {
      let event: DomainEvent;
      try {
        event = record(source);
      } catch (error) {
        subscriber.error(error);
        return;
      }
      const hands = actor.getSnapshot().context.hands;
      actor.send(event);
      const snapshot = actor.getSnapshot();
      // A hand started (a hand.start, or the table's own next-hand): the journal keeps its snapshot.
      const started = snapshot.context.hands > hands;
      let unrecorded: unknown;
      try {
        if (journal && started) journal.snapshot(event.seq, MACHINE_VERSION, persistTable(actor));
      } catch (error) {
        unrecorded = error;
      }
      subscriber.next({ event, outputs: snapshot.context.outputs, snapshot, started });
      // The event is journaled and judged; a snapshot the journal cannot write stops the table after it.
      if (unrecorded !== undefined) subscriber.error(unrecorded);
    };
    const context = () => actor.getSnapshot().context;
    const settle = (t: number, round?: ReaderRound): void => {
      if (settleJudges(context(), t, round)) judge({ type: 'settle', t, ...(round && { round }) });
    };
    let timer: { at: number; task: Subscription } | undefined;
    /** The clock wakes the table at the next instant a judgment falls due, and only then. */
    const wake = (): void => {
      const at = nextSettle(context());
      if (timer?.at === at) return;
      timer?.task.unsubscribe();
      timer = undefined;
      if (at === null) return;
      const task = clock.schedule(
        () => {
          timer = undefined;
          // A timer may fire a little early on the clock it is read on: the instant it was set for is reached.
          settle(Math.max(clock.now(), at));
          if (!subscriber.closed && (nextSettle(context()) ?? Number.POSITIVE_INFINITY) > at) wake();
        },
        Math.max(0, at - clock.now()),
      );
      timer = { at, task };
    };
    let lastT: number | undefined;
    const events = merge(...sources).subscribe({
      next: (event) => {
        lastT = Math.max(event.t, lastT ?? event.t);
        if (event.type === 'round.end') settle(event.t, event.round);
        else judge(event);
        wake();
      },
      error: (error: unknown) => subscriber.error(error),
      complete: () => {
        // No read can join the window any more: whatever waits on time is judged, as at the end of a replay.
        if (lastT !== undefined) settle(lastT + settleAllAfter(context()));
        subscriber.complete();
      },
    });
    // A table recovered with reads held wakes when their window ends, as if it had never stopped.
    if (!subscriber.closed) wake();
    return () => {
      events.unsubscribe();
      timer?.task.unsubscribe();
      actor.stop();
    };
  });
}
