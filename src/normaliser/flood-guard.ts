import {
  asyncScheduler,
  Observable,
  type OperatorFunction,
  type SchedulerAction,
  type SchedulerLike,
  Subscription,
} from 'rxjs';
import type { DeviceStatus, SourceEvent, Unsequenced } from '../domain/events.js';

type StatusEvent = Unsequenced<DeviceStatus>;

export interface FloodBudget {
  /** Sustained events per second one device may bring to the table. */
  perSecond: number;
  /** Events it may bring at once above that (a muck swept over the antennas, a deck counted). */
  burst: number;
}

/** Far above what a device of a real table brings (a reader's debounced reads: a few a second). */
export const DEVICE_FLOOD_BUDGET: FloodBudget = { perSecond: 200, burst: 400 };

export interface FloodGuardOptions extends FloodBudget {
  device: string;
  scheduler?: SchedulerLike;
  /** A flood ended: `dropped` events were lost to it. */
  calm?(dropped: number): void;
}

/**
 * One device's share of the table: a token bucket over its domain events. A device far above its budget
 * is broken or a rogue injecting reads, so from the first event over it until it has kept within it for
 * a full burst, everything it brings is dropped and counted and it is reported `fault`: it can neither
 * starve the other devices nor flood the journal, and the hand is judged without it (a reader down).
 * Once calm it is reported as its driver last said it was. The fault carries the role of the device's
 * last status (every driver reports a status before anything else).
 */
export function floodGuard({
  device,
  perSecond,
  burst,
  scheduler = asyncScheduler,
  calm,
}: FloodGuardOptions): OperatorFunction<SourceEvent, SourceEvent> {
  const refillMs = (burst / perSecond) * 1000;
  return (source) =>
    new Observable<SourceEvent>((subscriber) => {
      let tokens = burst;
      let refilledAt = scheduler.now();
      let dropped = 0;
      let status: StatusEvent | undefined;
      const refill = (): void => {
        const now = scheduler.now();
        tokens = Math.min(burst, tokens + ((now - refilledAt) * perSecond) / 1000);
        refilledAt = now;
      };
      // While a flood lasts, it is looked at again each time a full burst could have refilled.
      function lookAgain(this: SchedulerAction<unknown>): void {
        refill();
        if (tokens < burst) return void this.schedule(undefined, refillMs);
        calm?.(dropped);
        dropped = 0;
        subscriber.next({ device, status: 'online', ...status, type: 'device', t: scheduler.now() });
      }
      const subscription = new Subscription();
      subscription.add(
        source.subscribe({
          next(event) {
            if (event.type === 'device') status = event;
            refill();
            const over = tokens < 1;
            tokens = Math.max(0, tokens - 1);
            if (!over && dropped === 0) return subscriber.next(event);
            if (dropped++ > 0) return;
            const detail = `flooding: over ${perSecond} events a second; what it sends is dropped until it calms down`;
            // In the role its driver's last status gave it: a card reader cut off is a card reader down.
            const role = status?.role && { role: status.role };
            subscriber.next({ type: 'device', device, ...role, status: 'fault', detail, t: scheduler.now() });
            subscription.add(scheduler.schedule(lookAgain, refillMs));
          },
          error: (error: unknown) => subscriber.error(error),
          complete: () => subscriber.complete(),
        }),
      );
      return subscription;
    });
}
