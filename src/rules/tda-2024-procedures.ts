import { CALL_THE_FLOOR, redealPremature, step } from './procedures.js';
import type { IncidentFacts, Procedure, RulingCode, Step } from './types.js';

/**
 * The procedures tda-2024 writes out step by step where the other profiles share a shorter one
 * (RULINGS-tda-2024.md §4.2): #39-A and #39-B for FLOP_SCRAMBLE, RP-5 with #39-D for the premature
 * reshuffles. RP-5 and #39-B name no floor, so only #39-A opens with the floor's call.
 */

/** #39-D: any reshuffle of the stub is face down, the muck and the burns left out. */
const STUB_FACE_DOWN = step('SHUFFLE_STUB_FACE_DOWN');

/** #39-A: a four-card flop, scrambled by the floor; #39-B: a flop dealt without a burn, before any action. */
function flopScramble(facts: IncidentFacts): Step[] {
  if (facts.incident === 'FLOP_FOUR_CARDS') {
    // With no flop burn out, the drawn card is the flop's burn and the turn gets its own (A8).
    const burn = facts.burnIdentifiable ? 'turn' : 'flop';
    const steps: Step[] = [
      CALL_THE_FLOOR,
      step('SCRAMBLE', { cards: 'four' }),
      { ...step('DRAW_AT_RANDOM', { by: 'floor', burn }), check: 'card-to-burn' },
      step('REST_ARE_FLOP'),
    ];
    return burn === 'turn' ? [...steps, step('TURN_WITHOUT_BURN')] : steps;
  }
  // A flop card that came alone in its cycle is the only one out: it is simply the burn (A7).
  const alone = facts.incident === 'FLOP_NO_BURN' && facts.identifiable;
  const toBurn: Step[] = alone
    ? [{ ...step('FIRST_TO_BURN', { street: 'flop' }), check: 'card-to-burn' }]
    : [
        step('SCRAMBLE', { cards: 'out' }),
        { ...step('DRAW_AT_RANDOM', { by: 'dealer', burn: 'flop' }), check: 'card-to-burn' },
      ];
  return [step('HOLD_ACTION'), ...toBurn, step('COMPLETE_FLOP_NO_BURN')];
}

export const TDA_2024_PROCEDURES: Partial<Record<RulingCode, Procedure>> = {
  FLOP_SCRAMBLE: flopScramble,
  PREMATURE_RESHUFFLE_NO_BURN: (facts) => redealPremature(facts, false, STUB_FACE_DOWN),
  PREMATURE_RESHUFFLE_WITH_BURN: (facts) => redealPremature(facts, true, STUB_FACE_DOWN),
};
