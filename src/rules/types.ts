import type { ActionRecord } from '../domain/betting.js';
import type { CardRef } from '../domain/cards.js';
import type { HandCategory } from '../domain/hand-rank.js';
import type { ButtonRule } from '../domain/seats.js';

/** The public incident vocabulary (RULINGS.md). */
export const INCIDENTS = [
  'DECK_COUNT',
  'DECK_FACE_UP',
  'DECK_UNKNOWN_CARD',
  'BUTTON_MISPLACED',
  'CARD_TO_WRONG_SEAT',
  'SEAT_SKIPPED',
  'EXTRA_CARD',
  'MISSING_CARD',
  'EXPOSED_CARD',
  'FLASHED_CARD',
  'BOXED_CARD',
  'FOREIGN_CARD',
  'DUPLICATE_CARD',
  'MIXED_DECK',
  'PREMATURE_FLOP',
  'PREMATURE_TURN',
  'PREMATURE_RIVER',
  'FLOP_NO_BURN',
  'FLOP_TWO_BURNS',
  'FLOP_FOUR_CARDS',
  'TURN_NO_BURN',
  'RIVER_NO_BURN',
  'BURN_EXPOSED',
  'CARD_NOT_RETURNED',
  'PROCEDURE_NOT_FOLLOWED',
  'WINNING_HAND_MUCKED',
] as const;
export type IncidentCode = (typeof INCIDENTS)[number];

/** Prompts are not errors: the dealer is told what to do next. */
export const PROMPTS = [
  'ALL_IN_SHOWDOWN',
  'NEXT_HAND',
  'RETURN_UNCALLED',
  'BUILD_SIDE_POTS',
  'SHOW_ORDER',
  'SHOWDOWN_RANKING',
] as const;
export type PromptCode = (typeof PROMPTS)[number];

export const RULINGS = [
  'MISDEAL',
  'HAND_VOID',
  'DECK_REJECTED',
  'MOVE_BUTTON',
  'CARD_LIVE',
  'REPLACE_AT_END',
  'BOXED_SET_ASIDE',
  'CONTINUE',
  'GIVE_TOP_CARD',
  'HAND_DEAD',
  'FIRST_TO_BURN',
  'FLOP_SECOND_BURN_TO_FLOP',
  'FLOP_FOURTH_TO_BURN',
  'FLOP_SCRAMBLE',
  'PREMATURE_RESHUFFLE_NO_BURN',
  'PREMATURE_RESHUFFLE_WITH_BURN',
  'TURN_SET_ASIDE',
  'BURN_AND_REPLACE',
  'SKIPPED_PLAYER_FOLDS',
  'REDEAL_BOARD',
  'SCRAP_CARD',
  'RETRIEVE_WINNING_HAND',
  'CALL_FLOOR',
] as const;
export type RulingCode = (typeof RULINGS)[number];

export type Street = 'flop' | 'turn' | 'river';

/**
 * Substantial action (the profile's `substantialAction` over the hand's actions) had occurred when the
 * incident was raised. Optional where no profile needed it before (RULINGS-tda-2024.md §6): absent is
 * read as false.
 */
interface AfterSubstantialAction {
  afterSubstantialAction?: boolean;
}

/**
 * What the table machine knows about an incident when it asks the profile for a ruling.
 * Every fact a profile's rulebook distinguishes is here; the profile never looks at the table itself.
 * An optional fact is one the machine may not give yet (docs/tda-2024-facts.md): absent reads as false.
 */
export type IncidentFacts =
  | { incident: 'DECK_COUNT' | 'DECK_FACE_UP' | 'DECK_UNKNOWN_CARD' }
  | ({ incident: 'BUTTON_MISPLACED'; headsUp: boolean; deadButton: boolean } & AfterSubstantialAction)
  | ({
      incident: 'CARD_TO_WRONG_SEAT' | 'SEAT_SKIPPED';
      /**
       * The first card of the hole-card deal went to a seat other than the one due it: to a seat that is
       * no player (CARD_TO_WRONG_SEAT), or past the skipped seat, which was due it (SEAT_SKIPPED).
       */
      firstCardToWrongSeat?: boolean;
    } & AfterSubstantialAction)
  | { incident: 'EXTRA_CARD'; afterSubstantialAction: boolean }
  | {
      incident: 'MISSING_CARD';
      atButton: boolean;
      afterSubstantialAction: boolean;
      /**
       * The seat is the button and made an action other than a fold while it held fewer than two hole
       * cards, the action that ended the deal included (heads-up the button acts first preflop).
       */
      buttonActedShort?: boolean;
      /** The seat was served no hole card at all. */
      noCard?: boolean;
    }
  | {
      incident: 'EXPOSED_CARD' | 'FLASHED_CARD';
      by: 'dealer' | 'player';
      /** 1-based position of the card in the hole-card deal; null once the deal is over. */
      dealPosition: number | null;
      toButton: boolean;
      /** Dealer-exposed (or flashed) cards in this deal, this one included. */
      dealerExposedCount: number;
    }
  | { incident: 'BOXED_CARD'; duringDeal: boolean; nth: number; bettingPossible: boolean }
  | ({
      incident: 'FOREIGN_CARD';
      /**
       * The deck registry marks the tag as a card of a registered deck that is no standard card for the
       * game (a joker): `lookup` gives it its deck and no face. An unregistered tag is not.
       */
      nonStandard?: boolean;
      /** Where the card was read: on a seat, the board or the burn spot. */
      zone?: 'seat' | 'board' | 'burn';
    } & AfterSubstantialAction)
  | { incident: 'DUPLICATE_CARD' }
  | {
      incident: 'MIXED_DECK';
      /** Betting actions were taken while cards of both decks were in play. */
      actionsWithBothDecks: boolean;
      /** Every card of the other deck in play is a board or burn card. */
      boardOnly: boolean;
      bettingPossible: boolean;
      /**
       * Its face (rank and suit) is that of another card in play in this hand (a hole, board, burn or
       * dead card) of the hand's deck: the deck is fouled (tda-2024 #35-E).
       */
      duplicatesInPlay?: boolean;
    }
  | {
      incident: 'PREMATURE_FLOP' | 'PREMATURE_TURN' | 'PREMATURE_RIVER';
      burnIdentifiable: boolean;
      /** Seats whose action was pending when the card came. */
      pending: number[];
      /** A player after the pending one in turn had acted (the pending player was skipped). */
      actedAfterPending: boolean;
      /** Premature board cards out for this street. */
      cardsOut: number;
      /**
       * A burn was dealt for this street but cannot be told from the premature cards: no card reached the
       * burn spot for it, and the board holds one card more than the street's premature cards (the burn
       * was laid with them).
       */
      burnAmongPremature?: boolean;
    }
  | {
      incident: 'FLOP_NO_BURN' | 'TURN_NO_BURN' | 'RIVER_NO_BURN';
      identifiable: boolean;
      /**
       * FLOP_NO_BURN: a player action of any kind (a check or a fold counts; not substantial action) was
       * recorded after the first card of this flop reached the board and before the incident was raised.
       */
      actionSinceFirstFlopCard?: boolean;
    }
  | { incident: 'FLOP_TWO_BURNS'; identifiable: boolean }
  | { incident: 'FLOP_FOUR_CARDS'; identifiable: boolean; burnIdentifiable: boolean }
  | { incident: 'BURN_EXPOSED' | 'CARD_NOT_RETURNED' | 'WINNING_HAND_MUCKED' }
  | {
      incident: 'PROCEDURE_NOT_FOLLOWED';
      /** The step whose expectation the sensors contradict, worded by the catalogue (EXPECTED_TEXTS). */
      expected: ExpectedStep;
    };

/** What the machine knows of the betting when it asks the profile whether ALL_IN_SHOWDOWN is due. */
export interface AllInFacts {
  /** Players still in the hand who are all-in (all-in from posting included). */
  allIn: number;
  /** src/domain/betting.ts `bettingPossible`: two players can still bet, or the round is still open. */
  bettingPossible: boolean;
  /**
   * The river's betting round has just closed with two or more players still in the hand (the hand's
   * last betting round; tda-2024 Add. §16 ex. 3). Absent reads as false.
   */
  finalRoundClosed?: boolean;
}

export interface Text {
  fr: string;
  en: string;
}

/** A profile's answer: the ruling and the article it rests on. */
export interface Decision {
  ruling: RulingCode;
  /** Citation, e.g. `main-event-2014 §III.e`, `french-casino "Après l'ouverture du Turn"`, `tda-2007 #27`. */
  rule: string;
  /** The procedure happens under a floor's eye (RULINGS.md). */
  floor: boolean;
  /** Why, when the ruling needs saying (always for CALL_FLOOR). */
  reason?: Text;
}

export type { ActionRecord };

/**
 * The steps whose expectation PROCEDURE_NOT_FOLLOWED names (step codes of the catalogue, which words
 * each in EXPECTED_TEXTS): a dead card kept out of play, the dead card as the flop burn.
 */
export type ExpectedStep = 'SET_APART' | 'BURN_FACE_DOWN';

/** A rule profile: data plus small functions; the table machine never names one. */
export interface RuleProfile {
  id: string;
  title: Text;
  decide(facts: IncidentFacts): Decision;
  /** Whether the voluntary actions so far in this hand (blinds excluded) amount to substantial action. */
  substantialAction(actions: readonly ActionRecord[]): boolean;
  /** Citation for a prompt (e.g. ALL_IN_SHOWDOWN: `main-event-2014 §VI.c`). */
  promptRule(prompt: PromptCode): string;
  /** Citation for an award (RULINGS.md "Pots and showdown": the split and odd chip, side pots first, a pot won unseen). */
  awardRule(award: AwardCase): string;
  /** How the button moves on to the next hand, cited as the rulebook has it (or has nothing). */
  button: { rule: ButtonRule; cite: string; headsUp: string };
  /** A new player dealt in puts the big blind's amount in: the article saying so, or null. */
  newcomerPosts: string | null;
  /**
   * The profile's own steps for a ruling whose procedure its rulebook writes out (tda-2024 #39, RP-5):
   * they replace the shared ones (procedures.ts) under this profile.
   */
  procedures?: Partial<Record<RulingCode, Procedure>>;
  /** Whether the betting calls for ALL_IN_SHOWDOWN; absent: RULINGS.md's trigger (`allInShowdownDue`). */
  allInShowdown?: (facts: AllInFacts) => boolean;
}

/** A ruling's ordered steps, worded for the facts at hand. */
export type Procedure = (facts: IncidentFacts) => Step[];

/** Where a procedure step can be checked by sensors; absent means the dealer confirms it. */
export type StepCheck =
  | 'cards-collected'
  | 'bets-returned'
  | 'button-stays'
  | 'shuffler-verified'
  | 'puck-moved'
  | 'card-to-burn'
  /** Every card served to the incident's seats is in the muck: the hand its ruling kills. */
  | 'hand-to-muck'
  | 'seat-has-two'
  /** Every card the incident names has been lifted off the zone it lay in since the incident. */
  | 'card-lifted';

export interface Step {
  code: string;
  text: Text;
  check?: StepCheck;
}

/** What the machine emits: an incident with its ruling and procedure, or a prompt. */
export interface IncidentReport {
  kind: 'incident';
  /** Sequence number of the event the incident is about. */
  at: number;
  incident: IncidentCode;
  ruling: RulingCode;
  seats: number[];
  cards: CardRef[];
  /**
   * UIDs among `cards` that are face-down hole cards (e.g. a foreign card found on a seat): public
   * outputs (display, MQTT, logs) must mask them. Exposed, flashed and boxed cards are public.
   */
  secret: string[];
  rule: string;
  floor: boolean;
  reason?: Text;
  steps: Step[];
}

export interface PromptReport {
  kind: 'prompt';
  at: number;
  prompt: PromptCode;
  seats: number[];
  rule: string;
  steps: Step[];
  /** NEXT_HAND: the hand started, with the fields of its `hand.start` (`sb` null: no small blind). */
  button?: number;
  sb?: number | null;
  bb?: number;
  players?: number[];
  blinds?: [number, number];
  ante?: number;
  deck?: string;
  /** Newcomers dealt in who put the big blind's amount in beside the blinds. */
  posted?: number[];
  /** RETURN_UNCALLED: the uncalled part (null when an amount it depends on is unknown); `seats` its owner. */
  amount?: number | null;
  /** BUILD_SIDE_POTS: every pot with its amount and eligible seats, main pot first. */
  pots?: PotLine[];
  /** SHOWDOWN_RANKING: the tabled hands best first, tied seats together (`seats` in that order). */
  ranking?: number[][];
  /** SHOWDOWN_RANKING: the tabled hands' category codes. */
  hands?: Record<number, HandCategory>;
}

/** What an award rests on: the main pot's split, a side pot's (awarded first), a pot won with no hand shown. */
export type AwardCase = 'main' | 'side' | 'uncontested';

/** A pot on the table, as BUILD_SIDE_POTS lists it. */
export interface PotLine {
  pot: number;
  amount: number | null;
  eligible: number[];
}

/** A pot settled (RULINGS.md "Pots and showdown", DESIGN.md's `award` line). */
export interface AwardReport {
  kind: 'award';
  /** The event that settled it: the last `shown`, the last seat's first muck read, the fold, the river card. */
  at: number;
  /** 0 for the main pot, then the side pots by level, lowest first. */
  pot: number;
  /** The pot before the rake; null when it depends on an amount never known. */
  amount: number | null;
  eligible: number[];
  winners: number[];
  /** What each winner gets, in whole chipUnits; null when the amount is unknown. */
  shares: Record<number, number> | null;
  /** Category codes of the tabled hands among the eligible seats: never an untabled hand. */
  hands: Record<number, HandCategory>;
  rule: string;
  /** The winners, as every output names its seats. */
  seats: number[];
  /** Nothing more than the push: an award has no procedure (the field every output carries). */
  steps: Step[];
}

export type TableOutput = IncidentReport | PromptReport | AwardReport;
