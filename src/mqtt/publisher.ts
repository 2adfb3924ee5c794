import { map, type Observable, Subscription } from 'rxjs';
import type { MqttLink } from '../io/mqtt.js';
import { publicOutput, publicState, type TableExtrasSource } from '../outputs/public.js';
import type { TableSnapshot, TableUpdate } from '../table/update.js';
import { surveillanceFeed } from './surveillance-feed.js';
import { API_VERSION, topicOf } from './topics.js';

export interface PublisherOptions {
  tableId: string;
  version: string;
  /** `private/events` waits this long (DESIGN.md: only delayed hole cards leave the table). */
  privateDelayMs: number;
  /** The journal's file, which `private/events` is published from. */
  journal: string;
  /** A publish the broker never took (the link was closed first), or a journal `private/events` cannot read. */
  failed(topic: string, reason: string): void;
  /** Whether the table is halted (a value: halted; null: it plays), as `JournaledTable.halts` says. */
  halts?: Observable<unknown>;
  /** What the controller adds to the state (dealer, the open call's answer, devices: `TableExtras`). */
  extras?: TableExtrasSource;
}

/** The retained status payload, online or (as the will) offline. */
export function statusMessage(state: 'online' | 'offline' | 'halted', version: string): string {
  return JSON.stringify({ state, version, api: API_VERSION });
}

/**
 * The table's outputs on MQTT: each incident and prompt (public view, QoS 1), the public state when it
 * changes (retained), every domain event on `private/events` from the journal after the broadcast delay
 * (surveillance-feed.ts), and the retained `online` status each time the link connects (the will says
 * `offline`). While the broker is away only the latest state is kept, sent on reconnecting: a night
 * without broker queues the incidents it must, not one state per event, and `private/events` resumes
 * from the journal. The retained status is `halted` while the table is (its journal cannot record, or a
 * record of it is broken), and `online` again once a supervisor clears it.
 */
export function publishTable(
  link: MqttLink,
  updates: Observable<TableUpdate>,
  { tableId, version, privateDelayMs, journal, failed, halts, extras }: PublisherOptions,
): Subscription {
  const send = (name: 'status' | 'state' | 'incident', payload: string, retain = false) => {
    const topic = topicOf(tableId, name);
    link.publish(topic, payload, { qos: 1, retain }).catch((error: Error) => failed(topic, error.message));
  };
  const subscription = new Subscription();
  let status: 'online' | 'halted' = 'online';
  let connected = false;
  let lastState = '';
  let lastSnapshot: TableSnapshot | undefined;
  const sendState = (snapshot: TableSnapshot) => {
    const view = publicState(snapshot);
    const state = JSON.stringify(extras ? { ...view, ...extras.of(view) } : view);
    if (state !== lastState && connected) send('state', state, true);
    lastState = state;
    lastSnapshot = snapshot;
  };
  subscription.add(
    link.status$.subscribe((link) => {
      connected = link.state === 'connected';
      if (!connected) return;
      send('status', statusMessage(status, version), true);
      if (lastState !== '') send('state', lastState, true);
    }),
  );
  subscription.add(
    updates.subscribe({
      next: ({ outputs, snapshot }) => {
        for (const output of outputs) send('incident', JSON.stringify(publicOutput(output)));
        sendState(snapshot);
      },
      // The table stopped (the pipeline failed): the floor and surveillance see it in the status.
      error: () => {
        status = 'halted';
        send('status', statusMessage(status, version), true);
      },
    }),
  );
  if (extras) {
    // Said again between two events: the state of the last one, with what changed beside it.
    subscription.add(extras.changed.subscribe(() => lastSnapshot && sendState(lastSnapshot)));
  }
  if (halts) {
    subscription.add(
      halts.subscribe((halt) => {
        const now = halt ? 'halted' : 'online';
        if (now === status) return;
        status = now;
        if (connected) send('status', statusMessage(status, version), true);
      }),
    );
  }
  subscription.add(
    surveillanceFeed(link, updates.pipe(map(({ event }) => event.seq)), {
      tableId,
      journal,
      delayMs: privateDelayMs,
      failed,
    }),
  );
  return subscription;
}
