import {
  asyncScheduler,
  interval,
  map,
  merge,
  Observable,
  type OperatorFunction,
  type SchedulerLike,
} from 'rxjs';
import { createActor, type SnapshotFrom } from 'xstate';
import type { DomainEvent, Settle, Unsequenced } from '../domain/events.js';
import type { TableOutput } from '../rules/types.js';
import { tableMachine } from '../table/machine.js';
import type { TableConfig } from '../table/reduce.js';

/** A domain event as a device or the dealer's inputs report it, before it is given its sequence number. */
export type SourceEvent = Unsequenced<Exclude<DomainEvent, Settle>>;

export type TableSnapshot = SnapshotFrom<typeof tableMachine>;

/** One event judged: the incidents and prompts it brought out, and where the table stands after it. */
export interface TableUpdate {
  event: DomainEvent;
  outputs: TableOutput[];
  snapshot: TableSnapshot;
}

/** Where a table stands before its first event. */
export function initialSnapshot(config: TableConfig): TableSnapshot {
  const actor = createActor(tableMachine, { input: config });
  actor.start();
  const snapshot = actor.getSnapshot();
  actor.stop();
  return snapshot;
}

export interface TablePipelineOptions {
  config: TableConfig;
  /** Domain events from the table's devices (normalised driver output) and from the dealer's inputs. */
  sources: readonly Observable<SourceEvent>[];
  /** The host clock the sources stamp `t` with; it also paces the reordering window. */
  clock?: SchedulerLike;
}

/**
 * One table's data flow (DESIGN.md "Shape"): the sources merged in arrival order, each event numbered,
 * then judged by the table actor; one update comes out per event judged. Subscribing starts the actor
 * and subscribes the sources; the updates complete once every source has. The machine stays pure: the
 * clock reaches it only as the `t` of a `settle` event, sent every `orderWindowMs` so that reads held in
 * the reordering window are judged while the table is quiet.
 */
export function tablePipeline({
  config,
  sources,
  clock = asyncScheduler,
}: TablePipelineOptions): Observable<TableUpdate> {
  return new Observable<TableUpdate>((subscriber) => {
    const actor = createActor(tableMachine, { input: config });
    let outputs: TableOutput[] = [];
    actor.on('output', ({ output }) => outputs.push(output));
    actor.subscribe({ error: (error: unknown) => subscriber.error(error) });
    actor.start();
    const judge = (event: DomainEvent): void => {
      actor.send(event);
      const update = { event, outputs, snapshot: actor.getSnapshot() };
      outputs = [];
      subscriber.next(update);
    };
    const windowMs = actor.getSnapshot().context.orderWindowMs;

    // A settle is no sensor fact: it takes the number of the last event rather than one of its own.
    let last: { seq: number; t: number } | undefined;
    const settle = (t: number): void => {
      if (last) judge({ type: 'settle', t, seq: last.seq });
    };
    const ticks = interval(windowMs, clock).subscribe(() => settle(clock.now()));
    const events = merge(...sources)
      .pipe(numberInArrivalOrder())
      .subscribe({
        next: (event) => {
          last = { seq: event.seq, t: Math.max(event.t, last?.t ?? event.t) };
          judge(event);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          // No read can join the window any more: the held ones are judged, as at the end of a replay.
          if (last) settle(last.t + windowMs);
          subscriber.complete();
        },
      });
    return () => {
      events.unsubscribe();
      ticks.unsubscribe();
      actor.stop();
    };
  });
}

/**
 * Numbers the events in the order they arrive, from 0. Stands in for `journal.append`, which will number
 * each event once it is written ahead, before the table sees it (DESIGN.md "Durability").
 */
function numberInArrivalOrder(): OperatorFunction<SourceEvent, Exclude<DomainEvent, Settle>> {
  return map((event, seq) => ({ ...event, seq }));
}
