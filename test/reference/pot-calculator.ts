/**
 * An independent pot calculator, the oracle of the property tests of src/domain/pots.ts and
 * award-split.ts. It shares no code with them and works another way: from each player's whole-hand
 * total (no betting rounds), the uncalled part is the top total over the next one, and the pots are
 * filled chip by chip, each chip going to the pot of the height it lies at. Splits deal the pot out one
 * chipUnit at a time around the winners. Written for clarity, not speed.
 */

export interface RefSeat {
  seat: number;
  ante: number;
  /** Everything it bet in the hand, ante aside. */
  total: number;
  folded: boolean;
  allIn: boolean;
}

export interface RefPot {
  amount: number;
  eligible: number[];
}

export interface RefUncalled {
  seat: number;
  amount: number;
}

export function referenceUncalled(seats: readonly RefSeat[]): RefUncalled | null {
  const byTotal = [...seats].sort((a, b) => b.total - a.total);
  const top = byTotal[0];
  const next = byTotal[1]?.total ?? 0;
  if (top === undefined || top.total === next) return null;
  return { seat: top.seat, amount: top.total - next };
}

export function referencePots(seats: readonly RefSeat[]): RefPot[] {
  const back = referenceUncalled(seats);
  const height = new Map(seats.map((s) => [s.seat, s.total - (back?.seat === s.seat ? back.amount : 0)]));
  const reached = (s: RefSeat) => height.get(s.seat) ?? 0;
  const levels = [...new Set(seats.filter((s) => !s.folded && s.allIn).map(reached))].sort((a, b) => a - b);
  const amounts: number[] = new Array(levels.length + 1).fill(0);
  for (const s of seats) {
    for (let chip = 1; chip <= reached(s); chip++) {
      const i = levels.findIndex((level) => chip <= level);
      const pot = i < 0 ? levels.length : i;
      amounts[pot] = (amounts[pot] ?? 0) + 1;
    }
  }
  const pots: RefPot[] = levels.map((level, i) => ({
    amount: amounts[i] ?? 0,
    eligible: seats.filter((s) => !s.folded && reached(s) >= level).map((s) => s.seat),
  }));
  const ceiling = Math.max(...seats.map(reached));
  const last: RefPot = {
    amount: amounts[levels.length] ?? 0,
    eligible: seats.filter((s) => !s.folded && reached(s) === ceiling).map((s) => s.seat),
  };
  const below = pots[pots.length - 1];
  if (last.amount > 0 && last.eligible.length === 0 && below !== undefined) below.amount += last.amount;
  else if (last.amount > 0 || pots.length === 0) pots.push(last);
  (pots[0] as RefPot).amount += seats.reduce((sum, s) => sum + s.ante, 0);
  for (const p of pots) p.eligible.sort((a, b) => a - b);
  return pots;
}

/** Deals `amount` out one chipUnit at a time, clockwise from the first winner after the button. */
export function referenceSplit(
  amount: number,
  winners: readonly number[],
  button: number,
  chipUnit: number,
): Record<number, number> {
  const distance = (seat: number) => (seat > button ? seat - button : seat - button + 1000);
  const line = [...winners].sort((a, b) => distance(a) - distance(b));
  const shares: Record<number, number> = {};
  for (const seat of line) shares[seat] = 0;
  let left = amount;
  let turn = 0;
  while (left >= chipUnit) {
    const seat = line[turn % line.length] as number;
    shares[seat] = (shares[seat] ?? 0) + chipUnit;
    left -= chipUnit;
    turn++;
  }
  if (left > 0) {
    const seat = line[turn % line.length] as number;
    shares[seat] = (shares[seat] ?? 0) + left;
  }
  return shares;
}

/** Each pot's rake, main pot first (`amounts` in pot order); `percent` a whole number. */
export function referenceRake(
  amounts: readonly number[],
  percent: number,
  cap: number,
  chipUnit: number,
): number[] {
  let left = cap - (cap % chipUnit);
  return amounts.map((amount) => {
    let cut = Math.floor((amount * percent) / 100);
    cut -= cut % chipUnit;
    cut = Math.min(cut, left);
    left -= cut;
    return cut;
  });
}
