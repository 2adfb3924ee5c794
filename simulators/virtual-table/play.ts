import { setTimeout as sleep } from 'node:timers/promises';
import type { Observable } from 'rxjs';
import type { DomainEvent, Settle, Unsequenced } from '../../src/domain/events.js';
import { type PlayOptions, playScenario } from '../rfid-reader/from-scenario.js';
import type { SimulatedReader } from '../rfid-reader/reader.js';

/**
 * Plays a scenario on a live table: the reader board lays each card on its antenna at its time, and the
 * dealer keys in everything else (hand start, actions, dealer inputs) as the display would. What reaches
 * the table is watched, so that a keyed event never overtakes the reads the file puts before it (a dealer
 * reports an exposed card after it was read), and so that each live sequence number can be traced back
 * to the file's event it stands for.
 */

export type KeyedEvent = Unsequenced<Exclude<DomainEvent, Settle>>;

/**
 * A simulated device that can make an event happen (the keypad keys an action, the shuffler reports a
 * count…): it takes the event and says true, or leaves it to the next channel or the console.
 */
export type Channel = (event: KeyedEvent) => boolean;

export interface TablePlayOptions extends Omit<PlayOptions, 'scheduler'> {
  reader: Pick<SimulatedReader, 'place' | 'remove'>;
  /** Devices tried in order for each event the reader does not play. */
  channels?: readonly Channel[];
  /** The dealer's console (the display): where events no device plays are keyed. */
  key(event: KeyedEvent): void;
  /** Every event the table judged, as it judged it. */
  arrivals: Observable<DomainEvent>;
  /** How long an event waits for the events before it to reach the table (default 5 s). */
  readWaitMs?: number;
  signal?: AbortSignal;
}

export interface TablePlay {
  /** Resolves once every event was played and every read before the last keyed one arrived. */
  done: Promise<void>;
  /** The file's event index a live sequence number stands for; none for a read the file does not have. */
  originOf(seq: number): number | undefined;
  /** File events the reader played that never reached the table. */
  unread(): number[];
  stop(): void;
}

/** What the reader board plays; the rest is keyed in. */
const fromReader = (event: Pick<DomainEvent, 'type'>) =>
  event.type === 'card.seen' || event.type === 'card.gone' || event.type === 'button';

export function playTable(events: readonly DomainEvent[], options: TablePlayOptions): TablePlay {
  const speed = options.speed ?? 1;
  const readWaitMs = options.readWaitMs ?? 5000;
  const origins = new Map<number, number>();
  const delivered = new Set<number>();
  const pending = pendingReads(events);
  /** The file index of the event being keyed in: the table judges it while `key` runs. */
  let keyedNow: number | undefined;
  const abort = new AbortController();
  const watching = options.arrivals.subscribe({
    next: (event) => {
      if (event.type === 'settle') return;
      const origin =
        event.type === 'card.seen' ? pending.get(`${event.zone} ${event.uid}`)?.shift() : keyedNow;
      if (origin === undefined) return;
      origins.set(event.seq, origin);
      delivered.add(origin);
    },
    // The table stopped judging (its journal cannot record): nothing more can be played on it.
    error: () => abort.abort(),
  });
  const signal = options.signal ? AbortSignal.any([options.signal, abort.signal]) : abort.signal;
  const started = performance.now();
  const cards = playScenario(options.reader, events, options);

  const keying = (async () => {
    for (const [index, { seq: _, ...event }] of events.entries()) {
      if (event.type === 'settle' || fromReader(event)) continue;
      await sleep(Math.max(0, started + event.t / speed - performance.now()), undefined, { signal });
      const readsBefore = events.slice(0, index).flatMap((e, i) => (e.type === 'card.seen' ? [i] : []));
      const deadline = performance.now() + readWaitMs;
      while (!readsBefore.every((i) => delivered.has(i))) {
        if (performance.now() > deadline) {
          const missing = readsBefore.filter((i) => !delivered.has(i));
          throw new Error(
            `event ${index}: the reads of events ${missing.join(', ')} never reached the table`,
          );
        }
        await sleep(10, undefined, { signal });
      }
      keyedNow = index;
      options.key({ ...event, t: Date.now() } as KeyedEvent);
      keyedNow = undefined;
    }
  })();

  const done = Promise.all([cards.done, keying]).then(() => undefined);
  const stop = () => {
    abort.abort();
    cards.stop();
    watching.unsubscribe();
  };
  done.catch(() => undefined);
  return {
    done,
    originOf: (seq) => origins.get(seq),
    unread: () => events.flatMap((event, i) => (event.type === 'card.seen' && !delivered.has(i) ? [i] : [])),
    stop,
  };
}

/** For each zone and tag, the file's indexes of the cards seen there, in order. */
function pendingReads(events: readonly DomainEvent[]): Map<string, number[]> {
  const pending = new Map<string, number[]>();
  events.forEach((event, index) => {
    if (event.type !== 'card.seen') return;
    const key = `${event.zone} ${event.uid}`;
    pending.set(key, [...(pending.get(key) ?? []), index]);
  });
  return pending;
}
