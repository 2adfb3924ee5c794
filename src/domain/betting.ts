import type { Act } from './events.js';

/** A betting action as substantial-action rules see it. */
export interface ActionRecord {
  seat: number;
  /** The action put chips in (bet, call, raise, all-in). */
  chips: boolean;
}

export type BettingStreet = 'preflop' | 'flop' | 'turn' | 'river';

/**
 * A level the bet reached in this round: the blinds' (0 after the flop), then one per bet or raise.
 * Levels only go up, so a level opened after a seat's last action is above that seat's bet.
 */
export interface BetLevel {
  /** The level's total; null while the bet or raise that opened it was keyed without its amount. */
  amount: number | null;
  /** The round's action number that opened it; -1 for the blinds' level. */
  at: number;
  /** The seat whose action opened it; null for the blinds' level. */
  seat: number | null;
}

/**
 * One hand's betting: the current round plus who folded or is all-in. Amounts are each seat's
 * total in the current round ("raise to 300"). An amount the dealer did not key is unknown, never
 * zero and never a new level: a later amount (a call's, a bet zone's) fills it in. Values are
 * replaced, never mutated.
 */
export interface Betting {
  street: BettingStreet;
  /** Action order of this round: every player still in the hand, first to act first. */
  order: number[];
  folded: number[];
  allIn: number[];
  /** Each seat's total in the round; null when its action was keyed without an amount not known yet. */
  bets: Record<number, number | null>;
  /** The levels of this round, lowest first; never empty. */
  levels: BetLevel[];
  /** Each seat's last action in this round, by its action number. */
  lastAct: Record<number, number>;
  /** Actions taken in this round. */
  count: number;
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
  /** Newcomers who put the big blind's amount in beside the blinds. */
  posted?: readonly number[];
}

/** Preflop round: blinds posted, action from the player after the big blind. */
export function openBetting(order: readonly number[], blinds: BlindPosts): Betting {
  const bets: Record<number, number | null> = {};
  // A blind all-in from posting put its whole stack in, which the hand start does not tell: unknown.
  const posts = (seat: number, amount: number) => (blinds.allIn?.includes(seat) ? null : amount);
  if (blinds.sb !== null) bets[blinds.sb] = posts(blinds.sb, blinds.amounts[0]);
  bets[blinds.bb] = posts(blinds.bb, blinds.amounts[1]);
  for (const seat of blinds.posted ?? []) bets[seat] = blinds.amounts[1];
  return {
    street: 'preflop',
    order: [...order],
    folded: [],
    allIn: [...(blinds.allIn ?? [])],
    bets,
    levels: [{ amount: blinds.amounts[1], at: -1, seat: null }],
    lastAct: {},
    count: 0,
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
    levels: [{ amount: 0, at: -1, seat: null }],
    lastAct: {},
    count: 0,
    passed: [],
    lastActor: null,
    collected: false,
  };
}

const PUTS_CHIPS: ReadonlySet<Act> = new Set(['call', 'bet', 'raise', 'allin']);

function topLevel(b: Betting): BetLevel {
  return b.levels[b.levels.length - 1] as BetLevel;
}

/**
 * Applies one action. Actions by seats not in the hand are ignored (nothing to judge). A call matches
 * the level, whatever amount it carries: it never raises the bet (an amount above a known level tells
 * that an all-in keyed without its amount raised it). A bet or raise opens a level, known or not.
 */
export function applyAction(prev: Betting, seat: number, act: Act, amount?: number): Betting {
  if (!prev.order.includes(seat) || prev.folded.includes(seat) || prev.allIn.includes(seat)) return prev;
  // Acting again after an all-in that may have raised shows that it did (a check shows nothing).
  const b = act !== 'check' && mayOwe(prev).includes(seat) ? provenRaise(prev, seat) : prev;
  const n = b.count;
  const next: Betting = {
    ...b,
    bets: { ...b.bets },
    lastAct: { ...b.lastAct, [seat]: n },
    count: n + 1,
    passed: passedAfter(b, seat),
    actions: [...b.actions, { seat, chips: PUTS_CHIPS.has(act) }],
    lastActor: seat,
    collected: false,
  };
  const top = topLevel(b);
  switch (act) {
    case 'fold':
      next.folded = [...b.folded, seat];
      return next;
    case 'check':
      return next;
    case 'call':
      if (amount === undefined) {
        next.bets[seat] = unrevealedAllIn(b, top) === null ? top.amount : null;
        return next;
      }
      next.bets[seat] = amount;
      return learnLevel(next, amount);
    case 'bet':
    case 'raise':
      next.bets[seat] = amount ?? null;
      if (amount !== undefined && top.amount !== null && amount <= top.amount) {
        // A bet zone's "bet to X" at or below the level: a call, or short of it (still owed).
        if (amount < top.amount) next.lastAct = b.lastAct;
        return next;
      }
      next.levels = [...b.levels, { amount: amount ?? null, at: n, seat }];
      return next;
    case 'allin':
      next.allIn = [...b.allIn, seat];
      next.bets[seat] = amount ?? null;
      if (allInRaises(b, top, amount)) next.levels = [...b.levels, { amount: amount ?? null, at: n, seat }];
      return next;
  }
}

/**
 * An all-in opens a level when it is surely above the top one: into an unopened round whatever its
 * amount, else for more than a known level that no all-in of unknown amount may already have passed.
 */
function allInRaises(b: Betting, top: BetLevel, amount: number | undefined): boolean {
  if (top.amount === 0) return true;
  return (
    amount !== undefined && top.amount !== null && amount > top.amount && unrevealedAllIn(b, top) === null
  );
}

/**
 * The all-ins since the top level that may have raised it: an amount above it, or either amount not
 * known. The machine does not take them as raises on a guess; who acted before them may owe an action.
 */
function doubtfulAllIns(b: Betting, top: BetLevel): number[] {
  return b.allIn.filter((s) => {
    const at = b.lastAct[s];
    if (at === undefined || at <= top.at) return false;
    const amount = b.bets[s];
    return amount == null || top.amount === null || amount > top.amount;
  });
}

/**
 * Seats that may owe an action though not sure to: an all-in after their last action in the round (or
 * before their first, a big blind facing an all-in for an amount not known) may have raised. The round
 * is not taken as over for the showdown until they act or the next street (or a tabled hand) shows it
 * was; a premature card is judged on `pending` alone, never on a doubt.
 */
export function mayOwe(b: Betting): number[] {
  if (b.allIn.length === 0) return []; // most rounds: it runs for every event
  const top = topLevel(b);
  let last = -1;
  for (const s of doubtfulAllIns(b, top)) last = Math.max(last, b.lastAct[s] as number);
  if (last < 0) return [];
  const due = pending(b);
  return withChips(b).filter((s) => (b.lastAct[s] ?? -2) < last && !due.includes(s));
}

/**
 * `seat` acts again after a doubtful all-in: one after its last action raised. With every amount known
 * the largest is the level it answers (if any raised, it did); with one not known the first is taken,
 * so that no seat is counted as owing an action on a guess (all-ins are listed in the order made).
 */
function provenRaise(b: Betting, seat: number): Betting {
  const since = b.lastAct[seat] ?? -2;
  const after = doubtfulAllIns(b, topLevel(b)).filter((s) => (b.lastAct[s] as number) > since);
  const known = after.every((s) => b.bets[s] != null);
  const raiser = known
    ? after.reduce<number | undefined>(
        (x, y) => (x === undefined || (b.bets[y] as number) > (b.bets[x] as number) ? y : x),
        undefined,
      )
    : after[0];
  if (raiser === undefined) return b;
  const amount = b.bets[raiser] ?? null;
  const levels = [...b.levels, { amount, at: b.lastAct[raiser] as number, seat: raiser }];
  const opened = { ...b, levels };
  return amount === null ? opened : fillLevel(opened, levels.length - 1, amount);
}

/**
 * The first all-in since the top level was opened whose amount is not known. When an amount above the
 * level says one of several raised it, the first is taken: whoever acted after it matched it, so no
 * seat is counted as owing an action on a guess.
 */
function unrevealedAllIn(b: Betting, top: BetLevel): number | null {
  let found: number | null = null;
  for (const s of b.allIn) {
    const at = b.lastAct[s];
    if (b.bets[s] === null && at !== undefined && at >= top.at) {
      if (found === null || at < (b.lastAct[found] as number)) found = s;
    }
  }
  return found;
}

/**
 * A seat matched the top level for `amount`: a level keyed without its amount gets it; an amount above
 * the known level is the level an all-in keyed without its amount opened.
 */
function learnLevel(b: Betting, amount: number): Betting {
  const top = topLevel(b);
  if (top.amount !== null && amount <= top.amount) return b;
  // An all-in keyed with this very amount after the unknown one made the raise for sure: the unknown
  // bet stays unknown (it may be that raise or under it), never given an amount on a guess.
  // Whoever matched the level since that all-in matched it too.
  const known = knownAllInAt(b, top, amount);
  if (known !== null) {
    const levels = [...b.levels, { amount, at: b.lastAct[known] as number, seat: known }];
    return fillLevel({ ...b, levels }, levels.length - 1, amount);
  }
  if (top.amount === null) return fillLevel(b, b.levels.length - 1, amount);
  const allIn = unrevealedAllIn(b, top);
  return allIn === null ? b : reveal(b, allIn, amount); // else no hidden raise explains it: a call never raises
}

/** The first all-in since the top level, keyed with `amount`, that opened no level (an unknown amount came before it). */
function knownAllInAt(b: Betting, top: BetLevel, amount: number): number | null {
  let found: number | null = null;
  for (const s of b.allIn) {
    const at = b.lastAct[s];
    if (b.bets[s] === amount && at !== undefined && at > top.at && s !== top.seat) {
      if (found === null || at < (b.lastAct[found] as number)) found = s;
    }
  }
  return found;
}

/** The all-in of `seat`, keyed without its amount, was for `amount`, above the level: it opened one. */
function reveal(b: Betting, seat: number, amount: number): Betting {
  const levels = [...b.levels, { amount, at: b.lastAct[seat] as number, seat }];
  return fillLevel({ ...b, levels, bets: { ...b.bets, [seat]: amount } }, levels.length - 1, amount);
}

/** Level `i` is `amount`: so is every bet not known yet of a seat that matched it since. */
function fillLevel(b: Betting, i: number, amount: number): Betting {
  const level = b.levels[i] as BetLevel;
  const levels = b.levels.map((l, k) => (k === i ? { ...l, amount } : l));
  const bets = { ...b.bets };
  for (const s of b.order) {
    const at = b.lastAct[s];
    if (bets[s] === null && at !== undefined && at >= level.at && !b.allIn.includes(s)) bets[s] = amount;
  }
  if (level.seat !== null && bets[level.seat] === null) bets[level.seat] = amount;
  return { ...b, levels, bets };
}

/**
 * A bet zone settled at `amount` for `seat` whose action was keyed without its amount: its total. It
 * fills the level the seat opened or called, or reveals the level its all-in opened.
 */
export function betSeen(b: Betting, seat: number, amount: number): Betting {
  const at = b.lastAct[seat];
  if (amount <= 0 || b.bets[seat] !== null || at === undefined) return b;
  const known = { ...b, bets: { ...b.bets, [seat]: amount } };
  const top = topLevel(b);
  if (at < top.at) return known; // a level opened since went past it
  if (!b.allIn.includes(seat)) return learnLevel(known, amount);
  return top.amount !== null && amount > top.amount ? reveal(known, seat, amount) : known;
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
 * Seats whose action is pending, in turn order from the one whose turn it is (after the last actor):
 * those that have not acted since the top level was opened. One pass over the order, without
 * intermediate lists: it runs several times for every action.
 */
export function pending(b: Betting): number[] {
  const { order, folded, allIn, lastAct, bets } = b;
  let live = 0;
  let able = 0;
  for (const s of order) {
    if (folded.includes(s)) continue;
    live++;
    if (!allIn.includes(s)) able++;
  }
  if (live <= 1) return [];
  const top = topLevel(b);
  const due: number[] = [];
  const first = b.lastActor === null ? 0 : order.indexOf(b.lastActor) + 1;
  for (let k = 0; k < order.length; k++) {
    const s = order[(first + k) % order.length] as number;
    if (folded.includes(s) || allIn.includes(s)) continue;
    if ((lastAct[s] ?? -2) >= top.at) continue;
    // With one player left able to bet, only a bet to match is owed: nobody is left to raise. A bet
    // or raise opened after the seat acted is above its bet; the blinds' level, only if it is short.
    if (able > 1 || top.at >= 0 || (bets[s] ?? 0) < (top.amount ?? 0)) due.push(s);
  }
  return due;
}

/** Betting round closed: nobody owes an action, or the dealer collected the bets after the last one. */
export function roundClosed(b: Betting): boolean {
  return b.collected || pending(b).length === 0;
}

/** The round is over for the showdown: closed, and no all-in left in doubt that a seat must still answer. */
export function roundOver(b: Betting): boolean {
  return b.collected || (roundClosed(b) && mayOwe(b).length === 0);
}

/** Only one player left: the hand is won without a showdown. */
export function handWon(b: Betting): boolean {
  return inHand(b).length <= 1;
}

/** RULINGS.md: no more betting possible when at most one player is not all-in and action is closed. */
export function bettingPossible(b: Betting): boolean {
  return !handWon(b) && !(withChips(b).length <= 1 && roundClosed(b));
}

/** `bettingPossible` for the showdown's prompts: betting may still go on while an all-in is in doubt. */
export function bettingMayGoOn(b: Betting): boolean {
  return !handWon(b) && !(withChips(b).length <= 1 && roundOver(b));
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
