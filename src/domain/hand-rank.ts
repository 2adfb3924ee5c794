import { evaluate } from '@pokertools/evaluator';
import { FACES, type Face, RANKS, type Rank, SUITS, type Suit } from './cards.js';

/**
 * Hold'em hands ranked by @pokertools/evaluator (chosen over phe, pokersolver and others for its speed,
 * small tables and types: README "Performance"). It scores the best five of five to seven cards from 1
 * (royal flush) to 7462 (7-5-4-3-2), one score per class of equal hands in the standard order, each
 * category a run of scores (its README, "Score System"). The category and the ranks that name the hand
 * are read off that score: the library's own rank() would evaluate the hand a second time.
 */

/** Weakest first. */
export const HAND_CATEGORIES = [
  'HIGH_CARD',
  'PAIR',
  'TWO_PAIR',
  'THREE_OF_A_KIND',
  'STRAIGHT',
  'FLUSH',
  'FULL_HOUSE',
  'FOUR_OF_A_KIND',
  'STRAIGHT_FLUSH',
] as const;

export type HandCategory = (typeof HAND_CATEGORIES)[number];

/**
 * A hand's best five cards, as far as ranking and naming go. `ranks` names it: the three then the two of
 * a full house, the higher pair then the lower of two pair; otherwise the one rank of the pair, trips or
 * quads, or the top card of the straight, flush or high-card hand (a five for the wheel).
 */
export type RankedHand = {
  /** 1 (7-5-4-3-2) to 7462 (royal flush): the higher wins, equal strengths split. */
  strength: number;
} & (
  | { category: 'FULL_HOUSE' | 'TWO_PAIR'; ranks: readonly [Rank, Rank] }
  | { category: Exclude<HandCategory, 'FULL_HOUSE' | 'TWO_PAIR'>; ranks: readonly [Rank] }
);

/** The library's card code: rank index (deuce 0 … ace 12) times four, plus the suit index. */
const CODES: ReadonlyMap<Face, number> = new Map(
  FACES.map((face) => [face, RANKS.indexOf(face[0] as Rank) * 4 + SUITS.indexOf(face[1] as Suit)]),
);

const WORST_SCORE = 7462;
const ACE = RANKS.length - 1;

/** Positive when `a` wins, negative when `b` does, 0 for a split. */
export function compareHands(a: RankedHand, b: RankedHand): number {
  return Math.sign(a.strength - b.strength);
}

/** The best hand in 5 to 7 distinct cards (hole cards and board together). */
export function bestHand(cards: readonly Face[]): RankedHand {
  if (cards.length < 5 || cards.length > 7) throw new Error(`a hand is 5 to 7 cards, not ${cards.length}`);
  const codes = cards.map(cardCode);
  return ranked(evaluate(codes), codes);
}

/** `face`'s code; a face met earlier in `cards` is refused, since the library would rank it as two cards. */
function cardCode(face: Face, index: number, cards: readonly Face[]): number {
  const code = CODES.get(face);
  if (code === undefined || cards.indexOf(face) !== index) {
    throw new Error(`not ${cards.length} distinct cards: ${cards.join(' ')}`);
  }
  return code;
}

const rank = (index: number): Rank => RANKS[index] as Rank;

/** The rank of a category's block `score` falls in, blocks of `size` classes from `first` on, aces first. */
const blockRank = (score: number, first: number, size: number): Rank =>
  rank(ACE - Math.floor((score - first) / size));

/** The highest rank among `codes`, of one suit (0–3) only if given. */
function topRank(codes: readonly number[], suit?: number): Rank {
  let top = 0;
  for (const code of codes) if (suit === undefined || code % 4 === suit) top = Math.max(top, code >> 2);
  return rank(top);
}

/** The suit five or more of `codes` share. */
function flushSuit(codes: readonly number[]): number {
  const counts = [0, 0, 0, 0];
  for (const code of codes) counts[code % 4] = (counts[code % 4] as number) + 1;
  return counts.findIndex((count) => count >= 5);
}

/**
 * Within each category the scores run best first. Where one rank names the hand and every rank has as
 * many classes, the rank is the score's block from the ace down; flushes and high cards have uneven
 * blocks, so their top card is read from the cards instead.
 */
function ranked(score: number, codes: readonly number[]): RankedHand {
  const strength = WORST_SCORE + 1 - score;
  if (score <= 10) return { strength, category: 'STRAIGHT_FLUSH', ranks: [blockRank(score, 1, 1)] };
  if (score <= 166) return { strength, category: 'FOUR_OF_A_KIND', ranks: [blockRank(score, 11, 12)] };
  if (score <= 322) {
    // 13 threes, each with the 12 other ranks as its two, highest first.
    const three = ACE - Math.floor((score - 167) / 12);
    const two = ACE - ((score - 167) % 12);
    return { strength, category: 'FULL_HOUSE', ranks: [rank(three), rank(two <= three ? two - 1 : two)] };
  }
  if (score <= 1599) return { strength, category: 'FLUSH', ranks: [topRank(codes, flushSuit(codes))] };
  if (score <= 1609) return { strength, category: 'STRAIGHT', ranks: [blockRank(score, 1600, 1)] };
  if (score <= 2467) return { strength, category: 'THREE_OF_A_KIND', ranks: [blockRank(score, 1610, 66)] };
  if (score <= 3325) return { strength, category: 'TWO_PAIR', ranks: twoPair(score - 2468) };
  if (score <= 6185) return { strength, category: 'PAIR', ranks: [blockRank(score, 3326, 220)] };
  return { strength, category: 'HIGH_CARD', ranks: [topRank(codes)] };
}

/** Two pair's classes: each higher pair, from aces down, with each lower pair below it, 11 kickers each. */
function twoPair(offset: number): readonly [Rank, Rank] {
  let rest = offset;
  for (let high = ACE; ; high--) {
    const classes = high * 11;
    if (rest < classes) return [rank(high), rank(high - 1 - Math.floor(rest / 11))];
    rest -= classes;
  }
}
