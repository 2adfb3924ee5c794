import type { Rake } from '../domain/award-split.js';
import type { Betting } from '../domain/betting.js';
import type { CardRef } from '../domain/cards.js';
import type { CardSeen } from '../domain/events.js';
import type { SeatStatus } from '../domain/seats.js';
import type { ChipZone, Zone } from '../domain/zones.js';
import type { ProfileId } from '../rules/index.js';
import type { IncidentReport, Step, StepCheck, Street, TableOutput } from '../rules/types.js';

/** What a card is for the hand, which may differ from where it physically lies (a ruling reassigns it). */
export type CardRole = 'hole' | 'board' | 'burn' | 'muck' | 'dead' | 'stub' | 'stray';

export interface CardInHand {
  ref: CardRef;
  /** Where the antennas last saw it. */
  zone: Zone;
  role: CardRole;
  /** Seat holding it, for hole cards. */
  seat: number | null;
  /** 1-based position in the hole-card deal, when it was dealt in it. */
  position: number | null;
  /** Sequence number of its last arrival in a zone. */
  seq: number;
  /** Where a procedure sends it next: its arrival there is expected, not an incident. */
  expected: Zone | null;
  /** An incident named it to the table (exposed, flashed, boxed): its face is public from then on. */
  faceUp?: true;
}

/**
 * Where the hand stands, as the table machine's chart says (machine.ts): no hand yet (`idle`), hole
 * cards being pitched, a betting round, the showdown, `ended` (won, shown down or ended by the dealer),
 * `void` (misdeal or hand void: redeal) or `floor` (CALL_FLOOR: the floor decides, the machine watches).
 */
export type Phase = 'idle' | 'dealing' | 'betting' | 'showdown' | 'ended' | 'void' | 'floor';

/**
 * How the board is being dealt, as the chart's board region says: as the deal goes (`as-dealt`), a
 * street under a premature ruling until the next action (`premature`, its cards in `Hand.premature`), a
 * scramble under the floor's eye until the next action (`scramble`: board and burn arrivals are not
 * judged), or the second burn turned into the flop (`burn-on-flop`: a flop card past the third, before
 * the flop is bet, is the turn's burn).
 */
export type BoardMode = 'as-dealt' | 'premature' | 'scramble' | 'burn-on-flop';

/**
 * What one event did to the hand's lifecycle, as the poker judged it: the chart takes each in turn
 * and moves where its states say (a verdict a state has no transition for changes nothing there).
 */
export type Verdict =
  | { type: 'HAND_STARTED' }
  | { type: 'DEAL_ENDED' }
  /** The river is out and its betting round closed (or no one can bet): cards are shown down. */
  | { type: 'RIVER_CLOSED' }
  /** Every player but one folded. */
  | { type: 'HAND_WON' }
  /** The dealer ended the hand. */
  | { type: 'HAND_ENDED' }
  /** A MISDEAL or HAND_VOID ruling, or the floor's decision to void the hand. */
  | { type: 'HAND_VOIDED' }
  /** A CALL_FLOOR ruling or the dealer's call: the floor decides, the machine watches. */
  | { type: 'FLOOR_CALLED' }
  /** The floor lets the hand go on from where it stood. */
  | { type: 'FLOOR_OVERRULED' }
  /** The first incident of an empty list opened, or the last one closed. */
  | { type: 'PROCEDURE_OPENED' }
  | { type: 'PROCEDURE_CLOSED' }
  /** A premature street ruled (PREMATURE_RESHUFFLE_*, TURN_SET_ASIDE, BURN_AND_REPLACE). */
  | { type: 'PREMATURE_RULED' }
  /** FLOP_SCRAMBLE ruled. */
  | { type: 'SCRAMBLE_RULED' }
  /** FLOP_SECOND_BURN_TO_FLOP ruled. */
  | { type: 'BURN_ON_FLOP_RULED' }
  /** The premature street or the scramble is over: a player acted (or the skipped player's hand was killed). */
  | { type: 'BOARD_SETTLED' }
  /** The flop's card past the third went to the burn as the turn's. */
  | { type: 'BURN_ON_FLOP_SETTLED' };

export interface Hand {
  no: number;
  button: number;
  players: number[];
  sb: number | null;
  bb: number;
  /** The small blind's seat, a player's or not: where the dead button goes next (seats.ts `Positions`). */
  sbSeat: number;
  blinds: [number, number];
  ante: number;
  deck: string | null;
  dealOrder: number[];
  cards: Record<string, CardInHand>;
  /** Live hole cards per seat, in arrival order. */
  holes: Record<number, string[]>;
  /** Deal positions each seat has consumed (a dead exposed card keeps its position). */
  received: Record<number, number>;
  dealEnded: boolean;
  /**
   * A fold before the deal was seen to end: the deal ended there, unless a hole card to a seat still
   * short shows the dealer going on with it (a player folding out of turn during the deal).
   */
  foldInDeal: { seq: number; t: number } | null;
  /** The deal ended while a card reader was down: the card count waits for it to be back. */
  countDeferred: boolean;
  /** A card reader was down during this hand: read order no longer tells the deal order. */
  readerGap: boolean;
  /** Seats owed one more hole card by a ruling (replacement of an exposed card, the button's top card). */
  owed: number[];
  dealerExposed: number;
  boxedInDeal: number;
  boxedAfterDeal: number;
  board: string[];
  burns: string[];
  /** Burn cards that must be out before the first card of the flop, turn and river. */
  burnsBefore: [number, number, number];
  /**
   * The street of the last premature ruling, read while the board is `premature`: cards taken back
   * (further cards of it go back to the stub too), or seen cards burned (another card turned is judged
   * anew); null once a player acted.
   */
  premature: { street: Street; cards: string[]; takenBack: boolean; extraBurns: number } | null;
  betting: Betting;
  /** Last amount the pot sensor reported. */
  pot: number;
  /** The round before the current street opened, given back if the street's card is taken off. */
  previousRound: Betting | null;
  /**
   * REDEAL_BOARD was ruled this hand: further wrong-deck board cards belong to the same correction. A
   * fact of the hand, not a way of dealing: the board's modes come and go around it.
   */
  boardRedealt: boolean;
  /** A betting action happened while a card of the other deck was in play. */
  actedWithOtherDeck: boolean;
  allInPrompted: boolean;
  /**
   * The flop's first card came with no burn read while a card reader was down: its burn is judged once
   * the readers are back (the incident at `at`, naming `named`; `actions` made before it).
   */
  flopBurnDue?: { at: number; named: CardRef[]; identifiable: boolean; actions: number } | null;
  /** The betting rounds closed before the current one, preflop first (absent: none yet). */
  rounds?: Betting[];
  /** The showdown as croupier reads it (showdown.ts); absent until the hand's betting gives it something. */
  showdown?: Showdown;
}

/** What the showdown knows (RULINGS.md "Pots and showdown"): tabled hands, pots settled, prompts given. */
export interface Showdown {
  /** Seats that tabled their hand (`dealer: shown`): the hole cards then, and the input's seq. */
  tabled: Record<number, { uids: string[]; at: number }>;
  /** Pots settled, by number: their winners. */
  awarded: Record<number, number[]>;
  /** The prompts given this hand, each once (BUILD_SIDE_POTS once per street, as `BUILD_SIDE_POTS:flop`). */
  prompted: string[];
  /** The river's round closed (or nobody could bet): the event that showed it down; null before. */
  downAt: number | null;
  /** The last action the betting took: with the river card, when the hand was shown down. */
  lastActionAt: number | null;
  /** Every pot was pushed (`dealer: pushed`, the pot sensor at 0 after the last award). */
  pushed: boolean;
  /** WINNING_HAND_MUCKED was raised: once per hand. */
  winnerMucked: boolean;
}

export interface OpenIncident {
  report: IncidentReport;
  /** Index of the step the dealer is on. */
  step: number;
  /** What the sensors have shown done since the incident (its steps with these checks tick themselves). */
  seen: StepCheck[];
  /** The hand's cards lifted off their antenna or mucked since the incident: collecting them shows here. */
  away: string[];
}

export interface DeckRecord {
  /** Number of the last hand dealt with this deck. */
  lastHand: number;
  /** The shuffler has counted it since that hand. */
  returned: boolean;
  /** Fingerprint of the last deck fault raised, so periodic reports do not raise it again. */
  fault: string | null;
}

/** A seat as the dealer marked it (`seat` events): who is seated, which `next-hand` deals in. */
export interface Seated {
  status: SeatStatus;
  name?: string;
}

/** A blind level of the schedule, timed from the first hand. */
export interface Level {
  blinds: [number, number];
  ante: number;
  minutes: number;
}

export interface TableContext {
  seats: number;
  orderWindowMs: number;
  /** Reads no other read of their cycle can change are judged at their own read. */
  factsAtRead: boolean;
  /** The rulebook's id: the profile itself (data with functions) is taken from the registry. */
  profile: ProfileId;
  /** Set by the chart's states only (machine.ts), for the poker to read where the hand stood. */
  phase: Phase;
  /** How the board is being dealt, as the chart set it. */
  board: BoardMode;
  /** The blinds and ante when no schedule is set. */
  blinds: [number, number];
  /** The smallest chip in play; a cash game's rake (null: none). */
  chipUnit: number;
  rake: Rake | null;
  ante: number;
  levels: Level[];
  /** The level the tournament clock set last (`level` command): it holds over the schedule. */
  clockLevel: Pick<Level, 'blinds' | 'ante'> | null;
  /** The table's decks, in the rotation `next-hand` deals them. */
  deckIds: string[];
  seating: Record<number, Seated>;
  /** `t` of the table's first hand: the level schedule's start. */
  firstHandT: number | null;
  /** `t` of the last event: the time the public view tells the level and the next hand at. */
  clock: number;
  hands: number;
  hand: Hand | null;
  /** Card reads held in the reordering window. */
  window: CardSeen[];
  /** Reads judged within the last window: companions that make a card's place in the order unknown. */
  recent: CardSeen[];
  /** Seat where the button puck was last read. */
  puck: number | null;
  /** Tag UIDs of the previous hand's cards, which may still be swept over the antennas. */
  lastHandCards: string[];
  /** A puck read on a wrong seat before the first card, judged once it stays there. */
  puckSuspect: { seq: number; t: number } | null;
  /** The previous hand's button: a puck still there has not been moved yet. */
  lastButton: number | null;
  puckFlagged: boolean;
  /** Card readers (devices of role `card-reader`) reported offline or faulty, by id. */
  readersDown: string[];
  decks: Record<string, DeckRecord>;
  /** The chip sensors' last reading of each zone: bets returned show as every bet and the pot at zero. */
  chips: Partial<Record<ChipZone, number>>;
  open: OpenIncident[];
  /** Outputs of the last event, for the machine to emit. */
  outputs: TableOutput[];
  /** What the last event did to the hand's lifecycle, for the chart to follow. */
  verdicts: Verdict[];
}

export type { Step };
