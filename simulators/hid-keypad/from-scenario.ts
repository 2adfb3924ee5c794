import { AMOUNT_ACTS, DEALER_KEYS, type KeypadEntry, type Meaning } from '../../devices/hid-keypad/entry.js';
import type { DomainEvent } from '../../src/domain/events.js';
import { seatOf } from '../../src/domain/zones.js';
import { type Cancel, realScheduler, type Scheduler } from '../rfid-reader/scheduler.js';
import type { SimulatedKeyboard } from './keyboard.js';

/**
 * Drives a simulated keypad from a scenario: each `action` and `dealer` event is keyed in at its `t` with
 * the keys the grammar (devices/hid-keypad/README.md) asks for, so the same file `croupier replay` judges
 * can be played by a dealer's hands.
 */

type DealerKey = keyof typeof DEALER_KEYS;

/**
 * The entry a scenario event is keyed as; a string says why the keypad cannot key it; null for an event
 * that is not the keypad's (cards, chips, hand start…). A call is keyed without its amount: the table
 * counts it as the bet to call.
 */
export function entryOf(event: DomainEvent): KeypadEntry | string | null {
  if (event.type === 'action') {
    const { seat, act, amount } = event;
    return { kind: 'action', seat, act, ...(AMOUNT_ACTS.has(act) && amount !== undefined ? { amount } : {}) };
  }
  if (event.type !== 'dealer') return null;
  const { input, zone, card, by } = event;
  if (input === 'floor-decision') return 'a floor decision is the supervisor’s, not keyed on the keypad';
  // Only that a card is named, never which: this may be a hole card.
  if (card !== undefined) return `${input} names a card, which the keypad cannot key`;
  const key = (Object.keys(DEALER_KEYS) as DealerKey[]).find((name) => {
    const meaning: { input: string; by?: string } = DEALER_KEYS[name];
    return meaning.input === input && (meaning.by === undefined || meaning.by === (by ?? 'dealer'));
  });
  if (key === undefined) return `no dealer key keys ${input}`;
  const { seat: aboutSeat, ...keyed } = DEALER_KEYS[key];
  if (zone === undefined) return { kind: 'dealer', ...keyed };
  const seat = seatOf(zone);
  if (!aboutSeat || seat === null) return `the keypad cannot key ${input} at ${zone}`;
  return { kind: 'dealer', ...keyed, seat };
}

/** The keys that key `entry` with the key map `keys`; throws naming a meaning no key has. */
export function keysOf(entry: KeypadEntry, keys: Readonly<Record<string, Meaning>>): string[] {
  const keyFor = (meaning: Meaning): string => {
    const found = Object.keys(keys).find((name) => keys[name] === meaning);
    if (found === undefined) throw new Error(`the key map has no key for ${meaning}`);
    return found;
  };
  const number = (n: number | undefined): string[] =>
    [...(n === undefined ? '' : String(n))].map((digit) => keyFor(`digit:${digit}` as Meaning));
  if (entry.kind === 'action') {
    const amount = AMOUNT_ACTS.has(entry.act) ? [...number(entry.amount), keyFor('enter')] : [];
    return [...number(entry.seat), keyFor(entry.act), ...amount];
  }
  const key = entry.by === 'player' ? 'exposed-by-player' : entry.input;
  return [...number(entry.seat), keyFor(key)];
}

export interface Keystrokes {
  t: number;
  seq: number;
  keys: string[];
}

/** The keys each keypad event of a scenario is keyed with, in file order, and the events that cannot be. */
export function keystrokesOf(
  events: readonly DomainEvent[],
  keys: Readonly<Record<string, Meaning>>,
): { strokes: Keystrokes[]; skipped: { seq: number; reason: string }[] } {
  const strokes: Keystrokes[] = [];
  const skipped: { seq: number; reason: string }[] = [];
  for (const event of events) {
    const entry = entryOf(event);
    if (typeof entry === 'string') skipped.push({ seq: event.seq, reason: entry });
    else if (entry) strokes.push({ t: event.t, seq: event.seq, keys: keysOf(entry, keys) });
  }
  return { strokes, skipped };
}

export interface KeypadPlayback {
  /** Resolves once the last entry is keyed. */
  done: Promise<void>;
  /** Keys nothing more; `done` then never resolves. */
  stop(): void;
  /** The scenario's keypad events the keypad cannot key, and why. */
  skipped: { seq: number; reason: string }[];
}

export interface KeypadPlayOptions {
  keys: Readonly<Record<string, Meaning>>;
  scheduler?: Scheduler;
  /** Scenario milliseconds per real millisecond (default 1). */
  speed?: number;
}

/**
 * Keys each entry on `keypad` at its `t` after the call (divided by `speed`), all its keys at once, in
 * file order: an event earlier than the one before it comes right after it.
 */
export function playKeypadScenario(
  keypad: Pick<SimulatedKeyboard, 'press'>,
  events: readonly DomainEvent[],
  options: KeypadPlayOptions,
): KeypadPlayback {
  const { strokes, skipped } = keystrokesOf(events, options.keys);
  const scheduler = options.scheduler ?? realScheduler;
  const speed = options.speed ?? 1;
  if (!(speed > 0)) throw new RangeError(`speed ${speed} is not positive`);
  let cancels: Cancel[] = [];
  const done = new Promise<void>((resolve) => {
    let at = 0;
    cancels = strokes.map((stroke, i) => {
      at = Math.max(at, stroke.t / speed);
      return scheduler.after(at, () => {
        keypad.press(...stroke.keys);
        if (i === strokes.length - 1) resolve();
      });
    });
    if (strokes.length === 0) resolve();
  });
  return {
    done,
    skipped,
    stop: () => {
      for (const cancel of cancels) cancel();
    },
  };
}
