import { describe, expect, it } from 'vitest';
import { FLOOR_PROCEDURES } from '../../../src/rules/decisions.js';
import { PROFILE_IDS, PROFILES, type ProfileId } from '../../../src/rules/index.js';
import type { IncidentFacts } from '../../../src/rules/types.js';

const decide = (id: ProfileId, facts: IncidentFacts) => PROFILES[id].decide(facts);

const exposed = {
  incident: 'EXPOSED_CARD',
  by: 'dealer',
  dealPosition: 5,
  toButton: false,
  dealerExposedCount: 1,
} as const;
const premature = { burnIdentifiable: true, pending: [7], actedAfterPending: false, cardsOut: 1 };

describe('citations', () => {
  const cases: [ProfileId, IncidentFacts, string][] = [
    ['main-event-2014', { ...exposed, dealPosition: 1 }, 'main-event-2014 §III.e'],
    ['main-event-2014', exposed, 'main-event-2014 §III.g'],
    [
      'main-event-2014',
      { ...exposed, incident: 'FLASHED_CARD', dealPosition: 2 },
      'main-event-2014 §III.h, §III.e',
    ],
    ['main-event-2014', { ...exposed, by: 'player' }, 'main-event-2014 §III.g'],
    ['main-event-2014', { ...exposed, by: 'player', dealPosition: null }, 'main-event-2014 §III.h'],
    [
      'main-event-2014',
      { incident: 'BUTTON_MISPLACED', headsUp: true, deadButton: false },
      'main-event-2014 §II.j',
    ],
    [
      'main-event-2014',
      { incident: 'BUTTON_MISPLACED', headsUp: false, deadButton: true },
      'main-event-2014 §II.i',
    ],
    ['main-event-2014', { incident: 'PREMATURE_TURN', ...premature }, 'main-event-2014 §III.k'],
    ['main-event-2014', { incident: 'PREMATURE_RIVER', ...premature }, 'main-event-2014 §III.l'],
    [
      'main-event-2014',
      { incident: 'PREMATURE_FLOP', ...premature },
      'main-event-2014 §III.J "Flop prématuré"',
    ],
    [
      'main-event-2014',
      { incident: 'BOXED_CARD', duringDeal: true, nth: 2, bettingPossible: true },
      'main-event-2014 §III.c',
    ],
    [
      'french-casino',
      { incident: 'PREMATURE_TURN', ...premature },
      'french-casino "Après l\'ouverture du Turn"',
    ],
    [
      'french-casino',
      { incident: 'PREMATURE_FLOP', ...premature },
      'french-casino "Après l\'ouverture du Flop"',
    ],
    [
      'french-casino',
      { incident: 'MISSING_CARD', atButton: true, afterSubstantialAction: false },
      'french-casino "Si le joueur au bouton se trouve avec une seule carte"',
    ],
    [
      'french-casino',
      { ...exposed, dealerExposedCount: 2 },
      'french-casino "Si, pendant la distribution des cartes, le croupier retourne deux cartes ou plus"',
    ],
    ['tda-2007', { ...exposed, dealPosition: 1 }, 'tda-2007 #27'],
    ['tda-2007', exposed, 'tda-2007 #27'],
    ['tda-2007', { ...exposed, by: 'player' }, 'tda-2007 #31'],
    ['tda-2007', { incident: 'BUTTON_MISPLACED', headsUp: true, deadButton: false }, 'tda-2007 #35'],
    ['tda-2007', { incident: 'BUTTON_MISPLACED', headsUp: false, deadButton: true }, 'tda-2007 #6'],
  ];
  for (const [id, facts, citation] of cases) {
    it(`${id} ${facts.incident} → ${citation}`, () => {
      expect(decide(id, facts).rule).toBe(citation);
    });
  }

  it('all-in showdown prompt', () => {
    expect(PROFILES['main-event-2014'].promptRule('ALL_IN_SHOWDOWN')).toBe('main-event-2014 §VI.c');
    expect(PROFILES['tda-2007'].promptRule('ALL_IN_SHOWDOWN')).toBe('tda-2007 #9');
    expect(PROFILES['french-casino'].promptRule('ALL_IN_SHOWDOWN')).toBe('french-casino (no written rule)');
  });
});

describe('reasons', () => {
  it('no written procedure, word for word', () => {
    expect(decide('tda-2007', { incident: 'SEAT_SKIPPED' }).reason).toEqual({
      fr: 'aucune procédure écrite dans tda-2007',
      en: 'no written procedure in tda-2007',
    });
    expect(decide('french-casino', { incident: 'FOREIGN_CARD' }).reason?.en).toBe(
      'no written procedure in french-casino',
    );
    expect(decide('main-event-2014', { incident: 'TURN_NO_BURN', identifiable: true }).reason?.en).toBe(
      'no written procedure in main-event-2014',
    );
  });

  it('main-event-2014: §III.h after substantial action, §III.d recovered hand', () => {
    const extra = decide('main-event-2014', { incident: 'EXTRA_CARD', afterSubstantialAction: true });
    expect(extra.rule).toBe('main-event-2014 §III.h');
    expect(extra.reason?.en).toContain('the game continues; no procedure for the hand');
    const mixed = decide('main-event-2014', {
      incident: 'MIXED_DECK',
      actionsWithBothDecks: false,
      boardOnly: false,
      bettingPossible: true,
    });
    expect(mixed.rule).toBe('main-event-2014 §III.d');
    expect(mixed.reason?.en).toBe('§III.d says such a hand is recovered, not how');
  });

  it('a card not returned is a security alert everywhere', () => {
    for (const id of PROFILE_IDS) {
      const decision = decide(id, { incident: 'CARD_NOT_RETURNED' });
      expect(decision).toMatchObject({ ruling: 'CALL_FLOOR', floor: true });
      expect(decision.reason?.en).toBe('possible hold-out: security alert');
    }
  });

  it('a dealer-exposed card after the deal has no written procedure; a player-exposed one stays live', () => {
    for (const id of PROFILE_IDS) {
      expect(decide(id, { ...exposed, dealPosition: null }).reason?.en).toBe(
        `exposed after the deal: no written procedure in ${id}`,
      );
      expect(decide(id, { ...exposed, incident: 'FLASHED_CARD', dealPosition: null }).reason?.en).toBe(
        `flashed after the deal: no written procedure in ${id}`,
      );
      expect(decide(id, { ...exposed, by: 'player', dealPosition: null }).ruling).toBe('CARD_LIVE');
    }
  });

  it('a procedure step the sensors contradict goes to the floor, wording what the step expected', () => {
    for (const id of PROFILE_IDS) {
      const decision = decide(id, { incident: 'PROCEDURE_NOT_FOLLOWED', expected: 'BURN_FACE_DOWN' });
      expect(decision.ruling).toBe('CALL_FLOOR');
      expect(decision.reason).toEqual({
        fr: 'les capteurs contredisent la procédure : la carte morte devait être la brûlée du flop',
        en: 'the sensors contradict the procedure: the dead card was to be the flop burn card',
      });
    }
  });
});

describe('floor', () => {
  it('is the mark of the procedures RULINGS.md runs under a floor’s eye, and of CALL_FLOOR', () => {
    expect([...FLOOR_PROCEDURES].sort()).toEqual(
      [
        'CALL_FLOOR',
        'FLOP_SCRAMBLE',
        'PREMATURE_RESHUFFLE_NO_BURN',
        'PREMATURE_RESHUFFLE_WITH_BURN',
        'TURN_SET_ASIDE',
      ].sort(),
    );
  });

  it('marks exactly the floor procedures', () => {
    expect(decide('main-event-2014', { incident: 'PREMATURE_TURN', ...premature }).floor).toBe(true);
    expect(decide('main-event-2014', { incident: 'FLOP_NO_BURN', identifiable: false }).floor).toBe(true);
    expect(decide('main-event-2014', { incident: 'FLOP_NO_BURN', identifiable: true }).floor).toBe(false);
    expect(decide('french-casino', { incident: 'PREMATURE_TURN', ...premature }).floor).toBe(false);
    expect(decide('tda-2007', { incident: 'PREMATURE_TURN', ...premature }).floor).toBe(true);
  });
});
