import { describe, expect, it } from 'vitest';
import { allInShowdownDue, PROFILES, procedure, rule } from '../../../src/rules/index.js';
import type { IncidentFacts, Step } from '../../../src/rules/types.js';
import { CATALOGUE } from '../../rulings-catalogue.js';

const t24 = PROFILES['tda-2024'];
const codes = (steps: readonly Step[]) => steps.map((step) => step.code);

const exposed = {
  incident: 'EXPOSED_CARD',
  by: 'dealer',
  dealPosition: 5,
  toButton: false,
  dealerExposedCount: 1,
} as const;
const premature = { burnIdentifiable: true, pending: [7], actedAfterPending: false, cardsOut: 1 };

describe('tda-2024: citations as RULINGS-tda-2024.md §3 writes them', () => {
  const cases: [IncidentFacts, string][] = [
    [{ incident: 'DECK_COUNT' }, 'tda-2024 #35-E'],
    [{ incident: 'DECK_FACE_UP' }, 'tda-2024 #35-A-1'],
    [{ incident: 'DECK_UNKNOWN_CARD' }, 'tda-2024 #35-A-6, #35-E'],
    [{ incident: 'BUTTON_MISPLACED', headsUp: false, deadButton: true }, 'tda-2024 #32, #34-A'],
    [{ incident: 'BUTTON_MISPLACED', headsUp: true, deadButton: false }, 'tda-2024 #34-B'],
    [
      { incident: 'BUTTON_MISPLACED', headsUp: false, deadButton: false, afterSubstantialAction: true },
      'tda-2024 #34-A',
    ],
    [{ incident: 'CARD_TO_WRONG_SEAT' }, 'tda-2024 #35-A-3'],
    [{ incident: 'CARD_TO_WRONG_SEAT', firstCardToWrongSeat: true }, 'tda-2024 #35-A-2, #35-A-3'],
    [{ incident: 'SEAT_SKIPPED' }, 'tda-2024 #35-A-4, #35-A-5'],
    [{ incident: 'SEAT_SKIPPED', firstCardToWrongSeat: true }, 'tda-2024 #35-A-2'],
    [{ incident: 'EXTRA_CARD', afterSubstantialAction: false }, 'tda-2024 #35-A-5'],
    [{ incident: 'EXTRA_CARD', afterSubstantialAction: true }, 'tda-2024 #35-D, #38 (Add. §38 ex. 1-B)'],
    [{ incident: 'MISSING_CARD', atButton: true, afterSubstantialAction: true }, 'tda-2024 #37'],
    [
      { incident: 'MISSING_CARD', atButton: false, afterSubstantialAction: true },
      'tda-2024 #35-D, #38 (Add. §38 ex. 1-A)',
    ],
    [
      { incident: 'MISSING_CARD', atButton: false, afterSubstantialAction: false, noCard: true },
      'tda-2024 #35-A-4',
    ],
    [{ ...exposed, by: 'player' }, 'tda-2024 #68, #71-B'],
    [{ ...exposed, dealPosition: 2 }, 'tda-2024 #35-A-7'],
    [{ ...exposed, dealerExposedCount: 2 }, 'tda-2024 #35-A-7'],
    [{ ...exposed, toButton: true }, 'tda-2024 #35-B'],
    [exposed, 'tda-2024 #35-A-7, #35-B'],
    [{ incident: 'BOXED_CARD', duringDeal: true, nth: 2, bettingPossible: true }, 'tda-2024 #35-A-1'],
    [{ incident: 'FOREIGN_CARD', nonStandard: true }, 'tda-2024 #35-A-6'],
    [{ incident: 'FOREIGN_CARD', nonStandard: true, afterSubstantialAction: true }, 'tda-2024 #35-D'],
    [{ incident: 'DUPLICATE_CARD' }, 'tda-2024 #35-E'],
    [{ incident: 'PREMATURE_FLOP', ...premature }, 'tda-2024 RP-5-A (#39-C, #39-D)'],
    [{ incident: 'PREMATURE_FLOP', ...premature, burnIdentifiable: false }, 'tda-2024 RP-5-A, #38'],
    [{ incident: 'PREMATURE_TURN', ...premature }, 'tda-2024 RP-5-B'],
    [{ incident: 'PREMATURE_RIVER', ...premature }, 'tda-2024 RP-5-C'],
    [{ incident: 'PREMATURE_RIVER', ...premature, burnAmongPremature: true }, 'tda-2024 RP-14'],
    [{ incident: 'FLOP_NO_BURN', identifiable: true }, 'tda-2024 #39-B'],
    [{ incident: 'FLOP_FOUR_CARDS', identifiable: true, burnIdentifiable: true }, 'tda-2024 #39-A'],
    [{ incident: 'BURN_EXPOSED' }, 'tda-2024 #38'],
  ];
  for (const [facts, citation] of cases) {
    it(`${facts.incident} → ${citation}`, () => {
      expect(t24.decide(facts).rule).toBe(citation);
    });
  }

  it('prompts and the button rule', () => {
    expect(t24.promptRule('ALL_IN_SHOWDOWN')).toBe('tda-2024 #16 (Add. §16)');
    expect(t24.promptRule('NEXT_HAND')).toBe('tda-2024 #32');
    expect(t24.button).toEqual({ rule: 'dead-button', cite: 'tda-2024 #32', headsUp: 'tda-2024 #34-B' });
  });
});

describe('tda-2024: rulings the catalogue leaves to this file', () => {
  it('SEAT_SKIPPED found after substantial action: no misdeal, the hand goes on (#35-D)', () => {
    const decision = t24.decide({ incident: 'SEAT_SKIPPED', afterSubstantialAction: true });
    expect(decision).toMatchObject({ ruling: 'CONTINUE', rule: 'tda-2024 #35-D', floor: false });
    expect(decision.reason?.en).toBe('after substantial action no misdeal may be declared: the hand goes on');
  });

  it('the flop stands after any action, with the reason RULINGS-tda-2024.md words', () => {
    const decision = t24.decide({
      incident: 'FLOP_NO_BURN',
      identifiable: false,
      actionSinceFirstFlopCard: true,
    });
    expect(decision.reason?.en).toBe(
      'the flop stands: action has occurred (tda-2024 #39-B); burn one card for the turn',
    );
  });

  it('a mucked tabled winner is retrieved (#13-C, #14), the floor called when it cannot be with certainty (#13-B)', () => {
    const decision = t24.decide({ incident: 'WINNING_HAND_MUCKED' });
    expect([decision.ruling, decision.rule]).toEqual(['RETRIEVE_WINNING_HAND', 'tda-2024 #13-C, #14']);
    expect(decision.reason?.en).toBe(
      'if the two cards cannot be retrieved with certainty, call the floor (#13-B)',
    );
  });

  it('an unregistered tag is no fouled deck unless the house says so', () => {
    expect(t24.decide({ incident: 'FOREIGN_CARD' }).reason?.en).toBe(
      '#35-E leaves other fouling conditions to house policy: no written procedure in tda-2024',
    );
  });
});

describe('tda-2024: procedures', () => {
  it('opens with the floor’s call exactly where its decision has a floor', () => {
    for (const { facts } of CATALOGUE) {
      const { decision, steps } = rule(t24, facts);
      if (decision.ruling === 'CALL_FLOOR') continue;
      expect(steps[0]?.code === 'CALL_FLOOR', `${facts.incident} ${decision.ruling}`).toBe(decision.floor);
    }
  });

  it('#39-A: the floor scrambles four cards and draws the turn burn; the turn comes without another burn', () => {
    const four = { incident: 'FLOP_FOUR_CARDS', identifiable: true, burnIdentifiable: true } as const;
    const { steps } = rule(t24, four);
    expect(codes(steps)).toEqual([
      'CALL_FLOOR',
      'SCRAMBLE',
      'DRAW_AT_RANDOM',
      'REST_ARE_FLOP',
      'TURN_WITHOUT_BURN',
    ]);
    expect(steps[2]?.check).toBe('card-to-burn');
    expect(steps[2]?.text.en).toBe(
      'The floor draws one at random and puts it on the burn spot: it is the turn burn card.',
    );
    // Four board cards and no flop burn: the drawn card is the flop's burn, the turn has its own (A8).
    const noBurn = rule(t24, { ...four, burnIdentifiable: false }).steps;
    expect(codes(noBurn)).toEqual(['CALL_FLOOR', 'SCRAMBLE', 'DRAW_AT_RANDOM', 'REST_ARE_FLOP']);
    expect(noBurn[2]?.text.fr).toBe(
      'Le floor en tire une au hasard et la pose sur les brûlées : c’est la brûlée du flop.',
    );
  });

  it('#39-B: nobody acts; the cards out are scrambled, or the one card out is the burn; no floor', () => {
    const several = rule(t24, { incident: 'FLOP_NO_BURN', identifiable: false });
    expect(several.decision.floor).toBe(false);
    expect(codes(several.steps)).toEqual([
      'HOLD_ACTION',
      'SCRAMBLE',
      'DRAW_AT_RANDOM',
      'COMPLETE_FLOP_NO_BURN',
    ]);
    const one = rule(t24, { incident: 'FLOP_NO_BURN', identifiable: true });
    expect(codes(one.steps)).toEqual(['HOLD_ACTION', 'FIRST_TO_BURN', 'COMPLETE_FLOP_NO_BURN']);
  });

  it('RP-5: no floor, the stub reshuffled face down (#39-D); the other profiles keep their own steps', () => {
    const facts = { incident: 'PREMATURE_TURN', ...premature } as const;
    expect(codes(rule(t24, facts).steps)).toEqual([
      'TAKE_BACK',
      'FINISH_BETTING',
      'SHUFFLE_STUB_FACE_DOWN',
      'REDEAL_STREET',
    ]);
    expect(codes(procedure('PREMATURE_RESHUFFLE_NO_BURN', facts))).toEqual([
      'CALL_FLOOR',
      'TAKE_BACK',
      'FINISH_BETTING',
      'SHUFFLE_WITH_STUB',
      'REDEAL_STREET',
    ]);
  });

  it('SCRAP_CARD: set apart, replaced as where it lay says; in a hand, under the floor', () => {
    const scrap = (zone: 'seat' | 'board' | 'burn') =>
      rule(t24, { incident: 'FOREIGN_CARD', nonStandard: true, afterSubstantialAction: true, zone });
    expect(codes(scrap('board').steps)).toEqual([
      'SHOW_SCRAP',
      'SET_APART',
      'REPLACE_SCRAP',
      'REMOVE_FROM_DECK',
    ]);
    expect(scrap('board').steps.map((step) => step.check)).toEqual([
      undefined,
      'card-lifted',
      undefined,
      'shuffler-verified',
    ]);
    expect(scrap('burn').steps[2]?.text.en).toBe(
      'On the burn spot, burn the next card, so that the street still gets one real burn.',
    );
    const inHand = scrap('seat');
    expect(inHand.decision.floor).toBe(true);
    expect(codes(inHand.steps)).toEqual([
      'CALL_FLOOR',
      'SHOW_SCRAP',
      'SET_APART',
      'REPLACE_SCRAP',
      'REMOVE_FROM_DECK',
    ]);
  });
});

describe('ALL_IN_SHOWDOWN trigger', () => {
  const closed = { allIn: 1, bettingPossible: false };
  it('tda-2024 #16: one all-in player, once no more betting is possible or the river round closed', () => {
    expect(allInShowdownDue(t24, closed)).toBe(true);
    expect(allInShowdownDue(t24, { allIn: 1, bettingPossible: true })).toBe(false);
    expect(allInShowdownDue(t24, { allIn: 1, bettingPossible: true, finalRoundClosed: true })).toBe(true);
    expect(allInShowdownDue(t24, { allIn: 0, bettingPossible: false, finalRoundClosed: true })).toBe(false);
  });

  it('the other profiles keep RULINGS.md’s: two or more all-in and no more betting', () => {
    for (const id of ['main-event-2014', 'french-casino', 'tda-2007'] as const) {
      expect(allInShowdownDue(PROFILES[id], closed)).toBe(false);
      expect(allInShowdownDue(PROFILES[id], { allIn: 2, bettingPossible: false })).toBe(true);
      expect(
        allInShowdownDue(PROFILES[id], { allIn: 2, bettingPossible: true, finalRoundClosed: true }),
      ).toBe(false);
    }
  });
});
