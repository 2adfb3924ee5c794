import {
  afterTheDeal,
  BURN_STAYS_BURNED,
  callFloor,
  citations,
  decision,
  type FactsOf,
  HOLD_OUT,
  noWrittenProcedure,
  procedureNotFollowed,
  tdaSubstantialAction,
  UNWRITTEN,
} from './decisions.js';
import type { AwardCase, Decision, PromptCode, RuleProfile, RulingCode } from './types.js';

/** "Règlement Main Event 2014" (rules/000_…), sections I–VI. */
const ID = 'main-event-2014';
const cite = citations(ID);

/** §I.d: the floors decide, fairness first, where the rules are silent. */
const FLOOR = cite('§I.d');

const PROMPT_RULES: Record<PromptCode, string> = {
  ALL_IN_SHOWDOWN: cite('§VI.c'),
  NEXT_HAND: cite('§II.i'),
  RETURN_UNCALLED: cite(UNWRITTEN),
  // "Chaque pot extérieur sera divisé séparément avant tirage de la ou des cartes suivantes"
  BUILD_SIDE_POTS: cite('§VI.e'),
  SHOW_ORDER: cite('§VI.d'),
  // "les cartes parlent": the dealer splits by the hands as they are
  SHOWDOWN_RANKING: cite('§VI.b'),
};

/** §VI.f "le jeton indivisible…"; §VI.e side pots split on their own; §VI.d the last hand left wins unseen. */
const AWARD_RULES: Record<AwardCase, string> = {
  main: cite('§VI.f'),
  side: cite('§VI.e'),
  uncontested: cite('§VI.d'),
};

/** Cards speak (§VI.b), but nothing says how a winning hand killed by mistake is recovered. */
const WINNING_HAND_KILLED = {
  fr: '§VI.b : les cartes parlent',
  en: '§VI.b: cards speak',
};

const GAME_CONTINUES = {
  fr: '§III.h : après des actions substantielles le jeu continue ; aucune procédure pour ce coup',
  en: '§III.h: after substantial action the game continues; no procedure for the hand',
};

const RECOVERED_NOT_HOW = {
  fr: 'le §III.d dit qu’un tel coup est récupéré, pas comment',
  en: '§III.d says such a hand is recovered, not how',
};

function exposedOrFlashed(facts: FactsOf<'EXPOSED_CARD' | 'FLASHED_CARD'>): Decision {
  if (facts.incident === 'EXPOSED_CARD' && facts.by === 'player') {
    // §III.g: turned by the player's hand during the deal; §III.h: turned by its owner after it.
    return decision('CARD_LIVE', cite(facts.dealPosition === null ? '§III.h' : '§III.g'));
  }
  // §III.h makes a flashed card dead; it is then ruled as a card the dealer turned.
  const flashed = facts.incident === 'FLASHED_CARD';
  if (facts.dealPosition === null) {
    return callFloor(cite(flashed ? '§III.h' : '§III.g'), afterTheDeal(ID, facts.incident));
  }
  const rule = (article: string) => cite(flashed ? `§III.h, ${article}` : article);
  if (facts.dealPosition <= 2 || facts.dealerExposedCount >= 2) return decision('MISDEAL', rule('§III.e'));
  // The last seat served, the button included, may get two cards in a row.
  return decision('REPLACE_AT_END', rule('§III.g'));
}

function boxed(facts: FactsOf<'BOXED_CARD'>): RulingCode {
  if (facts.nth === 1) return 'BOXED_SET_ASIDE';
  if (facts.duringDeal) return 'MISDEAL';
  // "Si plus aucune enchère n'est possible, toutes les cartes à l'envers doivent être ignorées"
  return facts.bettingPossible ? 'HAND_VOID' : 'BOXED_SET_ASIDE';
}

function mixedDeck(facts: FactsOf<'MIXED_DECK'>): Decision {
  const rule = cite('§III.d');
  if (facts.actionsWithBothDecks) return decision('HAND_VOID', rule);
  if (facts.boardOnly && !facts.bettingPossible) return decision('REDEAL_BOARD', rule);
  return callFloor(rule, RECOVERED_NOT_HOW);
}

export const mainEvent2014: RuleProfile = {
  id: ID,
  title: { fr: 'Règlement Main Event 2014', en: 'Main Event 2014 rules' },

  decide(facts) {
    switch (facts.incident) {
      case 'DECK_COUNT':
      case 'DECK_UNKNOWN_CARD':
        return decision('DECK_REJECTED', cite('§III.d'));
      case 'DECK_FACE_UP':
        return decision('DECK_REJECTED', cite('§III.c'));
      case 'BUTTON_MISPLACED':
        // §I.o: last hand's small blind is the button, unless dead (§II.i) or heads-up (§II.j).
        return decision('MOVE_BUTTON', cite(facts.headsUp ? '§II.j' : facts.deadButton ? '§II.i' : '§I.o'));
      case 'CARD_TO_WRONG_SEAT':
      case 'SEAT_SKIPPED':
        return decision('MISDEAL', cite('§III.e'));
      case 'EXTRA_CARD':
      case 'MISSING_CARD':
        return facts.afterSubstantialAction
          ? callFloor(cite('§III.h'), GAME_CONTINUES)
          : decision('MISDEAL', cite('§III.e'));
      case 'EXPOSED_CARD':
      case 'FLASHED_CARD':
        return exposedOrFlashed(facts);
      case 'BOXED_CARD':
        return decision(boxed(facts), cite('§III.c'));
      case 'FOREIGN_CARD':
      case 'DUPLICATE_CARD':
        return decision('HAND_VOID', cite('§III.d'));
      case 'MIXED_DECK':
        return mixedDeck(facts);
      case 'PREMATURE_FLOP':
        return decision(
          facts.burnIdentifiable ? 'PREMATURE_RESHUFFLE_NO_BURN' : 'PREMATURE_RESHUFFLE_WITH_BURN',
          cite('§III.J "Flop prématuré"'),
        );
      case 'PREMATURE_TURN':
        return decision('TURN_SET_ASIDE', cite('§III.k'));
      case 'PREMATURE_RIVER':
        return decision('PREMATURE_RESHUFFLE_NO_BURN', cite('§III.l'));
      case 'FLOP_NO_BURN':
        return decision(
          facts.identifiable ? 'FIRST_TO_BURN' : 'FLOP_SCRAMBLE',
          cite('§III.J "Flop sans carte brûlée"'),
        );
      case 'FLOP_TWO_BURNS':
        return decision(
          facts.identifiable ? 'FLOP_SECOND_BURN_TO_FLOP' : 'FLOP_SCRAMBLE',
          cite('§III.J "Flop avec deux cartes brûlées"'),
        );
      case 'FLOP_FOUR_CARDS':
        return decision(
          facts.identifiable ? 'FLOP_FOURTH_TO_BURN' : 'FLOP_SCRAMBLE',
          cite('§III.J "Flop à 4 cartes"'),
        );
      case 'TURN_NO_BURN':
      case 'RIVER_NO_BURN':
        return callFloor(FLOOR, noWrittenProcedure(ID));
      case 'BURN_EXPOSED':
        // §III.g burns a face-up card as a matter of course.
        return decision('CONTINUE', cite('§III.g'), BURN_STAYS_BURNED);
      case 'CARD_NOT_RETURNED':
        return callFloor(FLOOR, HOLD_OUT);
      case 'WINNING_HAND_MUCKED':
        return callFloor(cite('§VI.b'), noWrittenProcedure(ID, WINNING_HAND_KILLED));
      case 'PROCEDURE_NOT_FOLLOWED':
        return callFloor(FLOOR, procedureNotFollowed(facts.expected));
    }
  },

  substantialAction: tdaSubstantialAction,

  promptRule: (prompt) => PROMPT_RULES[prompt],
  awardRule: (award) => AWARD_RULES[award],
  button: { rule: 'dead-button', cite: cite('§II.i'), headsUp: cite('§II.j') },
  newcomerPosts: null,
};
