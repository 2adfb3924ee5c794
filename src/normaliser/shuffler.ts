import { mergeMap, type OperatorFunction } from 'rxjs';
import type { ShufflerEvent } from '../../devices/shuffler/driver.js';
import type { DeckRegistry } from '../domain/deck-registry.js';
import type { DeviceStatus, ShufflerReport, Unsequenced } from '../domain/events.js';
import { deviceStatus } from './device-status.js';

export type ShufflerDomainEvent = Unsequenced<ShufflerReport | DeviceStatus>;

/**
 * The domain events one driver event stands for: a report's tags become the cards the deck registry
 * names (a tag it does not know is a foreign card). The shuffled order has no place in the domain event
 * and is left out; it would tell every hole card of the next hand.
 */
export function toDomain(
  event: ShufflerEvent,
  deviceId: string,
  registry: DeckRegistry,
): ShufflerDomainEvent[] {
  switch (event.kind) {
    case 'report': {
      const cards = (uids: readonly string[]) => uids.map((uid) => registry.lookup(uid));
      const report: Unsequenced<ShufflerReport> = {
        type: 'shuffler',
        t: event.t,
        state: event.state,
        deck: event.deck,
        faceUp: cards(event.faceUp),
        missing: cards(event.missing),
        extra: cards(event.extra),
      };
      if (event.count !== undefined) report.count = event.count;
      return [report];
    }
    case 'status':
      return [deviceStatus(event, deviceId, 'shuffler')];
    case 'rejected':
      // For logs and metrics, not a fact about the table.
      return [];
  }
}

/** `toDomain` over a driver's event stream. */
export function shufflerToDomain(
  deviceId: string,
  registry: DeckRegistry,
): OperatorFunction<ShufflerEvent, ShufflerDomainEvent> {
  return mergeMap((event) => toDomain(event, deviceId, registry));
}
