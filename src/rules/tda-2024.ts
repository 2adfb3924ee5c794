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
  procedureNotFollowed,
  STREET_OF,
  tdaSubstantialAction,
  UNWRITTEN,
  withFloor,
} from './decisions.js';
import { TDA_2024_PROCEDURES } from './tda-2024-procedures.js';
import type { AllInFacts, AwardCase, Decision, PromptCode, RuleProfile, Street, Text } from './types.js';

/**
 * The 2024 Poker TDA Rules, Recommended Procedures and Addendum (rules/tda-2024.md, a summary in our
 * words); its rulings are RULINGS-tda-2024.md's, cited by rule, part and item (`#35-A-5`, `RP-5-A`).
 */
const ID = 'tda-2024';
const cite = citations(ID);

/** RP-14: for an error no rule covers, the TD designs the remedy. */
const FLOOR = cite('RP-14');
const NO_RULE = cite(UNWRITTEN);
const DEAL_EXPOSURE = cite('#35-A-7');
const TWO_BOXED = cite('#35-A-1');
const WRONG_COUNT = cite('#35-A-5');
const NO_MISDEAL_AFTER_SA = cite('#35-D');
const FOULED_DECK = cite('#35-E');
const RP_5: Readonly<Record<Street, string>> = { flop: 'RP-5-A', turn: 'RP-5-B', river: 'RP-5-C' };

const PROMPT_RULES: Record<PromptCode, string> = {
  ALL_IN_SHOWDOWN: cite('#16 (Add. §16)'),
  NEXT_HAND: cite('#32'),
  // RULINGS-tda-2024.md §7.1: no general rule; #15-B and #65-A return uncalled amounts in their own cases.
  RETURN_UNCALLED: NO_RULE,
  // #21 only says each side pot is split on its own, not when.
  BUILD_SIDE_POTS: NO_RULE,
  // The first seat is #17-A's; 2024 drops 2007 #37's clockwise sequence.
  SHOW_ORDER: cite('#17-A (then clockwise: no written rule)'),
  SHOWDOWN_RANKING: cite('#12'),
};

/** #20-A the odd chip, #21 (and Add. §16) side pots before the main pot, #17-B the last live hand wins unseen. */
const AWARD_RULES: Record<AwardCase, string> = {
  main: cite('#20-A'),
  side: cite('#21'),
  uncontested: cite('#17-B'),
};

const GAME_GOES_ON: Text = {
  fr: 'après une action substantielle, aucune maldonne ne peut être déclarée : le coup continue',
  en: 'after substantial action no misdeal may be declared: the hand goes on',
};

const STRAY_CARDS: Text = {
  fr: 'le #35-D interdit la maldonne après une action substantielle, et rien ne dit que faire des cartes égarées',
  en: '#35-D forbids a misdeal after substantial action, and nothing says what becomes of the stray cards',
};

const BUTTON_STANDS: Text = {
  fr: 'trouvée après une action substantielle, l’erreur de bouton reste : le coup suivant part de la place réelle du bouton',
  en: 'found after substantial action, the button error stands: the next hand moves on from where the button really was',
};

const ONE_BOXED: Text = {
  fr: 'le #35-A-1 ne fait une maldonne que de deux cartes retournées ou plus',
  en: '#35-A-1 makes a misdeal of two or more boxed cards only',
};

const INITIAL_DEAL_ONLY: Text = {
  fr: 'le #35-A-1 ne compte que les cartes retournées de la donne initiale',
  en: '#35-A-1 counts boxed cards on the initial deal only',
};

const HOUSE_FOULING: Text = {
  fr: 'le #35-E laisse les autres cas de jeu vicié à la règle de la maison',
  en: '#35-E leaves other fouling conditions to house policy',
};

const ONE_BURN_PER_STREET: Text = {
  fr: 'le #38 veut une seule brûlée par tour, jamais plus, sans dire comment corriger',
  en: '#38 says one burn per street, never more, but gives no remedy',
};

const FLOP_ONLY: Text = { fr: 'le #39-B ne traite que du flop', en: '#39-B covers the flop only' };

const BURN_AMONG_PREMATURE: Text = {
  fr: 'la brûlée ne se distingue pas des cartes prématurées',
  en: 'the burn cannot be told apart from the premature cards',
};

const FLOP_STANDS: Text = {
  fr: 'le flop reste : il y a eu une action (tda-2024 #39-B) ; brûlez une carte pour le turn',
  en: 'the flop stands: action has occurred (tda-2024 #39-B); burn one card for the turn',
};

// Inferred: no rule covers an exposed burn, and #38 gives the burn its purpose (A23).
const STUB_PROTECTED: Text = {
  fr: `le talon est resté protégé (#38) : ${BURN_STAYS_BURNED.fr}`,
  en: `the stub stayed protected (#38): ${BURN_STAYS_BURNED.en}`,
};

const NOT_RETRIEVABLE: Text = {
  fr: 'si les deux cartes ne peuvent pas être reprises avec certitude, appelez le floor (#13-B)',
  en: 'if the two cards cannot be retrieved with certainty, call the floor (#13-B)',
};

function exposedOrFlashed(facts: FactsOf<'EXPOSED_CARD' | 'FLASHED_CARD'>): Decision {
  // #68: exposing one's own cards never kills the hand; a penalty may follow the hand (#71-B).
  if (facts.incident === 'EXPOSED_CARD' && facts.by === 'player')
    return decision('CARD_LIVE', cite('#68, #71-B'));
  // 2024 knows no flashed card: it is ruled as one the dealer exposed (A3).
  if (facts.dealPosition === null) return callFloor(DEAL_EXPOSURE, afterTheDeal(ID, facts.incident));
  // "one of the first two cards off the deck, or any two other downcards"
  if (facts.dealPosition <= 2 || facts.dealerExposedCount >= 2) return decision('MISDEAL', DEAL_EXPOSURE);
  // #35-B lets the button take two cards in a row; the replacement itself is inferred (A2).
  return decision('REPLACE_AT_END', cite(facts.toButton ? '#35-B' : '#35-A-7, #35-B'));
}

function missingCard(facts: FactsOf<'MISSING_CARD'>): Decision {
  // #37: the short button gets its card even after SA, unless it acted while short.
  if (facts.atButton) return decision(facts.buttonActedShort ? 'HAND_DEAD' : 'GIVE_TOP_CARD', cite('#37'));
  if (facts.afterSubstantialAction) return decision('HAND_DEAD', cite('#35-D, #38 (Add. §38 ex. 1-A)'));
  return decision('MISDEAL', facts.noCard ? cite('#35-A-4') : WRONG_COUNT);
}

function boxed(facts: FactsOf<'BOXED_CARD'>): Decision {
  if (!facts.duringDeal) {
    return facts.nth >= 2
      ? callFloor(TWO_BOXED, noWrittenProcedure(ID, INITIAL_DEAL_ONLY))
      : callFloor(FLOOR, noWrittenProcedure(ID));
  }
  return facts.nth >= 2
    ? decision('MISDEAL', TWO_BOXED)
    : callFloor(TWO_BOXED, noWrittenProcedure(ID, ONE_BOXED));
}

/** #35-E: fouling other than a face twice in play is house policy. */
function houseFouling(): Decision {
  return callFloor(FOULED_DECK, noWrittenProcedure(ID, HOUSE_FOULING));
}

/**
 * A standard face of a deck not in play is MIXED_DECK to the machine (a registered card of the other
 * deck), and an unregistered tag has no face to duplicate: FOREIGN_CARD's #35-E branch is house policy.
 */
function foreignCard(facts: FactsOf<'FOREIGN_CARD'>): Decision {
  if (!facts.nonStandard) return houseFouling();
  if (!facts.afterSubstantialAction) return decision('MISDEAL', cite('#35-A-6'));
  // A scrap of paper; one that was in a player's hand leaves it short, which only the floor can rule on.
  return withFloor(decision('SCRAP_CARD', NO_MISDEAL_AFTER_SA), facts.zone === 'seat');
}

function premature(facts: FactsOf<'PREMATURE_FLOP' | 'PREMATURE_TURN' | 'PREMATURE_RIVER'>): Decision {
  const street = STREET_OF[facts.incident];
  const rp = RP_5[street];
  if (facts.burnAmongPremature) return callFloor(FLOOR, noWrittenProcedure(ID, BURN_AMONG_PREMATURE));
  // RP-5 names no floor; it assumes a burn, and with none dealt the street gets one (#38; A9).
  const made = facts.burnIdentifiable
    ? decision('PREMATURE_RESHUFFLE_NO_BURN', cite(street === 'flop' ? `${rp} (#39-C, #39-D)` : rp))
    : decision('PREMATURE_RESHUFFLE_WITH_BURN', cite(`${rp}, #38`));
  return withFloor(made, false);
}

/** #16 (Add. §16): one player all-in is enough, once no more betting is possible or the river's round has closed. */
function handsFaceUp(facts: AllInFacts): boolean {
  return facts.allIn >= 1 && (!facts.bettingPossible || facts.finalRoundClosed === true);
}

export const tda2024: RuleProfile = {
  id: ID,
  title: { fr: 'Règles TDA de 2024', en: 'The 2024 TDA rules' },

  decide(facts) {
    switch (facts.incident) {
      // Preventive: 2024 rules on cards found in play; each check cites what it prevents.
      case 'DECK_COUNT':
        return decision('DECK_REJECTED', FOULED_DECK, IRREGULAR_DECK);
      case 'DECK_FACE_UP':
        return decision('DECK_REJECTED', TWO_BOXED, IRREGULAR_DECK);
      case 'DECK_UNKNOWN_CARD':
        return decision('DECK_REJECTED', cite('#35-A-6, #35-E'), IRREGULAR_DECK);
      case 'BUTTON_MISPLACED':
        // #34-A: corrected before SA; after it the error stands.
        if (facts.afterSubstantialAction) return decision('CONTINUE', cite('#34-A'), BUTTON_STANDS);
        return decision('MOVE_BUTTON', cite(facts.headsUp ? '#34-B' : '#32, #34-A'));
      case 'CARD_TO_WRONG_SEAT':
        if (facts.afterSubstantialAction)
          return callFloor(NO_MISDEAL_AFTER_SA, noWrittenProcedure(ID, STRAY_CARDS));
        return decision('MISDEAL', cite(facts.firstCardToWrongSeat ? '#35-A-2, #35-A-3' : '#35-A-3'));
      case 'SEAT_SKIPPED':
        if (facts.afterSubstantialAction) return decision('CONTINUE', NO_MISDEAL_AFTER_SA, GAME_GOES_ON);
        return decision('MISDEAL', cite(facts.firstCardToWrongSeat ? '#35-A-2' : '#35-A-4, #35-A-5'));
      case 'EXTRA_CARD':
        // Add. §38 ex. 1-B: the dead hand's three cards go to the muck; one burn comes off the stub.
        return facts.afterSubstantialAction
          ? decision('HAND_DEAD', cite('#35-D, #38 (Add. §38 ex. 1-B)'))
          : decision('MISDEAL', WRONG_COUNT);
      case 'MISSING_CARD':
        return missingCard(facts);
      case 'EXPOSED_CARD':
      case 'FLASHED_CARD':
        return exposedOrFlashed(facts);
      case 'BOXED_CARD':
        return boxed(facts);
      case 'FOREIGN_CARD':
        return foreignCard(facts);
      case 'DUPLICATE_CARD':
        return decision('HAND_VOID', FOULED_DECK);
      case 'MIXED_DECK':
        // #35-E: a face twice in play fouls the deck whatever the action.
        return facts.duplicatesInPlay ? decision('HAND_VOID', FOULED_DECK) : houseFouling();
      case 'PREMATURE_FLOP':
      case 'PREMATURE_TURN':
      case 'PREMATURE_RIVER':
        return premature(facts);
      case 'FLOP_NO_BURN':
        // #39-B: any action at all, a single check, and the flop stands; else it is scrambled (no floor named).
        return facts.actionSinceFirstFlopCard
          ? decision('CONTINUE', cite('#39-B'), FLOP_STANDS)
          : withFloor(decision('FLOP_SCRAMBLE', cite('#39-B')), false);
      case 'FLOP_FOUR_CARDS':
        return decision('FLOP_SCRAMBLE', cite('#39-A'));
      case 'FLOP_TWO_BURNS':
        return callFloor(cite('#38'), noWrittenProcedure(ID, ONE_BURN_PER_STREET));
      case 'TURN_NO_BURN':
      case 'RIVER_NO_BURN':
        return callFloor(cite('#39-B'), noWrittenProcedure(ID, FLOP_ONLY));
      case 'BURN_EXPOSED':
        return decision('CONTINUE', cite('#38'), STUB_PROTECTED);
      case 'CARD_NOT_RETURNED':
        return callFloor(NO_RULE, HOLD_OUT);
      case 'WINNING_HAND_MUCKED':
        // A properly tabled winner may not be killed; cards are dead only once unidentifiable (RFID reads
        // them, but whether a read makes a mucked hand identifiable is the TD's: A20).
        return decision('RETRIEVE_WINNING_HAND', cite('#13-C, #14'), NOT_RETRIEVABLE);
      case 'PROCEDURE_NOT_FOLLOWED':
        return callFloor(FLOOR, procedureNotFollowed(facts.expected));
    }
  },

  // #36 is the definition tda-2007 borrowed: the same computation.
  substantialAction: tdaSubstantialAction,

  promptRule: (prompt) => PROMPT_RULES[prompt],
  awardRule: (award) => AWARD_RULES[award],
  button: { rule: 'dead-button', cite: cite('#32'), headsUp: cite('#34-B') },
  newcomerPosts: null,
  procedures: TDA_2024_PROCEDURES,
  allInShowdown: handsFaceUp,
};
