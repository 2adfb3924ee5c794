import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import {
  type Observable,
  type ObservedValueOf,
  config as rxjsConfig,
  type SchedulerLike,
  Subject,
  VirtualTimeScheduler,
} from 'rxjs';
import type { ByteLink } from '../devices/device-session.js';
import type { LinkState } from '../devices/device-status.js';
import { mulberry32 } from '../simulators/random.js';
import type { Rand } from './mutate.js';

/** What the parser made of one input. */
export type Verdict = 'accepted' | 'refused';

/**
 * A property of the parser an input broke: a refusal with no reason, a valid item lost beside garbage,
 * memory held past its bound. Not a crash (the parser answered), but as much a bug.
 */
export class Violation extends Error {
  override name = 'Violation';
}

export function holds(condition: boolean, property: string): asserts condition {
  if (!condition) throw new Violation(property);
}

/** A refusal's reason: names what is wrong, in a line a log can take. */
export function clearReason(reason: unknown, what: string): void {
  holds(typeof reason === 'string' && reason.trim().length > 0, `${what}: a refusal without a reason`);
  holds(reason.length <= MAX_REASON, `${what}: a reason of ${reason.length} characters echoes the input`);
  holds(!/\bNaN\b|\[object Object\]/.test(reason), `${what}: an unclear reason: ${reason.slice(0, 200)}`);
}

/** The message of the refusal (an error of class `refusal`) `load` throws, undefined if it loads; rethrows the rest. */
export function refusalOf(
  load: () => unknown,
  refusal: abstract new (...args: never[]) => Error,
): string | undefined {
  try {
    load();
    return undefined;
  } catch (error) {
    if (error instanceof refusal) return error.message;
    throw error;
  }
}

/** A loader's verdict: it loads, or refuses with a clear reason; anything else it throws is a crash. */
export function loaded(
  load: () => unknown,
  refusal: abstract new (...args: never[]) => Error,
  what: string,
): Verdict {
  const message = refusalOf(load, refusal);
  if (message === undefined) return 'accepted';
  clearReason(message, what);
  return 'refused';
}

/** Each refusal among a driver's events names what is wrong. */
export function clearRejections(events: readonly { kind: string }[], what: string): void {
  for (const event of events) {
    if (event.kind === 'rejected') clearReason((event as { reason?: unknown }).reason, what);
  }
}

/** A driver fed nothing intact answers with its counted rejections, one event each, and nothing else. */
export function onlyCountedRejections(events: readonly { kind: string }[], counted: number): void {
  holds(
    events.every((event) => event.kind === 'rejected') && events.length === counted,
    'noise did more than its counted rejections',
  );
}

/** Counts by reason, added up. */
export const total = (counts: Record<string, number>): number =>
  Object.values(counts).reduce((sum, n) => sum + n, 0);

/** Whether the device's last status says it is online. */
export const online = (events: readonly { kind: string; status?: string }[]): boolean =>
  events.filter((event) => event.kind === 'status').at(-1)?.status === 'online';

/** Longer than this, a reason is mostly the hostile input it quotes (inputs quote 20,000 characters). */
export const MAX_REASON = 6000;

/** One parser (or a driver over its parser) fed generated inputs. */
export interface Target<I> {
  name: string;
  /** The parser family it counts for: the run's figures add up per family. */
  family: string;
  /** One input from the seeded generator. */
  generate(rand: Rand): I;
  /**
   * Feeds `input` to the parser and checks its answer: throws a `Violation` for a broken property; any
   * other exception is the parser's crash.
   */
  check(input: I): Verdict | Promise<Verdict>;
  /** The input, short and printable, for the report. */
  show(input: I): string;
}

export interface TargetReport {
  target: string;
  family: string;
  inputs: number;
  accepted: number;
  refused: number;
  crashes: number;
  violations: number;
  /** The longest single input's time (the lesser of two timings), its checks included, and that input. */
  maxMs: number;
  slowest: string;
  /** The first few crashes and violations, with the input that caused each. */
  failures: string[];
  seconds: number;
}

const FAILURES_KEPT = 5;
const SHOWN = 160;

/** Printable and short: control and non-ASCII bytes escaped, long inputs cut with their length. */
export function printable(bytes: Uint8Array | string): string {
  const text = typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('latin1');
  const shown = JSON.stringify(text.slice(0, SHOWN));
  return text.length > SHOWN ? `${shown}… (${text.length} chars)` : shown;
}

/** Runs `inputs` generated inputs through `target`, from `seed`. */
export async function fuzz<I>(target: Target<I>, inputs: number, seed: number): Promise<TargetReport> {
  const rand = mulberry32(seed);
  const report: TargetReport = {
    target: target.name,
    family: target.family,
    inputs: 0,
    accepted: 0,
    refused: 0,
    crashes: 0,
    violations: 0,
    maxMs: 0,
    slowest: '',
    failures: [],
    seconds: 0,
  };
  const started = performance.now();
  for (let i = 0; i < inputs; i++) {
    const input = target.generate(rand);
    const before = performance.now();
    try {
      report[await target.check(input)]++;
    } catch (error) {
      const violation = error instanceof Violation;
      if (violation) report.violations++;
      else report.crashes++;
      if (report.failures.length < FAILURES_KEPT) {
        const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        report.failures.push(`${violation ? 'violation' : 'crash'} ${what}\n    on ${target.show(input)}`);
      }
    }
    let ms = performance.now() - before;
    // A slow input is slow again: timed twice, a pause of the machine (another process, a GC the input did
    // not cause) is not put down to it.
    if (ms > report.maxMs) ms = Math.min(ms, await timed(() => target.check(input)));
    if (ms > report.maxMs) {
      report.maxMs = ms;
      report.slowest = target.show(input);
    }
    report.inputs++;
  }
  report.seconds = (performance.now() - started) / 1000;
  return report;
}

/** How long `run` takes, in ms, whatever it answers. */
async function timed(run: () => unknown): Promise<number> {
  const before = performance.now();
  try {
    await run();
  } catch {
    // Counted the first time.
  }
  return performance.now() - before;
}

/**
 * Runs `feed` with rxjs rethrowing, at the `next()` that caused it, what a driver throws inside a
 * subscriber: by default rxjs reports it later on a timer, where it would bring the process down.
 */
export function rethrowingDriverErrors<T>(feed: () => T): T {
  const previous = rxjsConfig.useDeprecatedSynchronousErrorHandling;
  rxjsConfig.useDeprecatedSynchronousErrorHandling = true;
  try {
    return feed();
  } finally {
    rxjsConfig.useDeprecatedSynchronousErrorHandling = previous;
  }
}

/** A serial device's driver on a link of subjects and a virtual clock: its link up, its events collected. */
export function onByteLink<D extends { events: Observable<unknown> }>(
  open: (link: ByteLink, scheduler: SchedulerLike) => D,
): { driver: D; bytes: Subject<Uint8Array>; events: ObservedValueOf<D['events']>[]; close(): void } {
  const bytes = new Subject<Uint8Array>();
  const state = new Subject<LinkState>();
  const driver = open({ bytes, state, write: () => undefined }, new VirtualTimeScheduler());
  const events: ObservedValueOf<D['events']>[] = [];
  const subscription = driver.events.subscribe((event) => events.push(event as ObservedValueOf<D['events']>));
  state.next({ up: true });
  return { driver, bytes, events, close: () => subscription.unsubscribe() };
}

/** The target's generated inputs as a fast-check arbitrary: fast-check picks the seed, and reports it. */
export function generatedInputs<I>(target: Target<I>): fc.Arbitrary<I> {
  return fc.integer({ min: 0, max: 2 ** 31 - 1 }).map((seed) => target.generate(mulberry32(seed)));
}
