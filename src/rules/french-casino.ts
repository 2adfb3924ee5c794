import {
  afterTheDeal,
  callFloor,
  citations,
  decision,
  type FactsOf,
  HOLD_OUT,
  IRREGULAR_DECK,
  noWrittenProcedure,
  noWrittenRule,
  procedureNotFollowed,
  STREET_OF,
  UNWRITTEN,
} from './decisions.js';
import type { ActionRecord, AwardCase, Decision, PromptCode, RuleProfile, Street } from './types.js';

/** A French casino's "Règlement Intérieur" for Texas Hold'em (rules/004_…); cited by heading or sentence. */
const ID = 'french-casino';
const cite = citations(ID);

/** "Tout litige ne peut être réglé par le croupier … que sur avis de son supérieur." */
const FLOOR = cite('"Tout litige ne peut être réglé par le croupier"');
const NO_RULE = cite(UNWRITTEN);
const ONE_OR_THREE_CARDS = cite('"Si un joueur se retrouve avec une ou trois cartes"');
const TURNED_BY_DEALER = cite('"Si une carte est malencontreusement retournée par le croupier"');
const TWO_TURNED_BY_DEALER = cite(
  '"Si, pendant la distribution des cartes, le croupier retourne deux cartes ou plus"',
);
const BUTTON_ONE_CARD = cite('"Si le joueur au bouton se trouve avec une seule carte"');
const MEANT_TO_BE_BURNED = cite('"Si le croupier découvre une carte qui était destinée à être brûlée"');
const AFTER_OPENING: Record<Street, string> = {
  flop: cite('"Après l\'ouverture du Flop"'),
  turn: cite('"Après l\'ouverture du Turn"'),
  river: cite('"Après l\'ouverture du River"'),
};

const PROMPT_RULES: Record<PromptCode, string> = {
  ALL_IN_SHOWDOWN: NO_RULE,
  NEXT_HAND: NO_RULE,
  RETURN_UNCALLED: NO_RULE,
  BUILD_SIDE_POTS: NO_RULE,
  SHOW_ORDER: NO_RULE,
  SHOWDOWN_RANKING: NO_RULE,
};

/** "…un reliquat après le partage du pot, celui-ci sera attribué au joueur en jeu placé le plus à gauche en partant du bouton" */
const RELIQUAT = cite('"reliquat"');
const AWARD_RULES: Record<AwardCase, string> = { main: RELIQUAT, side: RELIQUAT, uncontested: NO_RULE };

const BUTTON_RULES = {
  fr: 'le bouton va au siège que donnent les règles du bouton de la table',
  en: 'the puck goes to the seat the table’s button rules give',
};

const NEW_OR_ABSENT_PLAYER_ONLY = {
  fr: 'le règlement dit seulement qu’un joueur qui vient de s’asseoir ne reçoit pas de main et que donner des cartes à un joueur absent n’est pas une maldonne',
  en: 'the rulebook only says a new player may not be dealt in and that dealing to an absent player is no misdeal',
};

const SEVERAL_PENDING = {
  fr: 'plusieurs joueurs n’avaient pas parlé ; la règle ne traite que du dernier',
  en: 'several players had not acted; the rule covers the last one only',
};

const CONSIDERED_BURNED = {
  fr: 'une carte destinée à être brûlée que le croupier découvre « sera considérée brûlée »',
  en: 'a card meant to be burned that the dealer turns up "will be considered burned"',
};

function exposedOrFlashed(facts: FactsOf<'EXPOSED_CARD' | 'FLASHED_CARD'>): Decision {
  if (facts.incident === 'EXPOSED_CARD' && facts.by === 'player') {
    return decision('CARD_LIVE', cite('"Une ou deux cartes retournées par un joueur"'));
  }
  // The rule speaks of cards turned "lors de la distribution" only.
  if (facts.dealPosition === null) return callFloor(TURNED_BY_DEALER, afterTheDeal(ID, facts.incident));
  // Two turned cards are a maldonne wherever they fall in the deal, cards 1 and 2 included.
  if (facts.dealerExposedCount >= 2) return decision('MISDEAL', TWO_TURNED_BY_DEALER);
  // "Dans le cas où cette carte ouverte est la l™ au bouton, il y a maldonne" (garbled): read as the button's
  // card, since the replacement would give the button two cards in a row, which this rulebook forbids.
  return decision(facts.toButton ? 'MISDEAL' : 'REPLACE_AT_END', TURNED_BY_DEALER);
}

function premature(facts: FactsOf<'PREMATURE_FLOP' | 'PREMATURE_TURN' | 'PREMATURE_RIVER'>): Decision {
  const street = STREET_OF[facts.incident];
  const rule = AFTER_OPENING[street];
  if (facts.pending.length > 1) return callFloor(rule, noWrittenProcedure(ID, SEVERAL_PENDING));
  // "Si la 26mc [2ème] carte du Flop découverte…"; "Si au moins un joueur a parlé après celui qui ne s'est pas prononcé"
  if (facts.actedAfterPending || (street === 'flop' && facts.cardsOut >= 2)) {
    return decision('SKIPPED_PLAYER_FOLDS', rule);
  }
  return decision('BURN_AND_REPLACE', rule);
}

/** "si deux joueurs ont déjà misé après les Blinds": two different players have put chips in. */
function twoPlayersBet(actions: readonly ActionRecord[]): boolean {
  return new Set(actions.filter((action) => action.chips).map((action) => action.seat)).size >= 2;
}

export const frenchCasino: RuleProfile = {
  id: ID,
  title: {
    fr: 'Règlement intérieur Texas Hold’em d’un casino français',
    en: 'French casino house rules, Texas Hold’em',
  },

  decide(facts) {
    switch (facts.incident) {
      case 'DECK_COUNT':
      case 'DECK_FACE_UP':
      case 'DECK_UNKNOWN_CARD':
        return decision('DECK_REJECTED', NO_RULE, noWrittenRule(ID, IRREGULAR_DECK));
      case 'BUTTON_MISPLACED':
        return decision('MOVE_BUTTON', NO_RULE, noWrittenRule(ID, BUTTON_RULES));
      case 'CARD_TO_WRONG_SEAT':
        return callFloor(
          cite('"Un joueur qui vient de s\'asseoir ne peut pas recevoir de main"'),
          noWrittenProcedure(ID, NEW_OR_ABSENT_PLAYER_ONLY),
        );
      case 'SEAT_SKIPPED':
        // The skipped player ends the deal with one card.
        return decision('MISDEAL', ONE_OR_THREE_CARDS);
      case 'EXTRA_CARD':
        return decision(facts.afterSubstantialAction ? 'HAND_DEAD' : 'MISDEAL', ONE_OR_THREE_CARDS);
      case 'MISSING_CARD':
        if (facts.atButton) return decision('GIVE_TOP_CARD', BUTTON_ONE_CARD);
        return decision(facts.afterSubstantialAction ? 'HAND_DEAD' : 'MISDEAL', ONE_OR_THREE_CARDS);
      case 'EXPOSED_CARD':
      case 'FLASHED_CARD':
        return exposedOrFlashed(facts);
      case 'PREMATURE_FLOP':
      case 'PREMATURE_TURN':
      case 'PREMATURE_RIVER':
        return premature(facts);
      case 'FLOP_NO_BURN':
      case 'TURN_NO_BURN':
      case 'RIVER_NO_BURN':
        return decision('FIRST_TO_BURN', MEANT_TO_BE_BURNED);
      case 'BURN_EXPOSED':
        return decision('CONTINUE', MEANT_TO_BE_BURNED, CONSIDERED_BURNED);
      case 'BOXED_CARD':
      case 'FOREIGN_CARD':
      case 'DUPLICATE_CARD':
      case 'MIXED_DECK':
      case 'FLOP_TWO_BURNS':
      case 'FLOP_FOUR_CARDS':
        return callFloor(FLOOR, noWrittenProcedure(ID));
      case 'CARD_NOT_RETURNED':
        return callFloor(FLOOR, HOLD_OUT);
      case 'WINNING_HAND_MUCKED':
        return callFloor(FLOOR, noWrittenProcedure(ID));
      case 'PROCEDURE_NOT_FOLLOWED':
        return callFloor(FLOOR, procedureNotFollowed(facts.expected));
    }
  },

  substantialAction: twoPlayersBet,

  promptRule: (prompt) => PROMPT_RULES[prompt],
  awardRule: (award) => AWARD_RULES[award],
  // No written button rule: the button moves to the next player.
  button: { rule: 'moving-button', cite: NO_RULE, headsUp: NO_RULE },
  newcomerPosts: cite('"Tout joueur entrant en cours de partie"'),
};
