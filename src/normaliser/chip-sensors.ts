import { mergeMap, type OperatorFunction } from 'rxjs';
import type { ChipSensorEvent } from '../../devices/chip-sensors/driver.js';
import type { ChipSensorsConfig } from '../../devices/chip-sensors/manifest.js';
import type { ChipsSeen, DeviceStatus, PlayerAction, Unsequenced } from '../domain/events.js';
import { deviceStatus } from './device-status.js';

export type ChipSensorDomainEvent = Unsequenced<ChipsSeen | PlayerAction | DeviceStatus>;

type SettledChips = Extract<ChipSensorEvent, { kind: 'chips' }>;

/**
 * The domain events one driver event stands for: a settled amount is a `chips` event; with `inferActions`
 * it may also stand for the bet that `inferredBet` reads from it, put before the chips it explains.
 */
export function toDomain(
  event: ChipSensorEvent,
  config: Pick<ChipSensorsConfig, 'id' | 'inferActions'>,
): ChipSensorDomainEvent[] {
  switch (event.kind) {
    case 'chips': {
      const chips: ChipSensorDomainEvent = {
        type: 'chips',
        t: event.t,
        zone: event.zone,
        amount: event.amount,
      };
      const bet = config.inferActions ? inferredBet(event) : null;
      return bet ? [bet, chips] : [chips];
    }
    case 'status':
      return [deviceStatus(event, config.id, 'chip-sensor')];
    case 'rejected':
      // For logs and metrics, not a fact about the table.
      return [];
  }
}

/**
 * The one action a bet zone's amount says by itself: a zone that was settled empty and settles at X means
 * the seat put X in, i.e. `action { act: 'bet', amount: X }`, X being the seat's total in the round as
 * the domain's `amount` is. The machine tells a call from a raise by comparing that total with the bet
 * to match, so "bet to X" is all the driver needs to say; naming it call or raise would take betting
 * state the driver does not have. Nothing else is inferred:
 * - a zone that grows from a non-empty amount (a call or re-raise over the seat's own bet, or the dealer
 *   making change) — the keypad says which;
 * - the first amount after croupier starts (`previous` null): those chips were laid at an unknown time;
 * - decreases (the dealer collecting bets, an uncalled bet taken back), checks, folds and all-ins.
 * Blinds and antes laid in a bet zone are bets to the sensor: turn `inferActions` on only at tables whose
 * blinds go elsewhere and whose bets are not also keyed (each would count twice).
 */
export function inferredBet(
  change: Pick<SettledChips, 'zone' | 'amount' | 'previous' | 't'>,
): Unsequenced<PlayerAction> | null {
  if (!change.zone.startsWith('bet:') || change.previous !== 0 || change.amount <= 0) return null;
  return {
    type: 'action',
    t: change.t,
    seat: Number(change.zone.slice(4)),
    act: 'bet',
    amount: change.amount,
  };
}

/** `toDomain` over a driver's event stream. */
export function chipSensorsToDomain(
  config: Pick<ChipSensorsConfig, 'id' | 'inferActions'>,
): OperatorFunction<ChipSensorEvent, ChipSensorDomainEvent> {
  return mergeMap((event) => toDomain(event, config));
}
