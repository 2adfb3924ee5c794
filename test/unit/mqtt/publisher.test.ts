import { Subject } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import type { DomainEvent, Unsequenced } from '../../../src/domain/events.js';
import { publishTable } from '../../../src/mqtt/publisher.js';
import { PROFILES } from '../../../src/rules/index.js';
import { tableMachine } from '../../../src/table/machine.js';
import type { TableUpdate } from '../../../src/table/update.js';
import { journalPath, open } from '../journal/journal-fixtures.js';
import { recordingLink } from './recording-link.js';

const publishing: { unsubscribe(): void }[] = [];
// Before the journal fixtures' clean-up (hooks after a test run last registered first).
afterEach(() => {
  for (const publisher of publishing.splice(0)) publisher.unsubscribe();
  vi.useRealTimers();
});

/** A table fed by hand, journaled: each event gives the update the pipeline would. */
function table() {
  const actor = createActor(tableMachine, { input: { seats: 9, profile: PROFILES['main-event-2014'] } });
  actor.start();
  const updates = new Subject<TableUpdate>();
  const journal = journalPath();
  const journaling = open(journal, { now: () => Date.now() });
  const send = (event: Unsequenced<DomainEvent>) => {
    const sequenced = journaling.append(event);
    actor.send(sequenced);
    const snapshot = actor.getSnapshot();
    updates.next({
      event: sequenced,
      outputs: snapshot.context.outputs,
      snapshot,
      started: sequenced.type === 'hand.start',
    });
  };
  return { updates, send, journal };
}

const card = (seat: number, uid: string) => ({
  type: 'card.seen' as const,
  t: 1000 + seat,
  zone: `seat:${seat}` as const,
  uid,
  face: null,
  deck: null,
});

/** A table publishing on a connected link, its first hand started. */
function publishingHand() {
  const { link, status$, published } = recordingLink();
  const { updates, send, journal } = table();
  publishing.push(
    publishTable(link, updates, {
      tableId: 't1',
      version: '9',
      privateDelayMs: 60_000,
      journal,
      failed: () => undefined,
    }),
  );
  status$.next({ state: 'connected' });
  send({ type: 'hand.start', t: 0, button: 9, players: [1, 2, 3], blinds: [50, 100], deck: 'A' });
  return { status$, published, send };
}

describe('the MQTT publisher', () => {
  it('says online (retained) on each connect, the state when it changes, incidents at QoS 1', () => {
    const { status$, published, send } = publishingHand();
    send({ type: 'settle', t: 100 });
    // A foreign tag dealt face down: the incident names it, masked.
    send(card(1, '04C0FFEE'));
    send({ type: 'settle', t: 2000 });
    status$.next({ state: 'offline', reason: 'gone' });
    status$.next({ state: 'connected' });

    const on = (topic: string) => published.filter((p) => p.topic === `croupier/v1/t1/${topic}`);
    expect(on('status').map((p) => [p.payload, p.options])).toEqual([
      ['{"state":"online","version":"9","api":"v1"}', { qos: 1, retain: true }],
      ['{"state":"online","version":"9","api":"v1"}', { qos: 1, retain: true }],
    ]);
    const states = on('state');
    expect(states.every((p) => p.options?.retain === true)).toBe(true);
    // Each change once, and the latest again on reconnecting.
    const [again, ...changes] = states.map((p) => p.payload).reverse();
    expect(new Set(changes).size).toBe(changes.length);
    expect(again).toBe(changes[0]);
    const [incident] = on('incident');
    expect(incident?.options).toEqual({ qos: 1, retain: false });
    expect(JSON.parse(incident?.payload ?? '{}')).toMatchObject({
      incident: 'FOREIGN_CARD',
      cards: [{ hidden: true }],
    });
    expect(published.map((p) => p.payload).join()).not.toContain('04C0FFEE');
  });

  it('keeps only the latest state while the broker is away, and sends it on reconnecting', () => {
    const { status$, published, send } = publishingHand();
    status$.next({ state: 'offline', reason: 'broker restarting' });
    for (let i = 0; i < 20; i++) send({ type: 'chips', t: 100 + i, zone: 'pot', amount: 150 + i * 10 });
    const states = () =>
      published.filter((p) => p.topic === 'croupier/v1/t1/state').map((p) => JSON.parse(p.payload));
    expect(states().map((s) => s.pot)).toEqual([0]);
    status$.next({ state: 'connected' });
    expect(states().map((s) => s.pot)).toEqual([0, 340]);
  });

  it('publishes every domain event on private/events from the journal after the delay, settles left out', async () => {
    vi.useFakeTimers();
    const { link, status$, published } = recordingLink();
    const { updates, send, journal } = table();
    publishing.push(
      publishTable(link, updates, {
        tableId: 't1',
        version: '9',
        privateDelayMs: 300,
        journal,
        failed: () => undefined,
      }),
    );
    status$.next({ state: 'connected' });
    send({ type: 'hand.start', t: 0, button: 9, players: [1, 2, 3], blinds: [50, 100], deck: 'A' });
    send(card(1, '04A1B2C3'));
    send({ type: 'settle', t: 2000 });
    const held = () => published.filter((p) => p.topic === 'croupier/v1/t1/private/events');
    await vi.advanceTimersByTimeAsync(299);
    expect(held()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(held().map((p) => JSON.parse(p.payload).type)).toEqual(['hand.start', 'card.seen']);
    expect(held()[1]?.payload).toContain('04A1B2C3');
  });
});
