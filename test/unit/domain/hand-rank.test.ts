import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../simulators/random.js';
import { FACES, type Face, RANKS } from '../../../src/domain/cards.js';
import { handName } from '../../../src/domain/hand-names.js';
import { bestHand, compareHands, type RankedHand } from '../../../src/domain/hand-rank.js';
import { referenceCompare, referenceEvaluate } from '../../reference/evaluator.js';

/** Seven-card hands drawn at random and checked against the reference; scripts/enumerate-hands.ts does all of them. */
const RANDOM_HANDS = 1_000_000;

const cards = (text: string): Face[] => text.split(' ') as Face[];
const hand = (text: string): RankedHand => bestHand(cards(text));
/** Sign of hole cards `a` against hole cards `b` on `board`. */
const showdown = (board: string, a: string, b: string): number =>
  compareHands(hand(`${a} ${board}`), hand(`${b} ${board}`));

function sevenCards(random: () => number): Face[] {
  const deck = [...FACES];
  for (let i = 0; i < 7; i++) {
    const j = i + Math.floor(random() * (deck.length - i));
    [deck[i], deck[j]] = [deck[j] as Face, deck[i] as Face];
  }
  return deck.slice(0, 7);
}

describe('bestHand against the reference evaluator', () => {
  it(`agrees on the category, the naming ranks and the order of ${RANDOM_HANDS.toLocaleString('en')} random hands`, () => {
    const random = mulberry32(20_240_611);
    const disagreements: string[] = [];
    const seen = new Set<string>();
    let previous:
      | { faces: Face[]; ours: RankedHand; theirs: ReturnType<typeof referenceEvaluate> }
      | undefined;
    for (let i = 0; i < RANDOM_HANDS && disagreements.length < 5; i++) {
      const faces = sevenCards(random);
      const ours = bestHand(faces);
      const theirs = referenceEvaluate(faces);
      seen.add(ours.category);
      const naming = theirs.key.slice(1, 1 + ours.ranks.length).map((rank) => RANKS[rank]);
      if (ours.category !== theirs.category || ours.ranks.join() !== naming.join()) {
        disagreements.push(
          `${faces.join(' ')}: ${ours.category} ${ours.ranks} vs ${theirs.category} ${naming}`,
        );
      }
      if (
        previous &&
        compareHands(ours, previous.ours) !== Math.sign(referenceCompare(theirs, previous.theirs))
      ) {
        disagreements.push(`${faces.join(' ')} against ${previous.faces.join(' ')}: order differs`);
      }
      previous = { faces, ours, theirs };
    }
    expect(disagreements).toEqual([]);
    expect(seen.size).toBe(9);
  });
});

describe('bestHand', () => {
  it('plays the ace low in the wheel, which loses to a six-high straight', () => {
    expect(hand('As 2d 3c 4h 5s 9d Kc')).toMatchObject({ category: 'STRAIGHT', ranks: ['5'] });
    expect(showdown('2d 3c 4h 5s Kc', 'As Jd', '6h Jc')).toBe(-1);
  });

  it('finds the steel wheel, which beats four of a kind', () => {
    expect(hand('Ah 2h 3h 4h 5h Kd Qc')).toMatchObject({ category: 'STRAIGHT_FLUSH', ranks: ['5'] });
    expect(showdown('Ah 2h 3h 4h 5h', 'Kd Qc', '5d 5c')).toBe(0);
    expect(compareHands(hand('Ah 2h 3h 4h 5h Kd Qc'), hand('Ac Ad As Ah Kh 2c 3d'))).toBe(1);
  });

  it('splits when the board plays for both', () => {
    expect(showdown('As Ks Qs Js Ts', '2c 3d', '9s 8s')).toBe(0);
    expect(showdown('5c 6d 7h 8s 9c', '2c 2d', 'Kc Qd')).toBe(0);
    expect(showdown('5c 6d 7h 8s 9c', '2c 2d', 'Tc Qd')).toBe(-1);
  });

  it('decides by the kickers that play, and only those', () => {
    expect(showdown('Ah 7d 4c 9s 2h', 'Ad Kc', 'As Qc')).toBe(1);
    // Two pair on the board with a king: the hole cards are too low to play.
    expect(showdown('Ah Ad 7c 7s Kh', 'Qc 2d', 'Jc 3d')).toBe(0);
    // The third pair is not a two pair's kicker; the king is.
    expect(showdown('Kh Kd 7c 7s 4h', '4d 2c', 'Qc 2d')).toBe(-1);
  });

  it('names the best of three pairs and of two threes', () => {
    expect(hand('Kh Kd 7c 7s 4h 4d 2c')).toMatchObject({ category: 'TWO_PAIR', ranks: ['K', '7'] });
    expect(hand('7h 7d 7c Ks Kh Kd 2c')).toMatchObject({ category: 'FULL_HOUSE', ranks: ['K', '7'] });
    expect(hand('3h 3d 3c 5s 5h 5d Ac')).toMatchObject({ category: 'FULL_HOUSE', ranks: ['5', '3'] });
  });

  it('takes a flush over the straight in the same cards, its top five of six suited cards', () => {
    expect(hand('9h 8h 7d 6h 5h 2h Th')).toMatchObject({ category: 'FLUSH', ranks: ['T'] });
    expect(showdown('Qh 9h 6h 3h Kc', 'Ah 2h', 'Ad Jh')).toBe(1);
  });

  it('ranks five and six cards', () => {
    expect(hand('Ac Ad Kc Kd 2s')).toMatchObject({ category: 'TWO_PAIR', ranks: ['A', 'K'] });
    expect(hand('Ac Ad Kc Kd 2s Ah')).toMatchObject({ category: 'FULL_HOUSE', ranks: ['A', 'K'] });
  });

  it('scores from 1 for 7-5-4-3-2 to 7462 for the royal flush, and reads each category down to its weakest hand', () => {
    expect(hand('7c 5d 4h 3s 2c')).toEqual({ strength: 1, category: 'HIGH_CARD', ranks: ['7'] });
    expect(hand('As Ks Qs Js Ts')).toEqual({ strength: 7462, category: 'STRAIGHT_FLUSH', ranks: ['A'] });
    expect(hand('2c 2d 2h 2s 3c')).toMatchObject({ category: 'FOUR_OF_A_KIND', ranks: ['2'] });
    expect(hand('2c 2d 2h 4s 3c')).toMatchObject({ category: 'THREE_OF_A_KIND', ranks: ['2'] });
    expect(hand('3c 3d 2h 2s 4c')).toMatchObject({ category: 'TWO_PAIR', ranks: ['3', '2'] });
    expect(hand('2c 2d 5h 4s 3c')).toMatchObject({ category: 'PAIR', ranks: ['2'] });
  });

  it('refuses anything but 5 to 7 distinct cards', () => {
    expect(() => hand('As Ks Qs Js')).toThrow('5 to 7 cards');
    expect(() => hand('As Ks Qs Js Ts 9s 8s 7s')).toThrow('5 to 7 cards');
    expect(() => hand('As Ks Qs Js As')).toThrow('not 5 distinct cards: As Ks Qs Js As');
    expect(() => bestHand(['As', 'Ks', 'Qs', 'Js', '1s' as Face])).toThrow('distinct');
  });
});

describe('handName', () => {
  const named = (text: string) => handName(hand(text));

  it.each([
    ['Ks Kh Kd 7c 7s 2d 3c', 'Full aux rois par les sept', 'Kings full of sevens'],
    ['8s 8h 8d Ac As 2d 3c', 'Full aux huit par les as', 'Eights full of aces'],
    ['As Ah 9d 7c 4s 2d 3c', 'Paire d’as', 'Pair of aces'],
    ['8s 8h Kd 7c 4s 2d 3c', 'Paire de huit', 'Pair of eights'],
    ['Ks Kh 7d 7c 4s 2d 3c', 'Deux paires, rois et sept', 'Two pair, kings and sevens'],
    ['As Ks Qs Js Ts 2d 3c', 'Quinte flush royale', 'Royal flush'],
    ['Ah 2h 3h 4h 5h Kd Qc', 'Quinte flush au cinq', 'Five-high straight flush'],
    ['9d 8d 7d 6d 5d Kc 2s', 'Quinte flush au neuf', 'Nine-high straight flush'],
    ['Ks Qh Jd Tc 9s 2d 3c', 'Quinte au roi', 'King-high straight'],
    ['As 2h 3d 4c 5s 9d Kc', 'Quinte au cinq', 'Five-high straight'],
    ['Qs Jh Td 9c 8s 2d 3c', 'Quinte à la dame', 'Queen-high straight'],
    ['As 9s 7s 4s 2s Kd 3c', 'Couleur à l’as', 'Ace-high flush'],
    ['Js 9s 7s 4s 2s Kd 3c', 'Couleur au valet', 'Jack-high flush'],
    ['Qs Qh Qd Qc 4s 2d 3c', 'Carré de dames', 'Four queens'],
    ['2s 2h 2d 2c 4s Ad 3c', 'Carré de deux', 'Four deuces'],
    ['8s 8h 8d Kc 4s 2d 3c', 'Brelan de huit', 'Three eights'],
    ['As Ah Ad Kc 4s 2d 3c', 'Brelan d’as', 'Three aces'],
    ['As Jh 9d 7c 4s 2d 3c', 'Hauteur as', 'Ace high'],
    ['Ts 8h 7d 5c 4s 2d 3h', 'Hauteur dix', 'Ten high'],
  ])('%s is "%s" / "%s"', (text, fr, en) => {
    expect(named(text)).toEqual({ fr, en });
  });
});
