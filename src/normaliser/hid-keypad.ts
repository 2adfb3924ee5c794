import { mergeMap, type OperatorFunction } from 'rxjs';
import type { KeypadEvent } from '../../devices/hid-keypad/driver.js';
import type { KeypadEntry } from '../../devices/hid-keypad/entry.js';
import type { DealerInput, DeviceStatus, PlayerAction, Unsequenced } from '../domain/events.js';
import { seatZone } from '../domain/zones.js';
import { deviceStatus } from './device-status.js';

export type HidKeypadDomainEvent = Unsequenced<PlayerAction | DealerInput | DeviceStatus>;

/** The domain event an entry keys, stamped `t`. */
export function entryEvent(entry: KeypadEntry, t: number): Unsequenced<PlayerAction | DealerInput> {
  if (entry.kind === 'action') {
    const { seat, act, amount } = entry;
    return { type: 'action', t, seat, act, ...(amount === undefined ? {} : { amount }) };
  }
  const { input, seat, by } = entry;
  return {
    type: 'dealer',
    t,
    input,
    ...(seat === undefined ? {} : { zone: seatZone(seat) }),
    ...(by === undefined ? {} : { by }),
  };
}

/** The domain events one driver event stands for; `deviceId` is the keypad's id from the config. */
export function toDomain(event: KeypadEvent, deviceId: string): HidKeypadDomainEvent[] {
  switch (event.kind) {
    case 'entry':
      return [entryEvent(event.entry, event.t)];
    case 'status':
      return [deviceStatus(event, deviceId, 'keypad')];
    case 'badge':
      // A credential for the supervisor checks, which read the driver's events: never journaled.
      return [];
    case 'rejected':
      // For logs and metrics, not a fact about the table.
      return [];
  }
}

/** `toDomain` over a driver's event stream. */
export function hidKeypadToDomain(deviceId: string): OperatorFunction<KeypadEvent, HidKeypadDomainEvent> {
  return mergeMap((event) => toDomain(event, deviceId));
}
