import {
  afterTheDeal,
  BURN_STAYS_BURNED,
  callFloor,
  citations,
  decision,
  type FactsOf,
  HOLD_OUT,
  IRREGULAR_DECK,
  noWrittenProcedure,
  noWrittenRule,
  procedureNotFollowed,
  tdaSubstantialAction,
  UNWRITTEN,
} from './decisions.js';
import type { AwardCase, Decision, PromptCode, RuleProfile } from './types.js';

/** The 40 TDA rules of 2007, French summary (rules/003_…), numbered 1–40. */
const ID = 'tda-2007';
const cite = citations(ID);

/** #1: the floor decides, common sense and fairness first, even against the written rules. */
const FLOOR = cite('#1');
const NO_RULE = cite(UNWRITTEN);
const MISDEALS = cite('#27');

const PROMPT_RULES: Record<PromptCode, string> = {
  ALL_IN_SHOWDOWN: cite('#9'),
  NEXT_HAND: cite('#6'),
  RETURN_UNCALLED: NO_RULE,
  BUILD_SIDE_POTS: NO_RULE,
  SHOW_ORDER: cite('#37'),
  // "Les cartes parlent"
  SHOWDOWN_RANKING: cite('#20'),
};

/** #3 the odd chip, #4 side pots before the main pot; nothing on a pot won unseen. */
const AWARD_RULES: Record<AwardCase, string> = { main: cite('#3'), side: cite('#4'), uncontested: NO_RULE };

const ONE_EXPOSED_CARD_ONLY = {
  fr: 'le #27 traite d’une seule carte retournée',
  en: '#27 covers a single exposed card',
};

function exposedOrFlashed(facts: FactsOf<'EXPOSED_CARD' | 'FLASHED_CARD'>): Decision {
  if (facts.incident === 'EXPOSED_CARD' && facts.by === 'player') return decision('CARD_LIVE', cite('#31'));
  if (facts.dealPosition === null) return callFloor(MISDEALS, afterTheDeal(ID, facts.incident));
  // "il y a fausse donne uniquement si il s'agissait de la toute première ou de la deuxième"
  if (facts.dealPosition <= 2) return decision('MISDEAL', MISDEALS);
  if (facts.dealerExposedCount >= 2) {
    return callFloor(MISDEALS, noWrittenProcedure(ID, ONE_EXPOSED_CARD_ONLY));
  }
  // "le joueur au bouton peut se voir distribuer deux cartes consécutives"
  return decision('REPLACE_AT_END', MISDEALS);
}

export const tda2007: RuleProfile = {
  id: ID,
  title: { fr: 'Les 40 règles TDA de 2007', en: 'The 40 TDA rules of 2007' },

  decide(facts) {
    switch (facts.incident) {
      case 'DECK_COUNT':
      case 'DECK_FACE_UP':
      case 'DECK_UNKNOWN_CARD':
        return decision('DECK_REJECTED', NO_RULE, noWrittenRule(ID, IRREGULAR_DECK));
      case 'BUTTON_MISPLACED':
        // #6: the big blind always moves on and the button follows; #35: heads-up adjustment.
        return decision('MOVE_BUTTON', cite(facts.headsUp ? '#35' : '#6'));
      case 'EXPOSED_CARD':
      case 'FLASHED_CARD':
        return exposedOrFlashed(facts);
      case 'BURN_EXPOSED':
        return decision('CONTINUE', NO_RULE, noWrittenRule(ID, BURN_STAYS_BURNED));
      case 'CARD_TO_WRONG_SEAT':
      case 'SEAT_SKIPPED':
      case 'EXTRA_CARD':
      case 'MISSING_CARD':
      case 'BOXED_CARD':
      case 'FOREIGN_CARD':
      case 'DUPLICATE_CARD':
      case 'MIXED_DECK':
      case 'PREMATURE_FLOP':
      case 'PREMATURE_TURN':
      case 'PREMATURE_RIVER':
      case 'FLOP_NO_BURN':
      case 'FLOP_TWO_BURNS':
      case 'FLOP_FOUR_CARDS':
      case 'TURN_NO_BURN':
      case 'RIVER_NO_BURN':
        return callFloor(FLOOR, noWrittenProcedure(ID));
      case 'CARD_NOT_RETURNED':
        return callFloor(FLOOR, HOLD_OUT);
      case 'WINNING_HAND_MUCKED':
        return decision('RETRIEVE_WINNING_HAND', cite('#29'));
      case 'PROCEDURE_NOT_FOLLOWED':
        return callFloor(FLOOR, procedureNotFollowed(facts.expected));
    }
  },

  substantialAction: tdaSubstantialAction,

  promptRule: (prompt) => PROMPT_RULES[prompt],
  awardRule: (award) => AWARD_RULES[award],
  button: { rule: 'dead-button', cite: cite('#6'), headsUp: cite('#35') },
  newcomerPosts: null,
};
