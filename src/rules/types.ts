import type { ActionRecord } from '../domain/betting.js';
import type { CardRef } from '../domain/cards.js';
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
] as const;
export type IncidentCode = (typeof INCIDENTS)[number];

/** Prompts are not errors: the dealer is told what to do next. */
export const PROMPTS = ['ALL_IN_SHOWDOWN', 'NEXT_HAND'] as const;
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
  'CALL_FLOOR',
] as const;
export type RulingCode = (typeof RULINGS)[number];

export type Street = 'flop' | 'turn' | 'river';

/**
 * What the table machine knows about an incident when it asks the profile for a ruling.
 * Every fact a profile's rulebook distinguishes is here; the profile never looks at the table itself.
 */
export type IncidentFacts =
  | { incident: 'DECK_COUNT' | 'DECK_FACE_UP' | 'DECK_UNKNOWN_CARD' }
  | { incident: 'BUTTON_MISPLACED'; headsUp: boolean; deadButton: boolean }
  | { incident: 'CARD_TO_WRONG_SEAT' | 'SEAT_SKIPPED' }
  | { incident: 'EXTRA_CARD'; afterSubstantialAction: boolean }
  | { incident: 'MISSING_CARD'; atButton: boolean; afterSubstantialAction: boolean }
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
  | { incident: 'FOREIGN_CARD' | 'DUPLICATE_CARD' }
  | {
      incident: 'MIXED_DECK';
      /** Betting actions were taken while cards of both decks were in play. */
      actionsWithBothDecks: boolean;
      /** Every card of the other deck in play is a board or burn card. */
      boardOnly: boolean;
      bettingPossible: boolean;
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
    }
  | { incident: 'FLOP_NO_BURN' | 'TURN_NO_BURN' | 'RIVER_NO_BURN'; identifiable: boolean }
  | { incident: 'FLOP_TWO_BURNS'; identifiable: boolean }
  | { incident: 'FLOP_FOUR_CARDS'; identifiable: boolean; burnIdentifiable: boolean }
  | { incident: 'BURN_EXPOSED' | 'CARD_NOT_RETURNED' }
  | {
      incident: 'PROCEDURE_NOT_FOLLOWED';
      /** The step whose expectation the sensors contradict, worded by the catalogue (EXPECTED_TEXTS). */
      expected: ExpectedStep;
    };

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
  /** How the button moves on to the next hand, cited as the rulebook has it (or has nothing). */
  button: { rule: ButtonRule; cite: string; headsUp: string };
  /** A new player dealt in puts the big blind's amount in: the article saying so, or null. */
  newcomerPosts: string | null;
}

/** Where a procedure step can be checked by sensors; absent means the dealer confirms it. */
export type StepCheck =
  | 'cards-collected'
  | 'bets-returned'
  | 'button-stays'
  | 'shuffler-verified'
  | 'puck-moved'
  | 'card-to-burn'
  | 'card-to-muck'
  | 'seat-has-two';

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
}

export type TableOutput = IncidentReport | PromptReport;
