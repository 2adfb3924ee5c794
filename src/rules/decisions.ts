import { EXPECTED_TEXTS } from './step-texts.js';
import type {
  ActionRecord,
  AllInFacts,
  Decision,
  ExpectedStep,
  IncidentCode,
  IncidentFacts,
  RulingCode,
  Street,
  Text,
} from './types.js';

/** The facts of one incident (or group of incidents sharing a shape). */
export type FactsOf<I extends IncidentCode> = IncidentFacts & { incident: I };

/** Procedures RULINGS.md marks `floor: true`, plus the floor's own ruling. */
export const FLOOR_PROCEDURES: ReadonlySet<RulingCode> = new Set<RulingCode>([
  'FLOP_SCRAMBLE',
  'PREMATURE_RESHUFFLE_NO_BURN',
  'PREMATURE_RESHUFFLE_WITH_BURN',
  'TURN_SET_ASIDE',
  'CALL_FLOOR',
]);

/** The street each board incident is about. */
export const STREET_OF = {
  PREMATURE_FLOP: 'flop',
  FLOP_NO_BURN: 'flop',
  FLOP_TWO_BURNS: 'flop',
  FLOP_FOUR_CARDS: 'flop',
  PREMATURE_TURN: 'turn',
  TURN_NO_BURN: 'turn',
  PREMATURE_RIVER: 'river',
  RIVER_NO_BURN: 'river',
} as const satisfies Partial<Record<IncidentCode, Street>>;

/** A profile's citation maker: `citations('tda-2007')('#27')` is `tda-2007 #27`. */
export function citations(profileId: string): (article: string) => string {
  return (article) => `${profileId} ${article}`;
}

/** What a rulebook without an article on the matter is cited as. */
export const UNWRITTEN = '(no written rule)';

export function decision(ruling: RulingCode, rule: string, reason?: Text): Decision {
  const floor = FLOOR_PROCEDURES.has(ruling);
  return reason ? { ruling, rule, floor, reason } : { ruling, rule, floor };
}

/**
 * A decision whose floor differs from RULINGS.md's mark of its ruling, where a rulebook says who watches
 * (tda-2024 names no floor for RP-5 or #39-B, and calls one for a scrap of paper in a player's hand).
 */
export function withFloor(made: Decision, floor: boolean): Decision {
  return { ...made, floor };
}

export function callFloor(rule: string, reason: Text): Decision {
  return decision('CALL_FLOOR', rule, reason);
}

/** "no written procedure in <profile>", after what the rulebook does say when that helps the floor. */
export function noWrittenProcedure(profileId: string, context?: Text): Text {
  const fr = `aucune procédure écrite dans ${profileId}`;
  const en = `no written procedure in ${profileId}`;
  return context ? { fr: `${context.fr} : ${fr}`, en: `${context.en}: ${en}` } : { fr, en };
}

/** Why a ruling stands where the rulebook has no article (the citation says `(no written rule)`). */
export function noWrittenRule(profileId: string, why: Text): Text {
  return {
    fr: `aucune règle écrite dans ${profileId} : ${why.fr}`,
    en: `no written rule in ${profileId}: ${why.en}`,
  };
}

/** A dealer-exposed or flashed card once the hole-card deal is over: no rulebook covers it. */
export function afterTheDeal(profileId: string, incident: 'EXPOSED_CARD' | 'FLASHED_CARD'): Text {
  return noWrittenProcedure(
    profileId,
    incident === 'FLASHED_CARD'
      ? { fr: 'carte flashée après la donne', en: 'flashed after the deal' }
      : { fr: 'carte retournée après la donne', en: 'exposed after the deal' },
  );
}

/** The sensors saw a card go where the procedure did not send it: what it expected, from the catalogue. */
export function procedureNotFollowed(expected: ExpectedStep): Text {
  const what = EXPECTED_TEXTS[expected];
  return {
    fr: `les capteurs contredisent la procédure : ${what.fr}`,
    en: `the sensors contradict the procedure: ${what.en}`,
  };
}

export const HOLD_OUT: Text = {
  fr: 'carte possiblement retenue par un joueur : alerte sécurité',
  en: 'possible hold-out: security alert',
};

export const IRREGULAR_DECK: Text = {
  fr: 'un jeu irrégulier ne se distribue pas',
  en: 'an irregular deck is never dealt',
};

export const BURN_STAYS_BURNED: Text = {
  fr: 'une carte brûlée découverte reste simplement brûlée',
  en: 'an exposed burn card is simply burned',
};

/**
 * The TDA's substantial action, which `main-event-2014` and `tda-2007` use without defining it:
 * two actions in turn of which at least one puts chips in, or any three actions (blinds never listed).
 */
export function tdaSubstantialAction(actions: readonly ActionRecord[]): boolean {
  return actions.length >= 3 || (actions.length === 2 && actions.some((action) => action.chips));
}

/** RULINGS.md's ALL_IN_SHOWDOWN: two or more players all-in and no more betting possible. */
export function twoAllInNoBetting(facts: AllInFacts): boolean {
  return facts.allIn >= 2 && !facts.bettingPossible;
}
