import { Subject, type Subscription } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Unsequenced } from '../../../src/domain/events.js';
import type { JournaledEvent } from '../../../src/journal/store.js';
import { surveillanceFeed } from '../../../src/mqtt/surveillance-feed.js';
import { handStart, holeCard, journalPath, open } from '../journal/journal-fixtures.js';
import { recordingLink } from './recording-link.js';

const DELAY = 60_000;
const TOPIC = 'croupier/v1/t1/private/events';

const feeds: Subscription[] = [];
let failures: string[] = [];

beforeEach(() => {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
  failures = [];
});

// Before the journal fixtures' own clean-up (hooks after a test run last registered first): the feed's
// connection is closed before its folder is removed.
afterEach(() => {
  for (const feed of feeds.splice(0)) feed.unsubscribe();
  vi.useRealTimers();
});

/** A table's journal on the fake wall clock, and the seq of each event as the table journals it. */
function table(path = journalPath()) {
  const journal = open(path, { now: () => Date.now() });
  const journaled = new Subject<number>();
  const play = (event: Unsequenced<JournaledEvent>) => journaled.next(journal.append(event).seq);
  return { path, journal, journaled, play };
}

/** The feed on a link, connected unless told otherwise. */
function feed(
  { path, journaled }: { path: string; journaled: Subject<number> },
  { connected = true, held = false } = {},
) {
  const link = recordingLink({ held });
  const subscription = surveillanceFeed(link.link, journaled, {
    tableId: 't1',
    journal: path,
    delayMs: DELAY,
    failed: (_topic, reason) => failures.push(reason),
  });
  feeds.push(subscription);
  if (connected) link.status$.next({ state: 'connected' });
  const seqs = () => link.published.map((p) => (JSON.parse(p.payload) as JournaledEvent).seq);
  return { ...link, subscription, seqs };
}

const settle = (t: number): Unsequenced<JournaledEvent> => ({ type: 'settle', t });

describe('the surveillance feed (private/events)', () => {
  it('publishes each domain event the delay after it was journaled, in order; settles and markers left out', async () => {
    const played = table();
    const { published, seqs } = feed(played);
    expect(vi.getTimerCount()).toBe(0);
    played.play(handStart(0));
    played.journal.marker('power-on');
    played.play(holeCard(10));
    await vi.advanceTimersByTimeAsync(10_000);
    played.play(settle(10_000));
    played.play(holeCard(10_010, 3));
    // One timer, for the first event due; none polls.
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(DELAY - 10_000 - 1);
    expect(published).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(seqs()).toEqual([0, 1]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(seqs()).toEqual([0, 1, 3]);
    expect(vi.getTimerCount()).toBe(0);
    // Each as the journal holds it, hole card included, at QoS 1 and not retained.
    const [, card] = published;
    expect(card?.topic).toBe(TOPIC);
    expect(card?.options).toEqual({ qos: 1 });
    expect(JSON.parse(card?.payload ?? '')).toEqual(played.journal.eventsBetween(1, 1)[0]);
    expect(card?.payload).toContain('"uid":"E004015000000010"');
    expect(failures).toEqual([]);
  });

  it('resumes from its cursor after a restart in the middle of the delay: nothing lost, nothing twice', async () => {
    const first = table();
    const before = feed(first);
    first.play(handStart(0));
    await vi.advanceTimersByTimeAsync(DELAY);
    first.play(holeCard(10));
    await vi.advanceTimersByTimeAsync(DELAY / 2);
    before.subscription.unsubscribe();
    first.journal.close();

    await vi.advanceTimersByTimeAsync(DELAY / 4);
    const second = table(first.path);
    const after = feed(second);
    await vi.advanceTimersByTimeAsync(DELAY / 4 - 1);
    expect(after.published).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    second.play(holeCard(20, 3));
    await vi.advanceTimersByTimeAsync(DELAY);
    expect(before.seqs()).toEqual([0]);
    expect(after.seqs()).toEqual([1, 2]);
  });

  it('starts a journal it never read at its end: those events came before it', async () => {
    const played = table();
    played.play(handStart(0));
    played.play(holeCard(10));
    const { seqs } = feed(played);
    played.play(holeCard(20, 3));
    await vi.advanceTimersByTimeAsync(DELAY);
    expect(seqs()).toEqual([2]);
  });

  it('publishes nothing while the broker is away, and resumes from its cursor once it is back', async () => {
    const played = table();
    const { status$, seqs } = feed(played);
    played.play(handStart(0));
    await vi.advanceTimersByTimeAsync(DELAY);
    status$.next({ state: 'offline', reason: 'broker restarting' });
    const cards = Array.from({ length: 250 }, (_, i) => holeCard(i + 1, 2 + (i % 2)));
    for (const { seq } of played.journal.appendBatch(cards)) played.journaled.next(seq);
    await vi.advanceTimersByTimeAsync(2 * DELAY);
    expect(seqs()).toEqual([0]);
    expect(vi.getTimerCount()).toBe(0);
    status$.next({ state: 'connected' });
    await vi.advanceTimersByTimeAsync(0);
    // The backlog in order, batch after batch.
    expect(seqs()).toEqual(Array.from({ length: 251 }, (_, seq) => seq));
  });

  it('moves its cursor on a stop once the broker acknowledges what was in flight', async () => {
    const played = table();
    const stopping = feed(played, { held: true });
    played.play(handStart(0));
    await vi.advanceTimersByTimeAsync(DELAY);
    expect(stopping.seqs()).toEqual([0]);
    stopping.subscription.unsubscribe();
    // The link's close waits for its acknowledgement.
    stopping.acknowledge();
    await vi.advanceTimersByTimeAsync(0);
    const next = feed(played);
    await vi.advanceTimersByTimeAsync(DELAY);
    expect(next.published).toEqual([]);
  });

  it('publishes again, after a crash, an event the broker had but the cursor did not (at least once)', async () => {
    const played = table();
    const crashed = feed(played, { held: true });
    played.play(handStart(0));
    await vi.advanceTimersByTimeAsync(DELAY);
    crashed.subscription.unsubscribe();
    // The acknowledgement never reaches the cursor: croupier is gone.
    const next = feed(played);
    await vi.advanceTimersByTimeAsync(0);
    expect(next.seqs()).toEqual([0]);
    crashed.acknowledge();
  });

  it('sends nothing early when the wall clock is set forward (a Pi finding its time server)', async () => {
    const played = table();
    const { status$, seqs } = feed(played);
    played.play(handStart(0));
    vi.setSystemTime(Date.now() + 3_600_000);
    // A reconnection looks again at once: the event is still not due, whatever the wall clock says.
    status$.next({ state: 'offline', reason: 'network' });
    status$.next({ state: 'connected' });
    await vi.advanceTimersByTimeAsync(DELAY - 1);
    expect(seqs()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(seqs()).toEqual([0]);
  });

  it('says once that a journal cannot be read, and publishes nothing from it', async () => {
    const { seqs } = feed({ path: ':memory:', journaled: new Subject<number>() });
    await vi.advanceTimersByTimeAsync(DELAY);
    expect(seqs()).toEqual([]);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toContain('in memory');
  });
});
