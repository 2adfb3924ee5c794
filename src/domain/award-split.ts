import type { Pot } from './pots.js';
import { clockwiseAfter } from './seats.js';

/**
 * Awarding the pots (RULINGS.md "Pots and showdown", award): the house rake off each pot, then equal
 * whole chipUnits to its winners, the odd chips from the first seat left of the button.
 */

/** A cash game's house cut: `percent` of each pot, at most `cap` over the hand. */
export interface Rake {
  percent: number;
  cap: number;
}

export interface SplitRules {
  button: number;
  /** The smallest chip in play. */
  chipUnit: number;
  rake?: Rake;
}

export interface Award extends Pot {
  winners: number[];
  /** The house's cut of this pot; null when the pot's amount or an earlier pot's is unknown. */
  rake: number | null;
  /** What each winner gets: the pot less the rake; null when that is unknown. */
  shares: Record<number, number> | null;
}

/** Side pots before the main pot, the highest level first. */
export function awardOrder<T extends Pick<Pot, 'pot'>>(pots: readonly T[]): T[] {
  return [...pots].sort((a, b) => b.pot - a.pot);
}

/** Pot `pot` of the hand's `pots` to `winners`: the rake depends on the pots raked before it. */
export function awardPot(
  pots: readonly Pot[],
  pot: number,
  winners: readonly number[],
  rules: SplitRules,
): Award {
  const i = pots.findIndex((p) => p.pot === pot);
  if (i < 0) throw new RangeError(`no pot ${pot}`);
  const p = pots[i] as Pot;
  const rake = houseRake(pots, rules.rake, rules.chipUnit)[i] as number | null;
  const shares =
    p.amount === null || rake === null
      ? null
      : splitPot(p.amount - rake, winners, rules.button, rules.chipUnit);
  return { ...p, eligible: [...p.eligible], winners: [...winners], rake, shares };
}

/**
 * Each pot's rake, in the order of `pots`: percent of the pot rounded down to the chipUnit, the main pot
 * raked first, until the cap (also in whole chips) is reached. Once a cut is unknown, so is what is left of
 * the cap. The percent counts to a hundredth, in integers: 4.1 % of 1000 is 41, not 40.99….
 */
export function houseRake(pots: readonly Pot[], rake: Rake | undefined, chipUnit: number): (number | null)[] {
  if (rake === undefined) return pots.map(() => 0);
  const basisPoints = Math.round(rake.percent * 100);
  const cuts = new Map<Pot, number | null>();
  let left: number | null = wholeChips(rake.cap, chipUnit);
  for (const p of [...pots].sort((a, b) => a.pot - b.pot)) {
    const full =
      p.amount === null ? null : wholeChips(Math.floor((p.amount * basisPoints) / 10000), chipUnit);
    if (full === 0 || left === 0) cuts.set(p, 0);
    else if (full === null || left === null) {
      cuts.set(p, null);
      left = null;
    } else {
      const cut = Math.min(full, left);
      cuts.set(p, cut);
      left -= cut;
    }
  }
  return pots.map((p) => cuts.get(p) as number | null);
}

/**
 * `amount` split in equal whole chipUnits; the chipUnits left over go one at a time to the winners from
 * the first seat left of the button, clockwise, and less than a chipUnit to the next one in that line.
 */
export function splitPot(
  amount: number,
  winners: readonly number[],
  button: number,
  chipUnit: number,
): Record<number, number> {
  if (winners.length === 0) throw new RangeError('a pot needs a winner');
  const line = clockwiseAfter(button, winners);
  const units = Math.floor(amount / chipUnit);
  const each = Math.floor(units / line.length);
  const odd = units % line.length;
  const shares: Record<number, number> = {};
  line.forEach((seat, i) => {
    shares[seat] = (each + (i < odd ? 1 : 0)) * chipUnit;
  });
  // Less than a chipUnit (often nothing) to the next winner in that line.
  const next = line[odd] as number;
  shares[next] = (shares[next] as number) + amount - units * chipUnit;
  return shares;
}

function wholeChips(amount: number, chipUnit: number): number {
  return Math.floor(amount / chipUnit) * chipUnit;
}
