import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { awardPot, type Rake } from '../../../src/domain/award-split.js';
import { uncalledBet } from '../../../src/domain/contributions.js';
import { layerPots, type Pot, sidePotMade } from '../../../src/domain/pots.js';
import {
  type RefSeat,
  referencePots,
  referenceRake,
  referenceSplit,
  referenceUncalled,
} from '../../reference/pot-calculator.js';
import { type PlayedHand, playedHand } from './pots-hands.js';

const RUNS = { numRuns: 500 };

function finalTruth(h: PlayedHand): RefSeat[] {
  return h.truth.at(-1) as RefSeat[];
}

/** Winners of each pot: a non-empty part of its eligible seats, chosen by `bits`. */
function winnersOf(pot: Pot, bits: number): number[] {
  const some = pot.eligible.filter((_, i) => (bits >> i) & 1);
  return some.length > 0 ? some : pot.eligible.slice(0, 1);
}

const rakeArb: fc.Arbitrary<Rake | undefined> = fc.option(
  fc.record({ percent: fc.integer({ min: 1, max: 10 }), cap: fc.integer({ min: 0, max: 400 }) }),
  { nil: undefined },
);

describe('pots against the reference calculator', () => {
  it('every amount keyed: the same uncalled bet and the same pots', () => {
    fc.assert(
      fc.property(playedHand(false), (h) => {
        expect(uncalledBet(h.hand)).toEqual(referenceUncalled(finalTruth(h)));
        const pots = layerPots(h.hand);
        expect(pots).toEqual(referencePots(finalTruth(h)).map((p, pot) => ({ pot, ...p })));
      }),
      RUNS,
    );
  });

  it('the pots hold every contribution less the uncalled part', () => {
    fc.assert(
      fc.property(playedHand(false), (h) => {
        const truth = finalTruth(h);
        const put = truth.reduce((sum, s) => sum + s.ante + s.total, 0);
        const inPots = (layerPots(h.hand) ?? []).reduce((sum, p) => sum + (p.amount as number), 0);
        expect(inPots).toBe(put - (uncalledBet(h.hand)?.amount ?? 0));
      }),
      RUNS,
    );
  });

  it('a round makes a side pot exactly when the reference has one more after it', () => {
    fc.assert(
      fc.property(playedHand(false), (h) => {
        const sides = (truth: RefSeat[]) => referencePots(truth).length - 1;
        h.truth.forEach((truth, r) => {
          const before = r === 0 ? 0 : sides(h.truth[r - 1] as RefSeat[]);
          const prefix = { ...h.hand, rounds: h.hand.rounds.slice(0, r + 1) };
          expect(sidePotMade(prefix)).toBe(sides(truth) > before);
        });
      }),
      RUNS,
    );
  });

  it('amounts keyed or not: never a wrong amount, never a wrong pot', () => {
    fc.assert(
      fc.property(playedHand(true), (h) => {
        const truth = finalTruth(h);
        const reference = referencePots(truth);
        const pots = layerPots(h.hand);
        if (!h.hidden) expect(pots).toEqual(reference.map((p, pot) => ({ pot, ...p })));
        const back = uncalledBet(h.hand);
        const due = referenceUncalled(truth);
        if (back === null) expect(due === null || pots === null).toBe(true);
        else {
          expect(back.seat).toBe(due?.seat ?? back.seat);
          if (back.amount !== null) expect(back.amount).toBe(due?.amount);
        }
        if (pots === null) return;
        expect(pots.length).toBeGreaterThanOrEqual(reference.length);
        pots.forEach((p, i) => {
          const ref = reference[i];
          if (ref === undefined) expect(p.amount).toBeNull();
          else {
            expect(p.eligible).toEqual(ref.eligible);
            if (p.amount !== null) expect(p.amount).toBe(ref.amount);
          }
        });
      }),
      RUNS,
    );
  });
});

describe('splits against the reference calculator', () => {
  it('each pot less its rake, in equal chipUnits, the odd ones from the button', () => {
    fc.assert(
      fc.property(
        playedHand(false),
        rakeArb,
        fc.array(fc.nat(), { minLength: 8, maxLength: 8 }),
        (h, rake, bits) => {
          const pots = layerPots(h.hand) as Pot[];
          const rules = { button: h.button, chipUnit: h.chipUnit, rake };
          const rakes = rake
            ? referenceRake(
                pots.map((p) => p.amount as number),
                rake.percent,
                rake.cap,
                h.chipUnit,
              )
            : pots.map(() => 0);
          let raked = 0;
          pots.forEach((p, i) => {
            const winners = winnersOf(p, bits[i] ?? 0);
            const award = awardPot(pots, p.pot, winners, rules);
            const net = (p.amount as number) - (rakes[i] as number);
            expect(award.rake).toBe(rakes[i]);
            expect(award.shares).toEqual(referenceSplit(net, winners, h.button, h.chipUnit));
            const shares = Object.values(award.shares ?? {});
            expect(shares.reduce((a, c) => a + c, 0)).toBe(net);
            expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(h.chipUnit);
            raked += award.rake as number;
          });
          expect(raked).toBeLessThanOrEqual(rake?.cap ?? 0);
        },
      ),
      RUNS,
    );
  });
});
