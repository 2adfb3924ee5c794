import { asyncScheduler, map, merge, type Observable, type SchedulerLike } from 'rxjs';
import { sessionEvents } from '../device-session.js';
import type { DeviceHealth } from '../device-status.js';
import { BadgeTyping } from './badge.js';
import { BootKeyboard, type KeyPress, keyName, type Leds, ledReport } from './boot-keyboard.js';
import { KeyEntry, type KeypadEntry } from './entry.js';
import type { HidKeypadConfig } from './manifest.js';

export type KeypadStatus = Exclude<DeviceHealth, 'fault'>;

/** What was refused: a report that is no boot keyboard report, a key not in the key map, an entry, a badge read. */
export type Refused = 'report' | 'key' | 'entry' | 'badge';

/** What the keypad driver reports; `t` is host time (the scheduler's clock, ms) at the key that made it. */
export type KeypadEvent =
  /** An entry the dealer completed (keypad mode). */
  | { kind: 'entry'; entry: KeypadEntry; t: number }
  /**
   * A badge read (badge mode), for the supervisor checks. The UID is a credential: it is never logged at
   * info level, never journaled, never made a domain event.
   */
  | { kind: 'badge'; uid: string; t: number }
  /** The device's status changed (or its detail did). */
  | { kind: 'status'; status: KeypadStatus; detail: string; t: number }
  | { kind: 'rejected'; what: Refused; reason: string; t: number };

export type KeypadLinkState = { up: true; where: string } | { up: false; reason: string };

/** What the driver needs from a transport. Its events complete once both `reports` and `state` have. */
export interface KeypadLink {
  /** Input reports, one per call. */
  reports: Observable<Uint8Array>;
  /** Up when the device opens (or reopens), and where; down at once when it is unplugged, and why. */
  state: Observable<KeypadLinkState>;
  /** Sends an output report; called only while the link is up. */
  write(report: Uint8Array): void;
}

export interface KeypadCounters {
  reports: number;
  presses: number;
  /** Entries and badges completed. */
  accepted: number;
  refused: Record<Refused, number>;
}

export interface HidKeypad {
  /** Shared: every subscriber sees the same device; subscribing opens it, the last unsubscribe closes it. */
  events: Observable<KeypadEvent>;
  /** Counters of the current subscription, undefined before the first. */
  counters(): KeypadCounters | undefined;
  /** Sets the LEDs, now if the device is up and again whenever it comes back. */
  setLeds(leds: Leds): void;
}

/** NumLock lit: the keypad is in croupier's hands. */
const ONLINE_LEDS: Leds = { numLock: true };

/**
 * The keypad driver: input reports in, the dealer's entries (or badge reads) and the device's status out.
 * It knows the key grammar's syntax, nothing of the hand: the table judges the entries.
 */
export function hidKeypad(
  link: KeypadLink,
  config: HidKeypadConfig,
  scheduler: SchedulerLike = asyncScheduler,
): HidKeypad {
  let leds = ONLINE_LEDS;
  const { events, session } = sessionEvents(
    (emit: (event: KeypadEvent) => void) => {
      const current = new KeypadSession(config, scheduler, link, emit);
      current.setLeds(leds);
      return current;
    },
    (current) =>
      merge(
        link.state.pipe(
          map((state) => () => (state.up ? current.linkUp(state.where) : current.linkDown(state.reason))),
        ),
        link.reports.pipe(map((report) => () => current.receive(report))),
      ),
  );
  return {
    events,
    counters: () => session()?.counters,
    setLeds(next) {
      leds = next;
      session()?.setLeds(next);
    },
  };
}

type Interpret = (press: KeyPress, t: number) => KeypadEvent[];

class KeypadSession {
  /** Nothing to release: the session holds no timer (an entry's timeout is judged at the next key). */
  close(): void {}

  readonly counters: KeypadCounters = {
    reports: 0,
    presses: 0,
    accepted: 0,
    refused: { report: 0, key: 0, entry: 0, badge: 0 },
  };
  readonly #config: HidKeypadConfig;
  readonly #scheduler: SchedulerLike;
  readonly #link: KeypadLink;
  readonly #emit: (event: KeypadEvent) => void;
  readonly #keyboard: BootKeyboard;
  readonly #interpret: Interpret;
  #leds: Leds = ONLINE_LEDS;
  #up = false;
  #published: string | undefined;

  constructor(
    config: HidKeypadConfig,
    scheduler: SchedulerLike,
    link: KeypadLink,
    emit: (event: KeypadEvent) => void,
  ) {
    this.#config = config;
    this.#scheduler = scheduler;
    this.#link = link;
    this.#emit = emit;
    this.#keyboard = new BootKeyboard(config.reportId);
    this.#interpret = config.mode === 'badge' ? badgeMode(config.badgeGapMs) : keypadMode(config);
  }

  setLeds(leds: Leds): void {
    this.#leds = leds;
    if (this.#up) this.#link.write(ledReport(leds, this.#config.reportId));
  }

  linkUp(where: string): void {
    this.#up = true;
    this.setLeds(this.#leds);
    this.#publish('online', `${this.#config.mode} on ${where}`);
  }

  linkDown(reason: string): void {
    this.#up = false;
    this.#keyboard.release();
    this.#publish('offline', `link down: ${reason}`);
  }

  receive(report: Uint8Array): void {
    this.counters.reports++;
    const t = this.#scheduler.now();
    const decoded = this.#keyboard.decode(report);
    if (!decoded.ok) return this.#report({ kind: 'rejected', what: 'report', reason: decoded.reason, t });
    for (const press of decoded.pressed) {
      this.counters.presses++;
      for (const event of this.#interpret(press, t)) this.#report(event);
    }
  }

  #report(event: KeypadEvent): void {
    if (event.kind === 'rejected') this.counters.refused[event.what]++;
    else this.counters.accepted++;
    this.#emit(event);
  }

  #publish(status: KeypadStatus, detail: string): void {
    const key = `${status}: ${detail}`;
    if (key === this.#published) return;
    this.#published = key;
    this.#emit({ kind: 'status', status, detail, t: this.#scheduler.now() });
  }
}

function keypadMode(config: Extract<HidKeypadConfig, { mode: 'keypad' }>): Interpret {
  const entry = new KeyEntry(config.entryTimeoutMs);
  return (press, t) => {
    const meaning = press.key === null ? undefined : config.keys[press.key];
    if (meaning === undefined) {
      return [{ kind: 'rejected', what: 'key', reason: `${keyName(press)} is not in the key map`, t }];
    }
    return entry
      .press(meaning, t)
      .map((outcome) =>
        'entry' in outcome
          ? { kind: 'entry', entry: outcome.entry, t }
          : { kind: 'rejected', what: 'entry', reason: outcome.rejected, t },
      );
  };
}

function badgeMode(gapMs: number): Interpret {
  const typing = new BadgeTyping(gapMs);
  return (press, t) =>
    typing
      .press(press, t)
      .map((outcome) =>
        'uid' in outcome
          ? { kind: 'badge', uid: outcome.uid, t }
          : { kind: 'rejected', what: 'badge', reason: outcome.rejected, t },
      );
}
