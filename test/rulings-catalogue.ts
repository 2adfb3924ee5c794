import type { FactsOf } from '../src/rules/decisions.js';
import type { ProfileId } from '../src/rules/index.js';
import type { IncidentFacts, RulingCode } from '../src/rules/types.js';

/** One row, or one branch of a row, of RULINGS.md's incident tables, with the ruling each profile gives. */
export interface CatalogueEntry {
  row: string;
  facts: IncidentFacts;
  expected: Readonly<Record<ProfileId, RulingCode>>;
}

/** Columns in RULINGS.md's order: ME, FC, TDA. */
function entry(
  row: string,
  facts: IncidentFacts,
  me: RulingCode,
  fc: RulingCode,
  tda: RulingCode,
): CatalogueEntry {
  return { row, facts, expected: { 'main-event-2014': me, 'french-casino': fc, 'tda-2007': tda } };
}

/** The 5th card of a nine-handed deal, the first the dealer turned. */
const dealerExposed: FactsOf<'EXPOSED_CARD'> = {
  incident: 'EXPOSED_CARD',
  by: 'dealer',
  dealPosition: 5,
  toButton: false,
  dealerExposedCount: 1,
};
const dealerFlashed: FactsOf<'FLASHED_CARD'> = { ...dealerExposed, incident: 'FLASHED_CARD' };

/** Only the last player to act had not acted when one premature card came. */
const lastToActSkipped: FactsOf<'PREMATURE_FLOP'> = {
  incident: 'PREMATURE_FLOP',
  burnIdentifiable: true,
  pending: [7],
  actedAfterPending: false,
  cardsOut: 1,
};
const severalPending = [3, 7];

export const CATALOGUE: readonly CatalogueEntry[] = [
  // Before the first card
  entry('DECK_COUNT', { incident: 'DECK_COUNT' }, 'DECK_REJECTED', 'DECK_REJECTED', 'DECK_REJECTED'),
  entry('DECK_FACE_UP', { incident: 'DECK_FACE_UP' }, 'DECK_REJECTED', 'DECK_REJECTED', 'DECK_REJECTED'),
  entry(
    'DECK_UNKNOWN_CARD',
    { incident: 'DECK_UNKNOWN_CARD' },
    'DECK_REJECTED',
    'DECK_REJECTED',
    'DECK_REJECTED',
  ),
  entry(
    'BUTTON_MISPLACED',
    { incident: 'BUTTON_MISPLACED', headsUp: false, deadButton: false },
    'MOVE_BUTTON',
    'MOVE_BUTTON',
    'MOVE_BUTTON',
  ),
  entry(
    'BUTTON_MISPLACED, dead button',
    { incident: 'BUTTON_MISPLACED', headsUp: false, deadButton: true },
    'MOVE_BUTTON',
    'MOVE_BUTTON',
    'MOVE_BUTTON',
  ),
  entry(
    'BUTTON_MISPLACED, heads-up',
    { incident: 'BUTTON_MISPLACED', headsUp: true, deadButton: false },
    'MOVE_BUTTON',
    'MOVE_BUTTON',
    'MOVE_BUTTON',
  ),

  // During the hole-card deal
  entry('CARD_TO_WRONG_SEAT', { incident: 'CARD_TO_WRONG_SEAT' }, 'MISDEAL', 'CALL_FLOOR', 'CALL_FLOOR'),
  entry('SEAT_SKIPPED', { incident: 'SEAT_SKIPPED' }, 'MISDEAL', 'MISDEAL', 'CALL_FLOOR'),
  entry(
    'EXTRA_CARD',
    { incident: 'EXTRA_CARD', afterSubstantialAction: false },
    'MISDEAL',
    'MISDEAL',
    'CALL_FLOOR',
  ),
  entry(
    'EXTRA_CARD after substantial action',
    { incident: 'EXTRA_CARD', afterSubstantialAction: true },
    'CALL_FLOOR',
    'HAND_DEAD',
    'CALL_FLOOR',
  ),
  entry(
    'MISSING_CARD, button',
    { incident: 'MISSING_CARD', atButton: true, afterSubstantialAction: false },
    'MISDEAL',
    'GIVE_TOP_CARD',
    'CALL_FLOOR',
  ),
  entry(
    'MISSING_CARD, button, after substantial action',
    { incident: 'MISSING_CARD', atButton: true, afterSubstantialAction: true },
    'CALL_FLOOR',
    'GIVE_TOP_CARD',
    'CALL_FLOOR',
  ),
  entry(
    'MISSING_CARD, other seat',
    { incident: 'MISSING_CARD', atButton: false, afterSubstantialAction: false },
    'MISDEAL',
    'MISDEAL',
    'CALL_FLOOR',
  ),
  entry(
    'MISSING_CARD, other seat, after substantial action',
    { incident: 'MISSING_CARD', atButton: false, afterSubstantialAction: true },
    'CALL_FLOOR',
    'HAND_DEAD',
    'CALL_FLOOR',
  ),
  entry(
    'EXPOSED_CARD by the player',
    { ...dealerExposed, by: 'player' },
    'CARD_LIVE',
    'CARD_LIVE',
    'CARD_LIVE',
  ),
  entry(
    'EXPOSED_CARD by the player, after the deal',
    { ...dealerExposed, by: 'player', dealPosition: null },
    'CARD_LIVE',
    'CARD_LIVE',
    'CARD_LIVE',
  ),
  entry(
    'EXPOSED_CARD by the dealer, card 1',
    { ...dealerExposed, dealPosition: 1 },
    'MISDEAL',
    'REPLACE_AT_END',
    'MISDEAL',
  ),
  entry(
    'EXPOSED_CARD by the dealer, card 2, heads-up (the button’s)',
    { ...dealerExposed, dealPosition: 2, toButton: true },
    'MISDEAL',
    'MISDEAL',
    'MISDEAL',
  ),
  entry(
    'EXPOSED_CARD by the dealer, card 2, after card 1 was replaced',
    { ...dealerExposed, dealPosition: 2, dealerExposedCount: 2 },
    'MISDEAL',
    'MISDEAL',
    'MISDEAL',
  ),
  entry(
    'EXPOSED_CARD by the dealer, second in this deal',
    { ...dealerExposed, dealerExposedCount: 2 },
    'MISDEAL',
    'MISDEAL',
    'CALL_FLOOR',
  ),
  entry(
    'EXPOSED_CARD by the dealer, dealt to the button',
    { ...dealerExposed, dealPosition: 9, toButton: true },
    'REPLACE_AT_END',
    'MISDEAL',
    'REPLACE_AT_END',
  ),
  entry(
    'EXPOSED_CARD by the dealer, otherwise',
    dealerExposed,
    'REPLACE_AT_END',
    'REPLACE_AT_END',
    'REPLACE_AT_END',
  ),
  entry(
    'EXPOSED_CARD by the dealer, after the deal',
    { ...dealerExposed, dealPosition: null },
    'CALL_FLOOR',
    'CALL_FLOOR',
    'CALL_FLOOR',
  ),
  entry(
    'FLASHED_CARD, card 1',
    { ...dealerFlashed, dealPosition: 1 },
    'MISDEAL',
    'REPLACE_AT_END',
    'MISDEAL',
  ),
  entry(
    'FLASHED_CARD, second in this deal',
    { ...dealerFlashed, dealerExposedCount: 2 },
    'MISDEAL',
    'MISDEAL',
    'CALL_FLOOR',
  ),
  entry(
    'FLASHED_CARD, dealt to the button',
    { ...dealerFlashed, dealPosition: 9, toButton: true },
    'REPLACE_AT_END',
    'MISDEAL',
    'REPLACE_AT_END',
  ),
  entry('FLASHED_CARD, otherwise', dealerFlashed, 'REPLACE_AT_END', 'REPLACE_AT_END', 'REPLACE_AT_END'),
  entry(
    'FLASHED_CARD, after the deal',
    { ...dealerFlashed, dealPosition: null },
    'CALL_FLOOR',
    'CALL_FLOOR',
    'CALL_FLOOR',
  ),
  entry(
    'BOXED_CARD, first of the deal',
    { incident: 'BOXED_CARD', duringDeal: true, nth: 1, bettingPossible: true },
    'BOXED_SET_ASIDE',
    'CALL_FLOOR',
    'CALL_FLOOR',
  ),
  entry(
    'BOXED_CARD, second in the initial deal',
    { incident: 'BOXED_CARD', duringDeal: true, nth: 2, bettingPossible: true },
    'MISDEAL',
    'CALL_FLOOR',
    'CALL_FLOOR',
  ),
  entry('FOREIGN_CARD', { incident: 'FOREIGN_CARD' }, 'HAND_VOID', 'CALL_FLOOR', 'CALL_FLOOR'),
  entry('DUPLICATE_CARD', { incident: 'DUPLICATE_CARD' }, 'HAND_VOID', 'CALL_FLOOR', 'CALL_FLOOR'),
  entry(
    'MIXED_DECK, actions with both decks',
    { incident: 'MIXED_DECK', actionsWithBothDecks: true, boardOnly: false, bettingPossible: true },
    'HAND_VOID',
    'CALL_FLOOR',
    'CALL_FLOOR',
  ),
  entry(
    'MIXED_DECK, recoverable: board only, no betting possible',
    { incident: 'MIXED_DECK', actionsWithBothDecks: false, boardOnly: true, bettingPossible: false },
    'REDEAL_BOARD',
    'CALL_FLOOR',
    'CALL_FLOOR',
  ),
  entry(
    'MIXED_DECK, hole card of the other deck before any action',
    { incident: 'MIXED_DECK', actionsWithBothDecks: false, boardOnly: false, bettingPossible: true },
    'CALL_FLOOR',
    'CALL_FLOOR',
    'CALL_FLOOR',
  ),

  // Burn and board
  entry(
    'PREMATURE_FLOP, burn identifiable, last player pending, 1st card out',
    lastToActSkipped,
    'PREMATURE_RESHUFFLE_NO_BURN',
    'BURN_AND_REPLACE',
    'CALL_FLOOR',
  ),
  entry(
    'PREMATURE_FLOP, burn not identifiable',
    { ...lastToActSkipped, burnIdentifiable: false },
    'PREMATURE_RESHUFFLE_WITH_BURN',
    'BURN_AND_REPLACE',
    'CALL_FLOOR',
  ),
  entry(
    'PREMATURE_FLOP, 2nd flop card out',
    { ...lastToActSkipped, cardsOut: 2 },
    'PREMATURE_RESHUFFLE_NO_BURN',
    'SKIPPED_PLAYER_FOLDS',
    'CALL_FLOOR',
  ),
  entry(
    'PREMATURE_FLOP, someone acted after the skipped player',
    { ...lastToActSkipped, actedAfterPending: true },
    'PREMATURE_RESHUFFLE_NO_BURN',
    'SKIPPED_PLAYER_FOLDS',
    'CALL_FLOOR',
  ),
  entry(
    'PREMATURE_FLOP, several players pending',
    { ...lastToActSkipped, pending: severalPending },
    'PREMATURE_RESHUFFLE_NO_BURN',
    'CALL_FLOOR',
    'CALL_FLOOR',
  ),
  entry(
    'PREMATURE_TURN, last player pending',
    { ...lastToActSkipped, incident: 'PREMATURE_TURN' },
    'TURN_SET_ASIDE',
    'BURN_AND_REPLACE',
    'CALL_FLOOR',
  ),
  entry(
    'PREMATURE_TURN, someone acted after the skipped player',
    { ...lastToActSkipped, incident: 'PREMATURE_TURN', actedAfterPending: true },
    'TURN_SET_ASIDE',
    'SKIPPED_PLAYER_FOLDS',
    'CALL_FLOOR',
  ),
  entry(
    'PREMATURE_TURN, several players pending',
    { ...lastToActSkipped, incident: 'PREMATURE_TURN', pending: severalPending },
    'TURN_SET_ASIDE',
    'CALL_FLOOR',
    'CALL_FLOOR',
  ),
  entry(
    'PREMATURE_RIVER, last player pending',
    { ...lastToActSkipped, incident: 'PREMATURE_RIVER' },
    'PREMATURE_RESHUFFLE_NO_BURN',
    'BURN_AND_REPLACE',
    'CALL_FLOOR',
  ),
  entry(
    'PREMATURE_RIVER, someone acted after the skipped player',
    { ...lastToActSkipped, incident: 'PREMATURE_RIVER', actedAfterPending: true },
    'PREMATURE_RESHUFFLE_NO_BURN',
    'SKIPPED_PLAYER_FOLDS',
    'CALL_FLOOR',
  ),
  entry(
    'PREMATURE_RIVER, several players pending',
    { ...lastToActSkipped, incident: 'PREMATURE_RIVER', pending: severalPending },
    'PREMATURE_RESHUFFLE_NO_BURN',
    'CALL_FLOOR',
    'CALL_FLOOR',
  ),
  entry(
    'FLOP_NO_BURN, identifiable',
    { incident: 'FLOP_NO_BURN', identifiable: true },
    'FIRST_TO_BURN',
    'FIRST_TO_BURN',
    'CALL_FLOOR',
  ),
  entry(
    'FLOP_NO_BURN, not identifiable',
    { incident: 'FLOP_NO_BURN', identifiable: false },
    'FLOP_SCRAMBLE',
    'FIRST_TO_BURN',
    'CALL_FLOOR',
  ),
  entry(
    'FLOP_TWO_BURNS, identifiable',
    { incident: 'FLOP_TWO_BURNS', identifiable: true },
    'FLOP_SECOND_BURN_TO_FLOP',
    'CALL_FLOOR',
    'CALL_FLOOR',
  ),
  entry(
    'FLOP_TWO_BURNS, not identifiable',
    { incident: 'FLOP_TWO_BURNS', identifiable: false },
    'FLOP_SCRAMBLE',
    'CALL_FLOOR',
    'CALL_FLOOR',
  ),
  entry(
    'FLOP_FOUR_CARDS, identifiable',
    { incident: 'FLOP_FOUR_CARDS', identifiable: true, burnIdentifiable: true },
    'FLOP_FOURTH_TO_BURN',
    'CALL_FLOOR',
    'CALL_FLOOR',
  ),
  entry(
    'FLOP_FOUR_CARDS, only the burn identifiable',
    { incident: 'FLOP_FOUR_CARDS', identifiable: false, burnIdentifiable: true },
    'FLOP_SCRAMBLE',
    'CALL_FLOOR',
    'CALL_FLOOR',
  ),
  entry(
    'TURN_NO_BURN',
    { incident: 'TURN_NO_BURN', identifiable: true },
    'CALL_FLOOR',
    'FIRST_TO_BURN',
    'CALL_FLOOR',
  ),
  entry(
    'RIVER_NO_BURN',
    { incident: 'RIVER_NO_BURN', identifiable: true },
    'CALL_FLOOR',
    'FIRST_TO_BURN',
    'CALL_FLOOR',
  ),
  entry('BURN_EXPOSED', { incident: 'BURN_EXPOSED' }, 'CONTINUE', 'CONTINUE', 'CONTINUE'),
  entry(
    'BOXED_CARD after the deal, first since the deal',
    { incident: 'BOXED_CARD', duringDeal: false, nth: 1, bettingPossible: true },
    'BOXED_SET_ASIDE',
    'CALL_FLOOR',
    'CALL_FLOOR',
  ),
  entry(
    'BOXED_CARD after the deal, second, betting still possible',
    { incident: 'BOXED_CARD', duringDeal: false, nth: 2, bettingPossible: true },
    'HAND_VOID',
    'CALL_FLOOR',
    'CALL_FLOOR',
  ),
  entry(
    'BOXED_CARD after the deal, second, no betting possible',
    { incident: 'BOXED_CARD', duringDeal: false, nth: 2, bettingPossible: false },
    'BOXED_SET_ASIDE',
    'CALL_FLOOR',
    'CALL_FLOOR',
  ),

  // At the end of the hand, and a procedure step the sensors contradict
  entry('CARD_NOT_RETURNED', { incident: 'CARD_NOT_RETURNED' }, 'CALL_FLOOR', 'CALL_FLOOR', 'CALL_FLOOR'),
  entry(
    'PROCEDURE_NOT_FOLLOWED',
    { incident: 'PROCEDURE_NOT_FOLLOWED', expected: 'BURN_FACE_DOWN' },
    'CALL_FLOOR',
    'CALL_FLOOR',
    'CALL_FLOOR',
  ),
];
