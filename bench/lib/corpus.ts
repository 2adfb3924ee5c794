import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { parse } from 'yaml';
import type { DomainEvent } from '../../src/domain/events.js';
import { PROFILES } from '../../src/rules/index.js';
import { loadScenario, parseScenarioText } from '../../src/scenario/load.js';
import type { TableConfig } from '../../src/table/reduce.js';
import { PACKAGE_ROOT } from '../../src/version.js';

/**
 * The benchmarks' hands: the scenario corpus (every ruling under every profile, its continuation, clean
 * and noisy hands) played end to end at one ten-seat table under one rulebook, as one long night. Each
 * file keeps its own timing; files follow one another a pause apart, so no read of one joins a
 * reordering window of the next.
 */

/** A scenario document as its file holds it: items with card codes, `t` set on every one. */
export interface ScenarioDocument {
  name: string;
  profile: string;
  table: { seats: number };
  decks: string[];
  events: Record<string, unknown>[];
}

const SEATS = 10;
const PROFILE = 'main-event-2014';
export const BENCH_TABLE_CONFIG: TableConfig = {
  seats: SEATS,
  profile: PROFILES[PROFILE],
  orderWindowMs: 300,
};
const DECKS = ['A', 'B'];
/** Between two files: longer than the reordering window and the reader's presence timeout. */
const PAUSE_MS = 5000;

export interface Corpus {
  /** The scenario items of one pass over the corpus, re-timed from 0. */
  items: Record<string, unknown>[];
  /** `hand.start` items in one pass. */
  hands: number;
  /** Time one pass spans, pause after the last file included. */
  durationMs: number;
}

/** Reads every scenario of the corpus (sorted by path): the test suite's own files. */
export function loadCorpus(root = join(PACKAGE_ROOT, 'test', 'scenarios')): Corpus {
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.yaml'))
    .sort();
  const items: Record<string, unknown>[] = [];
  let offset = 0;
  for (const name of files) {
    const text = readFileSync(join(root, name), 'utf8');
    // The loaded events give each item its time (an item may leave `t` to its place in the file).
    const { events, decks } = parseScenarioText(text, name);
    if (!oneNight(decks, events)) continue;
    const raw = (parse(text, { maxAliasCount: 10_000 }) as { events: Record<string, unknown>[] }).events;
    for (const [i, item] of raw.entries()) items.push({ ...item, t: offset + (events[i] as DomainEvent).t });
    offset += (events.at(-1)?.t ?? 0) + PAUSE_MS;
  }
  return { items, hands: items.filter(isHandStart).length, durationMs: offset };
}

/**
 * Whether a file plays in the night: dealt from its two decks, each hand carrying its own start (a
 * hand `next-hand` starts depends on the seats the files before it marked).
 */
function oneNight(decks: readonly string[], events: readonly DomainEvent[]): boolean {
  return decks.join() === DECKS.join() && !events.some((e) => e.type === 'dealer' && e.input === 'next-hand');
}

function isHandStart(item: Record<string, unknown>): boolean {
  return 'hand.start' in item;
}

/**
 * The corpus played round and round up to the start of hand `hands + 1`, as one scenario document: its
 * first `hands` hands, and whatever precedes the next one's start.
 */
export function corpusDocument(corpus: Corpus, hands: number): ScenarioDocument {
  const events: Record<string, unknown>[] = [];
  let started = 0;
  for (let pass = 0; started <= hands; pass++) {
    for (const item of corpus.items) {
      if (isHandStart(item) && ++started > hands) break;
      events.push({ ...item, t: (item.t as number) + pass * corpus.durationMs });
    }
  }
  const name = `${hands} hands of the scenario corpus`;
  return { name, profile: PROFILE, table: { seats: SEATS }, decks: DECKS, events };
}

/** One pass over the corpus as the table machine's domain events, numbered from 0. */
export function corpusEvents(corpus: Corpus): DomainEvent[] {
  return loadScenario(corpusDocument(corpus, corpus.hands), 'corpus').events;
}

/**
 * `corpusEvents` made in a worker thread: reading the YAML files leaves tens of MB of garbage that a
 * process keeps resident after collecting it, and a benchmark of memory must not count it. The worker's
 * heap goes with the worker.
 */
export async function corpusEventsApart(): Promise<DomainEvent[]> {
  const worker = new Worker(new URL('./corpus-worker.js', import.meta.url));
  const [events] = (await once(worker, 'message')) as [DomainEvent[]];
  await worker.terminate();
  return events;
}

/**
 * `passes` passes over one pass's events, re-timed to follow one another and numbered on, made one at a
 * time (a night of hands need not be held in memory to be played).
 */
export function* replayedPasses(events: readonly DomainEvent[], passes: number): Generator<DomainEvent> {
  const durationMs = (events.at(-1)?.t ?? 0) + PAUSE_MS;
  let seq = 0;
  for (let pass = 0; pass < passes; pass++) {
    for (const event of events) yield { ...event, t: event.t + pass * durationMs, seq: seq++ };
  }
}
