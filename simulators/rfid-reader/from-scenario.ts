import type { DomainEvent } from '../../src/domain/events.js';
import type { Zone } from '../../src/domain/zones.js';
import type { SimulatedReader } from './reader.js';
import { type Cancel, realScheduler, type Scheduler } from './scheduler.js';

/**
 * Drives a simulated reader from a scenario: each `card.seen` lays the card's tag on its zone's antenna,
 * each `card.gone` lifts it, each `button` moves the puck's tag, at the event's `t`. The reader then
 * reads them as a board would, so the same file that `croupier replay` judges can run a live table.
 */

/** Which antenna serves each zone; a scenario naming a zone missing here is refused. */
export type ZoneAntennas = Readonly<Partial<Record<Zone, number>>>;

export interface ScenarioReaderOptions {
  antennas: ZoneAntennas;
  /** The dealer button puck's tag; without it `button` events are skipped (a table with no puck). */
  buttonUid?: string;
}

export type Placement =
  | { t: number; seq: number; op: 'place'; uid: string; antenna: number }
  | { t: number; seq: number; op: 'remove'; uid: string };

/** The tag moves a scenario's events make, in file order; throws naming the event whose zone has no antenna. */
export function placementsOf(events: readonly DomainEvent[], options: ScenarioReaderOptions): Placement[] {
  const antennaOf = (zone: Zone, seq: number): number => {
    const antenna = options.antennas[zone];
    if (antenna === undefined) throw new Error(`event ${seq}: no antenna serves zone ${zone}`);
    return antenna;
  };
  return events.flatMap((event): Placement[] => {
    const { t, seq } = event;
    switch (event.type) {
      case 'card.seen':
        return [{ t, seq, op: 'place', uid: event.uid, antenna: antennaOf(event.zone, seq) }];
      case 'card.gone':
        return [{ t, seq, op: 'remove', uid: event.uid }];
      case 'button':
        if (options.buttonUid === undefined) return [];
        return [
          { t, seq, op: 'place', uid: options.buttonUid, antenna: antennaOf(`seat:${event.seat}`, seq) },
        ];
      default:
        return [];
    }
  });
}

export interface ScenarioPlayback {
  /** Resolves once the last placement is made. */
  done: Promise<void>;
  /** Stops before the next placement; `done` then never resolves. */
  stop(): void;
}

export interface PlayOptions extends ScenarioReaderOptions {
  scheduler?: Scheduler;
  /** Scenario milliseconds per real millisecond (default 1). */
  speed?: number;
}

/**
 * Makes the placements on `reader`, each at its `t` after the call (divided by `speed`), in file order: an
 * event earlier than the one before it (allowed inside the reordering window) comes right after it.
 */
export function playScenario(
  reader: Pick<SimulatedReader, 'place' | 'remove'>,
  events: readonly DomainEvent[],
  options: PlayOptions,
): ScenarioPlayback {
  const placements = placementsOf(events, options);
  const scheduler = options.scheduler ?? realScheduler;
  const speed = options.speed ?? 1;
  if (!(speed > 0)) throw new RangeError(`speed ${speed} is not positive`);
  const start = scheduler.now();
  let cancel: Cancel = () => undefined;
  const done = new Promise<void>((resolve) => {
    const step = (index: number): void => {
      const placement = placements[index];
      if (!placement) {
        resolve();
        return;
      }
      cancel = scheduler.after(Math.max(0, start + placement.t / speed - scheduler.now()), () => {
        if (placement.op === 'place') reader.place(placement.uid, placement.antenna);
        else reader.remove(placement.uid);
        step(index + 1);
      });
    };
    step(0);
  });
  return { done, stop: () => cancel() };
}
