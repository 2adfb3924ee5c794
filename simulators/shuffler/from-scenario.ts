import type { DomainEvent, ShufflerReport } from '../../src/domain/events.js';
import { realScheduler, type Scheduler } from '../rfid-reader/scheduler.js';
import type { ShufflerVerdict, SimulatedShuffler } from './shuffler.js';

/**
 * Drives a simulated shuffler from a scenario: at each `shuffler` event's `t` it says what the event
 * says (state, deck, count, face-up, missing and extra tags), so the file `croupier replay` judges can
 * run a live table. Scenarios state the recognition's verdict, not how the cards got there, so the
 * verdict is presented as given rather than rebuilt from loaded cards and a shuffle.
 */

export interface ShufflerCue {
  t: number;
  seq: number;
  verdict: ShufflerVerdict;
}

/** What the card recognition says in a scenario's `shuffler` event. */
export function verdictOf(event: Omit<ShufflerReport, 'seq'>): ShufflerVerdict {
  const uids = (cards: readonly { uid: string }[]) => cards.map((card) => card.uid);
  return {
    state: event.state,
    deck: event.deck ?? undefined,
    count: event.count,
    faceup: uids(event.faceUp),
    missing: uids(event.missing),
    extra: uids(event.extra),
  };
}

/** The verdicts a scenario's `shuffler` events give, in file order. */
export function cuesOf(events: readonly DomainEvent[]): ShufflerCue[] {
  return events.flatMap((event): ShufflerCue[] =>
    event.type === 'shuffler' ? [{ t: event.t, seq: event.seq, verdict: verdictOf(event) }] : [],
  );
}

export interface ShufflerPlayback {
  /** Resolves once the last verdict is presented. */
  done: Promise<void>;
  /** Cancels the verdicts not presented yet; `done` then never resolves. */
  stop(): void;
}

export interface ShufflerPlayOptions {
  scheduler?: Scheduler;
  /** Scenario milliseconds per real millisecond (default 1). */
  speed?: number;
}

/**
 * Presents each cue on `shuffler` at its `t` after the call (divided by `speed`), in file order: a cue
 * earlier than the one before it comes right after it.
 */
export function playShufflerScenario(
  shuffler: Pick<SimulatedShuffler, 'present'>,
  events: readonly DomainEvent[],
  options: ShufflerPlayOptions = {},
): ShufflerPlayback {
  const scheduler = options.scheduler ?? realScheduler;
  const speed = options.speed ?? 1;
  if (!(speed > 0)) throw new RangeError(`speed ${speed} is not positive`);
  const cues = cuesOf(events);
  let due = 0;
  let resolve: () => void = () => undefined;
  const done = new Promise<void>((settle) => {
    resolve = settle;
  });
  if (cues.length === 0) resolve();
  const cancels = cues.map((cue, index) => {
    due = Math.max(due, cue.t / speed);
    return scheduler.after(due, () => {
      shuffler.present(cue.verdict);
      if (index === cues.length - 1) resolve();
    });
  });
  return {
    done,
    stop: () => {
      for (const cancel of cancels) cancel();
    },
  };
}
