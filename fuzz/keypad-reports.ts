import { isDeepStrictEqual } from 'node:util';
import { Subject, VirtualTimeScheduler } from 'rxjs';
import { bootReport, KEY_NAMES, usageOf } from '../devices/hid-keypad/boot-keyboard.js';
import { hidKeypad, type KeypadEvent, type KeypadLinkState } from '../devices/hid-keypad/driver.js';
import { parseHidKeypadConfig } from '../devices/hid-keypad/manifest.js';
import { MAX_SEATS } from '../src/domain/seats.js';
import { clearRejections, holds, rethrowingDriverErrors, type Target } from './harness.js';
import { between, pick, type Rand, randomBytes } from './mutate.js';

/**
 * The keypad driver (devices/hid-keypad/): boot keyboard reports in, the dealer's key grammar or a badge
 * read out. Inputs are runs of reports: keys of the map and keys outside it, rollover (phantom) reports,
 * wrong lengths and report ids, keys held across reports, digits past any seat or amount. After them,
 * every key released and a clean entry (keypad: Escape, 3, fold; badge: Enter, a UID, Enter), which
 * must come out whole.
 */

const USB = { vendorId: '1209', productId: '0001' };
const MODES = {
  keypad: parseHidKeypadConfig({ id: 'keypad-1', usb: USB }),
  badge: parseHidKeypadConfig({ id: 'badge-1', usb: USB, mode: 'badge', reportId: 1 }),
};
type Mode = keyof typeof MODES;

const USAGES = KEY_NAMES.map((name) => usageOf(name) ?? 0);
const usage = (name: string): number => usageOf(name) ?? 0;

function hostileReport(rand: Rand, reportId: number | null): Uint8Array {
  const roll = rand();
  if (roll < 0.1) return randomBytes(rand, between(rand, 0, 12));
  const keys = Array.from({ length: between(rand, 0, 6) }, () =>
    rand() < 0.8 ? pick(rand, USAGES) : between(rand, 0, 255),
  );
  const report = bootReport(keys, rand() < 0.2, roll < 0.15 ? between(rand, 0, 3) : reportId);
  if (roll < 0.2) report[between(rand, 0, report.length - 1)] = between(rand, 0, 255);
  return report;
}

/** Presses and releases each key, one report each. */
function typed(keys: readonly string[], reportId: number | null): Uint8Array[] {
  return keys.flatMap((key) => [bootReport([usage(key)], false, reportId), bootReport([], false, reportId)]);
}

const SENTINEL_BADGE = 'C0DB1234';
const SENTINELS: Record<Mode, { reports: Uint8Array[]; expected: KeypadEvent['kind']; value: unknown }> = {
  keypad: {
    reports: [bootReport([]), ...typed(['Escape', 'Numpad3', 'NumpadDivide'], null)],
    expected: 'entry',
    value: { kind: 'action', seat: 3, act: 'fold' },
  },
  badge: {
    reports: [
      bootReport([], false, 1),
      ...typed(
        [
          'Enter',
          ...[...SENTINEL_BADGE].map((char) => (/\d/.test(char) ? `Digit${char}` : `Key${char}`)),
          'Enter',
        ],
        1,
      ),
    ],
    expected: 'badge',
    value: SENTINEL_BADGE,
  },
};

export interface KeypadInput {
  mode: Mode;
  reports: Uint8Array[];
}

/** An entry the grammar let through is well formed: a seat of the table, an amount in range. */
function wellFormed(event: KeypadEvent): boolean {
  if (event.kind !== 'entry') return true;
  const { entry } = event;
  const seatOk =
    entry.seat === undefined || (Number.isInteger(entry.seat) && entry.seat >= 1 && entry.seat <= MAX_SEATS);
  const amount = entry.kind === 'action' ? entry.amount : undefined;
  return seatOk && (amount === undefined || (Number.isInteger(amount) && amount > 0 && amount < 1e9));
}

interface Session {
  reports: Subject<Uint8Array>;
  events: KeypadEvent[];
}

/**
 * One driver per mode for the whole run: the clean entry that ends each input leaves it as it started
 * (every key released, nothing keyed), so inputs do not depend on each other.
 */
const sessions = new Map<Mode, Session>();

function session(mode: Mode): Session {
  let current = sessions.get(mode);
  if (!current) {
    const reports = new Subject<Uint8Array>();
    const state = new Subject<KeypadLinkState>();
    const keypad = hidKeypad(
      { reports, state, write: () => undefined },
      MODES[mode],
      new VirtualTimeScheduler(),
    );
    const events: KeypadEvent[] = [];
    keypad.events.subscribe((event) => events.push(event));
    state.next({ up: true, where: '/dev/hidraw0' });
    current = { reports, events };
    sessions.set(mode, current);
  }
  current.events.length = 0;
  return current;
}

export const keypadReports: Target<KeypadInput> = {
  name: 'keypad-reports',
  family: 'hid-keypad',
  generate(rand) {
    const mode: Mode = rand() < 0.7 ? 'keypad' : 'badge';
    const reportId = MODES[mode].reportId;
    return {
      mode,
      reports: Array.from({ length: between(rand, 1, 24) }, () => hostileReport(rand, reportId)),
    };
  },
  check({ mode, reports }) {
    const { reports: reportsIn, events } = session(mode);
    try {
      return rethrowingDriverErrors(() => {
        for (const report of reports) reportsIn.next(report);
        const answers = [...events];
        clearRejections(answers, 'keypad');
        for (const event of answers) holds(wellFormed(event), `a malformed entry ${JSON.stringify(event)}`);
        const sentinel = SENTINELS[mode];
        for (const report of sentinel.reports) reportsIn.next(report);
        const last = events
          .slice(answers.length)
          .filter((event) => event.kind === sentinel.expected)
          .at(-1);
        const value = last?.kind === 'entry' ? last.entry : last?.kind === 'badge' ? last.uid : undefined;
        holds(isDeepStrictEqual(value, sentinel.value), 'the clean entry after it was lost');
        return answers.some((event) => event.kind === 'rejected') ? 'refused' : 'accepted';
      });
    } catch (error) {
      // A driver that threw is done for: the next input gets a new one.
      sessions.delete(mode);
      throw error;
    }
  },
  show: ({ mode, reports }) =>
    `${mode}: ${reports.map((report) => Buffer.from(report).toString('hex')).join(' ')}`,
};
