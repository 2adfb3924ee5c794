import type { DomainEvent } from '../../src/domain/events.js';
import type { ChipZone } from '../../src/domain/zones.js';
import type { ScenarioPlayback } from '../rfid-reader/from-scenario.js';
import { type Cancel, realScheduler, type Scheduler } from '../rfid-reader/scheduler.js';
import type { SimulatedChipSensor } from './sensor.js';

/**
 * Drives a simulated chip sensor from a scenario: each `chips` event lays chips worth its `amount` on its
 * zone at the event's `t`. The sensor then reads them as a load cell would, jitter and all, so the amounts
 * croupier settles on are the scenario's.
 */

export interface ZoneAmount {
  t: number;
  seq: number;
  zone: ChipZone;
  amount: number;
}

/** The zone amounts a scenario's events set, in file order; throws naming the event whose zone is not measured. */
export function zoneAmountsOf(events: readonly DomainEvent[], zones: readonly ChipZone[]): ZoneAmount[] {
  return events.flatMap((event): ZoneAmount[] => {
    if (event.type !== 'chips') return [];
    const { t, seq, zone, amount } = event;
    if (!zones.includes(zone)) throw new Error(`event ${seq}: the chip sensor does not measure zone ${zone}`);
    return [{ t, seq, zone, amount }];
  });
}

export interface PlayChipsOptions {
  scheduler?: Scheduler;
  /** Scenario milliseconds per real millisecond (default 1). */
  speed?: number;
}

/**
 * Sets the amounts on `sensor`, each at its `t` after the call (divided by `speed`), in file order: an event
 * earlier than the one before it (allowed inside the reordering window) comes right after it.
 */
export function playChips(
  sensor: Pick<SimulatedChipSensor, 'set' | 'zones'>,
  events: readonly DomainEvent[],
  { scheduler = realScheduler, speed = 1 }: PlayChipsOptions = {},
): ScenarioPlayback {
  if (!(speed > 0)) throw new RangeError(`speed ${speed} is not positive`);
  const amounts = zoneAmountsOf(events, sensor.zones);
  const cancels: Cancel[] = [];
  const done = new Promise<void>((resolve) => {
    let at = 0;
    for (const { t, zone, amount } of amounts) {
      at = Math.max(at, t / speed);
      cancels.push(scheduler.after(at, () => sensor.set(zone, amount)));
    }
    cancels.push(scheduler.after(at, resolve));
  });
  return { done, stop: () => cancels.forEach((cancel) => void cancel()) };
}
