/**
 * A plain hold'em evaluator for the tests, written from the rules of poker and nothing else: count the
 * ranks and the suits, find the best category, then list the ranks that break ties. Slow and obvious on
 * purpose, so that it shares no idea with the library croupier uses.
 */

/** Index 0 is a deuce, 12 an ace. */
const RANK_LETTERS = '23456789TJQKA';
const SUIT_LETTERS = 'shdc';
const ACE = 12;

export const REFERENCE_CATEGORIES = [
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

export type ReferenceCategory = (typeof REFERENCE_CATEGORIES)[number];

export interface ReferenceHand {
  category: ReferenceCategory;
  /** The category's place in REFERENCE_CATEGORIES, then the deciding ranks (0–12), compared in order. */
  key: number[];
}

/** The top rank of the highest five-rank run in `present` (the ace also plays below the deuce), or -1. */
function straightTop(present: readonly boolean[]): number {
  for (let top = ACE; top >= 3; top--) {
    let run = true;
    for (let below = 0; below < 5 && run; below++) {
      const rank = top - below;
      run = present[rank < 0 ? ACE : rank] === true;
    }
    if (run) return top;
  }
  return -1;
}

export function referenceEvaluate(faces: readonly string[]): ReferenceHand {
  const counts: number[] = new Array(13).fill(0);
  const suited: boolean[][] = SUIT_LETTERS.split('').map(() => new Array(13).fill(false));
  for (const face of faces) {
    const rank = RANK_LETTERS.indexOf(face.charAt(0));
    const suit = SUIT_LETTERS.indexOf(face.charAt(1));
    if (face.length !== 2 || rank < 0 || suit < 0) throw new Error(`not a card: ${face}`);
    counts[rank] = (counts[rank] ?? 0) + 1;
    (suited[suit] as boolean[])[rank] = true;
  }
  const make = (category: ReferenceCategory, ranks: number[]): ReferenceHand => ({
    category,
    key: [REFERENCE_CATEGORIES.indexOf(category), ...ranks],
  });
  /** Ranks held at least `times`, highest first, leaving out `used`. */
  const held = (times: number, used: readonly number[] = []): number[] => {
    const ranks: number[] = [];
    for (let rank = ACE; rank >= 0; rank--) {
      if ((counts[rank] ?? 0) >= times && !used.includes(rank)) ranks.push(rank);
    }
    return ranks;
  };

  const flushSuit = suited.find((ranks) => ranks.filter(Boolean).length >= 5);
  if (flushSuit) {
    const top = straightTop(flushSuit);
    if (top >= 0) return make('STRAIGHT_FLUSH', [top]);
  }
  const [quads] = held(4);
  if (quads !== undefined) return make('FOUR_OF_A_KIND', [quads, ...held(1, [quads]).slice(0, 1)]);
  const [trips] = held(3);
  const [pairWithTrips] = trips === undefined ? [] : held(2, [trips]);
  if (trips !== undefined && pairWithTrips !== undefined) return make('FULL_HOUSE', [trips, pairWithTrips]);
  if (flushSuit) {
    const ranks = [...flushSuit.keys()].filter((rank) => flushSuit[rank]).reverse();
    return make('FLUSH', ranks.slice(0, 5));
  }
  const top = straightTop(counts.map((count) => count > 0));
  if (top >= 0) return make('STRAIGHT', [top]);
  if (trips !== undefined) return make('THREE_OF_A_KIND', [trips, ...held(1, [trips]).slice(0, 2)]);
  const pairs = held(2).slice(0, 2);
  if (pairs.length === 2) return make('TWO_PAIR', [...pairs, ...held(1, pairs).slice(0, 1)]);
  if (pairs.length === 1) return make('PAIR', [...pairs, ...held(1, pairs).slice(0, 3)]);
  return make('HIGH_CARD', held(1).slice(0, 5));
}

/** Positive when `a` beats `b`, negative when it loses, 0 for a split. */
export function referenceCompare(a: ReferenceHand, b: ReferenceHand): number {
  for (let i = 0; i < Math.max(a.key.length, b.key.length); i++) {
    const difference = (a.key[i] ?? -1) - (b.key[i] ?? -1);
    if (difference !== 0) return difference;
  }
  return 0;
}
