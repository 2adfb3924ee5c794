import { contributions, type HandBets, total, uncalledReturn } from './contributions.js';

/**
 * The main pot and the side pots (RULINGS.md "Pots and showdown"): contributions, less the uncalled
 * part, layered at each all-in total.
 */

export interface Pot {
  /** 0 for the main pot, then 1, 2, … by level, lowest first. */
  pot: number;
  /** Null when it depends on an amount never known. */
  amount: number | null;
  /** Players still in the hand who paid up to its level, in seat order. */
  eligible: number[];
}

/** A player's chips in the layers once the uncalled part is back. */
interface Stake {
  seat: number;
  live: number | null;
  /** What it surely put in, when `live` is unknown. */
  least: number;
  inHand: boolean;
  allIn: boolean;
}

/** The pots, main pot first; null when they cannot be layered (an all-in total is unknown): `SHOWDOWN_RANKING`. */
export function layerPots(hand: HandBets): Pot[] | null {
  const stakes = stakesOf(hand);
  if (stakes === null) return null;
  const levels = allInLevels(stakes);
  if (levels === null) return null;
  const top = levels.at(-1) ?? 0;
  const able = stakes.filter((s) => s.inHand && !s.allIn);
  // A player still able to bet matched every bet: it paid at least every all-in total.
  for (const s of able) s.least = Math.max(s.least, top);
  const pots = levels.map((hi, i) => pot(i, stakes, levels[i - 1] ?? 0, hi));
  const above = pot(levels.length, stakes, top, Number.POSITIVE_INFINITY);
  const under = pots.at(-1);
  if (able.length === 0 && under !== undefined) {
    // Everyone still in is all-in: folded chips above the last all-in go with the pot below (no one to win them alone).
    under.amount = under.amount === null || above.amount === null ? null : under.amount + above.amount;
  } else if (above.amount !== 0 || pots.length === 0) pots.push(above);
  const main = pots[0] as Pot;
  if (main.amount !== null) main.amount += hand.ante * hand.players.length;
  return pots;
}

/**
 * The hand's last round made a side pot that was not there before it (`BUILD_SIDE_POTS`). Pots that
 * cannot be layered count none: an all-in total unknown at a round's end stays unknown after it.
 */
export function sidePotMade(hand: HandBets): boolean {
  const before = { ...hand, rounds: hand.rounds.slice(0, -1) };
  return sidePots(hand) > sidePots(before);
}

function sidePots(hand: HandBets): number {
  return Math.max(0, (layerPots(hand)?.length ?? 0) - 1);
}

function stakesOf(hand: HandBets): Stake[] | null {
  const contribs = contributions(hand);
  const back = uncalledReturn(hand, contribs);
  if (back === 'unknown') return null;
  return contribs.map((c) => {
    const rounds = back?.seat === c.seat ? c.rounds.with(back.round, back.rest) : c.rounds;
    return {
      seat: c.seat,
      live: total(rounds),
      least: total(rounds.map((r) => r ?? 0)) as number,
      inHand: !c.folded,
      allIn: c.allIn,
    };
  });
}

/** The distinct all-in totals of the players still in the hand, lowest first; null when one is unknown. */
function allInLevels(stakes: readonly Stake[]): number[] | null {
  const totals = stakes.filter((s) => s.inHand && s.allIn).map((s) => s.live);
  if (totals.includes(null)) return null;
  return [...new Set(totals as number[])].sort((a, b) => a - b);
}

/** The layer above `lo` up to `hi`: each stake's chips in it, eligible to those still in who reach `hi`. */
function pot(i: number, stakes: readonly Stake[], lo: number, hi: number): Pot {
  const parts = stakes.map((s) => {
    if (s.live !== null) return Math.min(Math.max(s.live - lo, 0), hi - lo);
    return s.least >= hi ? hi - lo : null;
  });
  const eligible = stakes.filter((s) => s.inHand && (!s.allIn || (s.live as number) >= hi));
  return { pot: i, amount: total(parts), eligible: eligible.map((s) => s.seat).sort((a, b) => a - b) };
}
