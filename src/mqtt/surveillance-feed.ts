import { type Observable, Subscription } from 'rxjs';
import type { MqttLink } from '../io/mqtt.js';
import { type CursorEvent, type JournalCursor, openCursor } from '../journal/cursor.js';
import { topicOf } from './topics.js';

export interface SurveillanceFeedOptions {
  tableId: string;
  /** The journal's file: the events are read from it, and the feed's cursor is kept in it. */
  journal: string;
  /** How long after it was journaled an event may go out (`mqtt.privateDelayMs`). */
  delayMs: number;
  /** What could not be published or read; never an event's content. */
  failed(topic: string, reason: string): void;
  /** Wall clock, ms: the one the journal stamps its records with. */
  now?: () => number;
  /** A clock, ms, that no setting of the wall clock moves. */
  monotonic?: () => number;
}

/** The cursor's name in the journal. */
const FEED = 'private/events';
/** Events published before their acknowledgements are awaited: a backlog goes out at the broker's pace. */
const BATCH = 100;
/** setTimeout's longest wait (about 24.8 days): a longer one is waited again when it ends. */
const LONGEST_WAIT_MS = 2 ** 31 - 1;

/**
 * `private/events` (DESIGN.md "MQTT"): every domain event the journal holds, settles left out, in
 * sequence order, each once it has been journaled `delayMs`, at QoS 1 while the broker is connected. The
 * journal's cursor keeps the last event the broker acknowledged, so that a restart or a night without
 * broker resumes after it: nothing lost, and nothing published twice unless croupier dies between an
 * acknowledgement and the cursor's write, or a connection drops before an acknowledgement (QoS 1 sends
 * it again): at least once, never missed. One timer waits for the next event due, none when nothing is.
 *
 * An event this run journaled (`journaled` gives its seq) is timed from when it was heard, on the
 * monotonic clock: a Pi sets its wall clock from a time server some time after it boots, and a clock set
 * forward must not send hole cards early. Only the events of an earlier run are timed by the journal's
 * wall clock.
 */
export function surveillanceFeed(
  link: MqttLink,
  journaled: Observable<number>,
  {
    tableId,
    journal,
    delayMs,
    failed,
    now = Date.now,
    monotonic = () => performance.now(),
  }: SurveillanceFeedOptions,
): Subscription {
  const topic = topicOf(tableId, 'privateEvents');
  let cursor: JournalCursor | undefined;
  /** The last event passed: published and acknowledged, or a settle. */
  let passed = -1;
  /** When this run heard each event not passed yet (monotonic). */
  const heard = new Map<number, number>();
  let connected = false;
  let sending = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let lastFailure: string | undefined;

  /** A failure said once, not at every event while it lasts. */
  const report = (reason: string) => {
    if (reason !== lastFailure) failed(topic, reason);
    lastFailure = reason;
  };

  const opened = (): JournalCursor | undefined => {
    if (cursor) return cursor;
    try {
      cursor = openCursor(journal, FEED);
      passed = cursor.seq;
      lastFailure = undefined;
    } catch (error) {
      report(`the journal cannot be read, its events wait: ${(error as Error).message}`);
    }
    return cursor;
  };

  const dueIn = ({ seq, at }: CursorEvent): number => {
    const since = heard.get(seq);
    return since === undefined ? at + delayMs - now() : since + delayMs - monotonic();
  };

  /** The events due after the last one passed (a batch at most), the seq they pass through, and the wait for the next. */
  const nextBatch = (from: JournalCursor) => {
    const events: CursorEvent[] = [];
    let through = passed;
    for (const event of from.after(passed, BATCH)) {
      if (event.type !== 'settle') {
        const wait = dueIn(event);
        if (wait > 0) return { events, through, wait };
        events.push(event);
      }
      through = event.seq;
    }
    return { events, through, wait: undefined };
  };

  const pass = (seq: number) => {
    passed = seq;
    for (const earlier of heard.keys()) {
      if (earlier > seq) break;
      heard.delete(earlier);
    }
  };

  const unschedule = () => {
    clearTimeout(timer);
    timer = undefined;
  };

  const pump = (): void => {
    unschedule();
    const from = connected && !sending && !stopped ? opened() : undefined;
    if (!from) return;
    let next: ReturnType<typeof nextBatch>;
    try {
      next = nextBatch(from);
    } catch (error) {
      report(`the journal cannot be read, its events wait: ${(error as Error).message}`);
      return;
    }
    const { events, through, wait } = next;
    if (events.length === 0) {
      if (through > passed) {
        pass(through);
        pump();
      } else if (wait !== undefined) {
        timer = setTimeout(pump, Math.min(wait, LONGEST_WAIT_MS));
      }
      return;
    }
    sending = true;
    void Promise.allSettled(events.map(({ body }) => link.publish(topic, body, { qos: 1 }))).then(
      (results) => {
        sending = false;
        const refused = results.find((result) => result.status === 'rejected');
        if (refused) {
          // Tried again at the next event or connection: the link was closing, or the broker refused it.
          failed(topic, (refused.reason as Error).message);
        } else {
          pass(through);
          try {
            from.advance(through);
            lastFailure = undefined;
          } catch (error) {
            report(`the cursor cannot be kept, events may be published again: ${(error as Error).message}`);
          }
        }
        if (stopped) from.close();
        else if (!refused) pump();
      },
    );
  };

  const subscription = new Subscription();
  // Opened at once: a journal the feed never read starts at its end, before this run journals anything.
  opened();
  subscription.add(
    link.status$.subscribe((status) => {
      connected = status.state === 'connected';
      if (connected) pump();
      else unschedule();
    }),
  );
  subscription.add(
    journaled.subscribe({
      next: (seq) => {
        if (!heard.has(seq)) heard.set(seq, monotonic());
        // A timer set waits for an earlier event, which goes first.
        if (timer === undefined) pump();
      },
      error: () => undefined,
    }),
  );
  subscription.add(() => {
    stopped = true;
    unschedule();
    // A batch in flight closes the cursor once it is acknowledged (the link's close waits for it).
    if (!sending) cursor?.close();
  });
  return subscription;
}
