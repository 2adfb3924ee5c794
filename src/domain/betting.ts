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
    passed: passedBy(b, seat).filter((s) => s !== seat),
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

/** Pending seats an action by `seat` skips over: from the seat whose turn it was up to `seat`. */
function passedBy(b: Betting, seat: number): number[] {
  const due = pending(b);
  const skipped = due.slice(0, Math.max(0, due.indexOf(seat)));
  return [...new Set([...b.passed, ...skipped])];
}

/** Players still in the hand (not folded). */
export function inHand(b: Betting): number[] {
  return b.order.filter((s) => !b.folded.includes(s));
}

/** Players still in the hand who can still bet. */
function withChips(b: Betting): number[] {
  return inHand(b).filter((s) => !b.allIn.includes(s));
}

/** Seats whose action is pending, in turn order from the one whose turn it is. */
export function pending(b: Betting): number[] {
  const able = withChips(b);
  if (inHand(b).length <= 1) return [];
  const owes = (s: number) => (b.bets[s] ?? 0) < b.currentBet;
  const due = able.length <= 1 ? able.filter(owes) : able.filter((s) => owes(s) || !b.acted.includes(s));
  return rotateAfter(b.order, b.lastActor).filter((s) => due.includes(s));
}

function rotateAfter(order: readonly number[], seat: number | null): number[] {
  if (seat === null) return [...order];
  const i = order.indexOf(seat);
  return [...order.slice(i + 1), ...order.slice(0, i + 1)];
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
