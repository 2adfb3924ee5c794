import { mergeMap, type OperatorFunction } from 'rxjs';
import type { DeckRegistry } from '../../src/domain/deck-registry.js';
import type {
  ButtonSeen,
  CardGone,
  CardSeen,
  DeviceStatus,
  RoundEnd,
  Unsequenced,
} from '../../src/domain/events.js';
import { seatOf } from '../../src/domain/zones.js';
import { identify } from '../../src/normaliser/identify.js';
import type { RfidEvent } from './driver.js';

/** A domain event before the journal numbers it. */

export type RfidDomainEvent = Unsequenced<CardSeen | CardGone | ButtonSeen | DeviceStatus> | RoundEnd;

/**
 * The domain events one driver event stands for. `deviceId` is the reader's id from the config: the
 * table machine takes devices whose id starts with `rfid` for card readers.
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
      return [{ type: 'device', t: event.t, device: deviceId, status: event.status, detail: event.detail }];
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
