import type { CardRef, Face } from './cards.js';
import type { SeatStatus } from './seats.js';
import type { ChipZone, Zone } from './zones.js';

/**
 * Domain events: the table machine's only input (DESIGN.md "Domain events").
 * `t` is the source time in ms (monotonic), `seq` the journal sequence number.
 */
interface Stamp {
  t: number;
  seq: number;
}

export interface HandStart extends Stamp {
  type: 'hand.start';
  button: number;
  players: number[];
  blinds: [number, number];
  ante?: number;
  deck?: string;
  /** Seat of the small blind; null when a dead-button hand has no small blind. Default from the button. */
  sb?: number | null;
  bb?: number;
  /** Seats all-in from posting their blind or ante: they have no action in this hand. */
  allIn?: number[];
  /** Newcomers who put the big blind's amount in beside the blinds (french-casino). */
  posted?: number[];
}

export interface CardSeen extends Stamp, CardRef {
  type: 'card.seen';
  zone: Zone;
  /** The inventory round the read was made in, from a reader board that reports its rounds. */
  round?: ReaderRound;
}

/** One inventory round of one reader board (PROTOCOL.md ROUND_END), numbered by its driver. */
export interface ReaderRound {
  /** The reader's device id. */
  reader: string;
  n: number;
}

/**
 * A reader board's inventory round ended at `t`: every read it made in that round has been reported.
 * Not a domain event: the table's pipeline turns one that settles a read into a `settle`.
 */
export interface RoundEnd {
  type: 'round.end';
  t: number;
  round: ReaderRound;
}

export interface CardGone extends Stamp, CardRef {
  type: 'card.gone';
  zone: Zone;
}

export const SHUFFLER_STATES = ['idle', 'shuffling', 'ready', 'jam', 'door-open', 'error'] as const;
export type ShufflerState = (typeof SHUFFLER_STATES)[number];

export interface ShufflerReport extends Stamp {
  type: 'shuffler';
  state: ShufflerState;
  deck: string | null;
  count?: number;
  faceUp: CardRef[];
  missing: CardRef[];
  extra: CardRef[];
}

export interface ButtonSeen extends Stamp {
  type: 'button';
  seat: number;
}

export interface ChipsSeen extends Stamp {
  type: 'chips';
  zone: ChipZone;
  amount: number;
}

export const ACTS = ['fold', 'check', 'call', 'bet', 'raise', 'allin'] as const;
export type Act = (typeof ACTS)[number];

export interface PlayerAction extends Stamp {
  type: 'action';
  seat: number;
  act: Act;
  /** The player's total bet in this betting round after the action ("raise to 300"). */
  amount?: number;
}

export const DEALER_INPUTS = [
  'exposed',
  'flashed',
  'boxed',
  'burn-exposed',
  'deal-done',
  'collect',
  'confirm',
  'call-floor',
  'floor-decision',
  'hand-end',
  'next-hand',
  'level',
  // The showdown (RULINGS.md "Pots and showdown"): a seat tabled its hand; every pot was pushed.
  'shown',
  'pushed',
] as const;
export type DealerInputKind = (typeof DEALER_INPUTS)[number];

/** A blind level as the tournament clock's `level` command gives it: `sb/bb` or `sb/bb/ante`. */
export const LEVEL_VALUE = /^(\d{1,9})\/(\d{1,9})(?:\/(\d{1,9}))?$/;

/** The blinds and ante of a `level` value, or null when it is not one. */
export function levelOf(value: string | undefined): { blinds: [number, number]; ante: number } | null {
  const m = LEVEL_VALUE.exec(value ?? '');
  if (!m) return null;
  const [sb, bb, ante] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  return sb <= bb && bb > 0 ? { blinds: [sb, bb], ante } : null;
}

/** What the floor decides after CALL_FLOOR: the hand goes on as it stands, or is a misdeal, or void. */
export const FLOOR_DECISIONS = ['continue', 'misdeal', 'void'] as const;

export interface DealerInput extends Stamp {
  type: 'dealer';
  input: DealerInputKind;
  zone?: Zone;
  /** The card concerned; omitted means the last card that reached `zone`. */
  card?: CardRef;
  by?: 'dealer' | 'player';
  value?: string;
  /** The supervisor who signed a floor-only input (a floor decision, a ruling overruled): kept for the record. */
  supervisor?: string;
}

/**
 * What a device is to the table, whatever its configured id: the normaliser stamps it from the device's
 * kind (an RFID reader board is a `card-reader`), and the table reads it, never the id.
 */
export const DEVICE_ROLES = ['card-reader', 'shuffler', 'keypad', 'chip-sensor'] as const;
export type DeviceRole = (typeof DEVICE_ROLES)[number];

export interface DeviceStatus extends Stamp {
  type: 'device';
  /** The device's configured id. */
  device: string;
  /**
   * Stamped by the normaliser on every status it passes on. Absent only in events written before roles
   * were: journals of earlier versions, and scenario items that name a device only; read those through
   * `roleOrLegacyIdRule`.
   */
  role?: DeviceRole;
  status: 'online' | 'offline' | 'fault';
  detail?: string;
}

/**
 * COMPATIBILITY, for `device` events written without a role (journals of earlier versions, scenario items
 * naming a device only): the table then took a device whose id starts with `rfid` for a card reader and
 * gave no other device a role. The one place that id rule is left; an event with a role is its role.
 */
export function roleOrLegacyIdRule(event: Pick<DeviceStatus, 'device' | 'role'>): DeviceRole | undefined {
  return event.role ?? (event.device.startsWith('rfid') ? 'card-reader' : undefined);
}

/** The dealer marks a seat between hands: who is seated is the table's, who is dealt in the hand's. */
export interface SeatChange extends Stamp {
  type: 'seat';
  seat: number;
  status: SeatStatus;
  /** The player's name; left out, the seat keeps its name; empty, it has none any more. */
  name?: string;
}

/**
 * Not a sensor fact: tells the machine that time `t` has been reached, so reads held in the
 * reordering window can be judged. Sent by the live clock, when a reader's round ends, and at the end
 * of a replayed file.
 */
export interface Settle extends Stamp {
  type: 'settle';
  /** The round that ended at `t`: the reads its board made before it are settled (DESIGN.md "Real time"). */
  round?: ReaderRound;
}

export type DomainEvent =
  | HandStart
  | CardSeen
  | CardGone
  | ShufflerReport
  | ButtonSeen
  | ChipsSeen
  | PlayerAction
  | DealerInput
  | DeviceStatus
  | SeatChange
  | Settle;

export type DomainEventType = DomainEvent['type'];

/** A domain event before the journal gives it its sequence number. */
export type Unsequenced<E> = E extends unknown ? Omit<E, 'seq'> : never;

/**
 * A domain event as a device or the dealer's inputs report it, before it is given its sequence number;
 * or a reader board's round ending, which the table's pipeline turns into a `settle` when it settles a read.
 */
export type SourceEvent = Unsequenced<Exclude<DomainEvent, Settle>> | RoundEnd;

export type { Face };
