import type { ActionRecord } from '../rules/types.js';
import type { Act } from './events.js';

export type BettingStreet = 'preflop' | 'flop' | 'turn' | 'river';

/**
 * One hand's betting: the current round plus who folded or is all-in. Amounts are each seat's
 * total in the current round ("raise to 300"). Values are replaced, never mutated.
 */
export interface Betting {
  street: BettingStreet;
  /** Action order of this round: every player still in the hand, first to act first. */
  order: number[];
  folded: number[];
  allIn: number[];
  bets: Record<number, number>;
  currentBet: number;
  /** Seats that acted since the last bet or raise. */
  acted: number[];
  /** Pending seats that a later player's out-of-turn action went past. */
  passed: number[];
  lastActor: number | null;
  /** The dealer collected the bets into the pot after the last action: the round is over. */
  collected: boolean;
  /** Voluntary actions of the whole hand, in order (posted blinds are not actions). */
  actions: ActionRecord[];
}

export interface BlindPosts {
  sb: number | null;
  bb: number;
  amounts: readonly [number, number];
  /** Players all-in from posting (a short stack's blind or ante). */
  allIn?: readonly number[];
}

/** Preflop round: blinds posted, action from the player after the big blind. */
export function openBetting(order: readonly number[], blinds: BlindPosts): Betting {
  const bets: Record<number, number> = {};
  if (blinds.sb !== null) bets[blinds.sb] = blinds.amounts[0];
  bets[blinds.bb] = blinds.amounts[1];
  return {
    street: 'preflop',
    order: [...order],
    folded: [],
    allIn: [...(blinds.allIn ?? [])],
    bets,
    currentBet: blinds.amounts[1],
    acted: [],
    passed: [],
    lastActor: null,
    collected: false,
    actions: [],
  };
}

/** A new betting round after a board street; `order` is the postflop order of the players. */
export function nextRound(b: Betting, street: BettingStreet, order: readonly number[]): Betting {
  return {
    ...b,
    street,
    order: order.filter((s) => !b.folded.includes(s)),
    bets: {},
    currentBet: 0,
    acted: [],
    passed: [],
    lastActor: null,
    collected: false,
  };
}

const PUTS_CHIPS: ReadonlySet<Act> = new Set(['call', 'bet', 'raise', 'allin']);

/** Applies one action. Actions by seats not in the hand are ignored (nothing to judge). */
export function applyAction(b: Betting, seat: number, act: Act, amount?: number): Betting {
  if (!b.order.includes(seat) || b.folded.includes(seat) || b.allIn.includes(seat)) return b;
  const next: Betting = {
    ...b,
    bets: { ...b.bets },
    acted: [...b.acted],
    passed: passedAfter(b, seat),
    actions: [...b.actions, { seat, chips: PUTS_CHIPS.has(act) }],
    lastActor: seat,
    collected: false,
  };
  if (act === 'fold') next.folded = [...b.folded, seat];
  if (act === 'call') next.bets[seat] = amount ?? b.currentBet;
  if (act === 'bet' || act === 'raise' || act === 'allin') next.bets[seat] = amount ?? b.currentBet;
  if (act === 'allin') next.allIn = [...b.allIn, seat];
  const total = next.bets[seat] ?? 0;
  // A bet or raise keyed without its amount still reopens the action.
  const raises = total > b.currentBet || (amount === undefined && (act === 'bet' || act === 'raise'));
  if (raises) {
    next.currentBet = Math.max(total, b.currentBet);
    next.acted = [];
  }
  next.acted.push(seat);
  return next;
}

/**
 * The pending seats `seat`'s action went past, after it: those already passed, then those from the
 * seat whose turn it was up to `seat`, each once and without `seat` itself.
 */
function passedAfter(b: Betting, seat: number): number[] {
  const passed = b.passed.filter((s) => s !== seat);
  const due = pending(b);
  const skipped = due.indexOf(seat);
  for (let i = 0; i < skipped; i++) {
    const s = due[i] as number;
    if (!passed.includes(s)) passed.push(s);
  }
  return passed;
}

/** Players still in the hand (not folded). */
export function inHand(b: Betting): number[] {
  return b.order.filter((s) => !b.folded.includes(s));
}

/** Players still in the hand who can still bet. */
function withChips(b: Betting): number[] {
  return inHand(b).filter((s) => !b.allIn.includes(s));
}

/**
 * Seats whose action is pending, in turn order from the one whose turn it is (after the last actor).
 * One pass over the order, without intermediate lists: it runs several times for every action.
 */
export function pending(b: Betting): number[] {
  const { order, folded, allIn, acted, bets, currentBet } = b;
  let live = 0;
  let able = 0;
  for (const s of order) {
    if (folded.includes(s)) continue;
    live++;
    if (!allIn.includes(s)) able++;
  }
  if (live <= 1) return [];
  const due: number[] = [];
  const first = b.lastActor === null ? 0 : order.indexOf(b.lastActor) + 1;
  for (let k = 0; k < order.length; k++) {
    const s = order[(first + k) % order.length] as number;
    if (folded.includes(s) || allIn.includes(s)) continue;
    // With one player left able to bet, only a bet to match is owed: nobody is left to raise.
    if ((bets[s] ?? 0) < currentBet || (able > 1 && !acted.includes(s))) due.push(s);
  }
  return due;
}

/** Betting round closed: nobody owes an action, or the dealer collected the bets after the last one. */
export function roundClosed(b: Betting): boolean {
  return b.collected || pending(b).length === 0;
}

/** Only one player left: the hand is won without a showdown. */
export function handWon(b: Betting): boolean {
  return inHand(b).length <= 1;
}

/** RULINGS.md: no more betting possible when at most one player is not all-in and action is closed. */
export function bettingPossible(b: Betting): boolean {
  return !handWon(b) && !(withChips(b).length <= 1 && roundClosed(b));
}

/** Players all-in and still in the hand. */
export function allInPlayers(b: Betting): number[] {
  return inHand(b).filter((s) => b.allIn.includes(s));
}

/** Marks the round collected into the pot (pot sensor or dealer input); antes collected before any action do not count. */
export function collect(b: Betting): Betting {
  return b.lastActor === null ? b : { ...b, collected: true };
}

/** Folds a seat by ruling (its hand is dead), without counting it as an action. */
export function foldSeat(b: Betting, seat: number): Betting {
  if (b.folded.includes(seat)) return b;
  return { ...b, folded: [...b.folded, seat], passed: b.passed.filter((s) => s !== seat) };
}
