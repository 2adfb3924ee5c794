import type { Betting, BettingStreet } from './betting.js';

/**
 * What each player put in the hand (RULINGS.md "Pots and showdown": contributions, uncalled bet).
 * Amounts are never guessed: one keyed without its amount and seen by no bet zone stays null.
 */

/** A betting round as it ended: the table machine's betting model when the round closed. */
export type Round = Pick<Betting, 'street' | 'bets' | 'folded' | 'allIn'>;

/** A seat's bet-zone chip total in a round (`chips: bet:N`), by street, where a chip sensor reported one. */
export type BetZoneTotals = Partial<Record<BettingStreet, Readonly<Record<number, number>>>>;

export interface HandBets {
  /** Seats dealt into the hand. */
  players: readonly number[];
  /** Each player's ante: dead money, in the main pot. */
  ante: number;
  /** The hand's betting rounds, preflop first, each as it ended; the last one's folds and all-ins are the hand's. */
  rounds: readonly Round[];
  betZones?: BetZoneTotals;
}

export interface Contribution {
  seat: number;
  ante: number;
  /** Its last total in each round of `HandBets.rounds` (a posted blind is in the preflop one); null when unknown. */
  rounds: (number | null)[];
  folded: boolean;
  allIn: boolean;
}

export function contributions(hand: HandBets): Contribution[] {
  const last = hand.rounds.at(-1);
  return hand.players.map((seat) => ({
    seat,
    ante: hand.ante,
    rounds: hand.rounds.map((round) => roundTotal(round, seat, hand.betZones)),
    folded: last?.folded.includes(seat) ?? false,
    allIn: last?.allIn.includes(seat) ?? false,
  }));
}

/** No entry: the seat put nothing in that round. A bet zone's zero is chips not down yet, not a total. */
function roundTotal(round: Round, seat: number, zones: BetZoneTotals | undefined): number | null {
  const bet = round.bets[seat];
  if (bet !== null) return bet ?? 0;
  const seen = zones?.[round.street]?.[seat];
  return seen !== undefined && seen > 0 ? seen : null;
}

/** The sum, or null when one of the amounts is unknown. */
export function total(amounts: readonly (number | null)[]): number | null {
  let sum = 0;
  for (const a of amounts) {
    if (a === null) return null;
    sum += a;
  }
  return sum;
}

export interface UncalledBet {
  seat: number;
  /** Null when an amount it depends on is unknown: then it may also be nothing. */
  amount: number | null;
}

/** Where the uncalled part of a bet is, and what its owner's total in that round comes down to. */
export interface UncalledReturn extends UncalledBet {
  round: number;
  /** The owner's total in that round once the uncalled part is back: what the others matched. */
  rest: number | null;
}

/** The part of the last bet or raise no one called, for `RETURN_UNCALLED`; null when there is none. */
export function uncalledBet(hand: HandBets): UncalledBet | null {
  const back = uncalledReturn(hand, contributions(hand));
  return back === null || back === 'unknown' ? null : { seat: back.seat, amount: back.amount };
}

/**
 * The uncalled part, judged in the last round anyone put chips in (no bet can follow an uncalled one:
 * nobody is left to call it). Rounds are closed: every player still in and able to bet matched the top
 * bet, so two of them mean it was called, and one is its owner (an uncontested big blind too) against
 * the most any other put in. With nobody able to bet, the highest all-in is the bet: 'unknown' when an
 * amount hides who that is, and then its level is unknown too.
 */
export function uncalledReturn(
  hand: HandBets,
  contribs: readonly Contribution[],
): UncalledReturn | null | 'unknown' {
  const round = hand.rounds.findLastIndex((_, i) => contribs.some((c) => c.rounds[i] !== 0));
  const closed = hand.rounds[round];
  if (closed === undefined) return null;
  const bets = contribs.map((c) => ({ seat: c.seat, bet: c.rounds[round] ?? null }));
  const able = bets.filter((b) => !closed.folded.includes(b.seat) && !closed.allIn.includes(b.seat));
  if (able.length >= 2) return null;
  const owner = able[0] ?? highest(bets);
  if (owner === null) return 'unknown';
  const others = bets.filter((b) => b.seat !== owner.seat);
  const called = Math.max(0, ...others.map((b) => b.bet ?? 0));
  if (owner.bet !== null && called >= owner.bet) return null;
  const rest = others.some((b) => b.bet === null) ? null : called;
  const amount = owner.bet === null || rest === null ? null : owner.bet - rest;
  return { round, seat: owner.seat, amount, rest };
}

/** The bet above all others, or null when an unknown amount could be it. */
function highest<T extends { bet: number | null }>(bets: readonly T[]): T | null {
  if (bets.some((b) => b.bet === null)) return null;
  return bets.reduce((a, b) => ((b.bet as number) > (a.bet as number) ? b : a));
}
