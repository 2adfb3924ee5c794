import { mergeMap, type OperatorFunction } from 'rxjs';
import type { RfidEvent } from '../../devices/rfid-reader/driver.js';
import type { DeckRegistry } from '../domain/deck-registry.js';
import type {
  ButtonSeen,
  CardGone,
  CardSeen,
  DeviceStatus,
  RoundEnd,
  Unsequenced,
} from '../domain/events.js';
import { seatOf } from '../domain/zones.js';
import { deviceStatus } from './device-status.js';
import { identify } from './identify.js';

/** The domain events a reader's driver events stand for, before the journal numbers them. */
export type RfidDomainEvent = Unsequenced<CardSeen | CardGone | ButtonSeen | DeviceStatus> | RoundEnd;

/**
 * The domain events one driver event stands for. `deviceId` is the reader's id from the config; its
 * status is a `card-reader`'s, whatever the id.
 */
export function toDomain(event: RfidEvent, deviceId: string, registry: DeckRegistry): RfidDomainEvent[] {
  switch (event.kind) {
    case 'tag.seen': {
      const round = event.round === undefined ? undefined : { reader: deviceId, n: event.round };
      return [{ type: 'card.seen', t: event.t, ...identify(registry, event), ...(round && { round }) }];
    }
    case 'round.end':
      return [{ type: 'round.end', t: event.t, round: { reader: deviceId, n: event.round } }];
    case 'tag.gone':
      return [{ type: 'card.gone', t: event.t, ...identify(registry, event) }];
    case 'puck.seen': {
      // The button sits at a seat; a puck on the board or the muck antenna says nothing about it.
      const seat = seatOf(event.zone);
      return seat === null ? [] : [{ type: 'button', t: event.t, seat }];
    }
    case 'status':
      return [deviceStatus(event, deviceId, 'card-reader')];
    case 'rejected':
      // For logs and metrics, not a fact about the table.
      return [];
  }
}

/** `toDomain` over a driver's event stream. */
export function rfidToDomain(
  deviceId: string,
  registry: DeckRegistry,
): OperatorFunction<RfidEvent, RfidDomainEvent> {
  return mergeMap((event) => toDomain(event, deviceId, registry));
}
