import type { Rank } from './cards.js';
import type { RankedHand } from './hand-rank.js';

/**
 * A hand's name for the dealer display, in the words of a French card room (quinte, couleur, full,
 * carré, brelan; "quinte flush royale") and of an English one. `{ fr, en }` as every bilingual text.
 */
export interface HandName {
  fr: string;
  en: string;
}

interface Words {
  one: string;
  many: string;
}

const FRENCH: Readonly<Record<Rank, Words>> = {
  '2': { one: 'deux', many: 'deux' },
  '3': { one: 'trois', many: 'trois' },
  '4': { one: 'quatre', many: 'quatre' },
  '5': { one: 'cinq', many: 'cinq' },
  '6': { one: 'six', many: 'six' },
  '7': { one: 'sept', many: 'sept' },
  '8': { one: 'huit', many: 'huit' },
  '9': { one: 'neuf', many: 'neuf' },
  T: { one: 'dix', many: 'dix' },
  J: { one: 'valet', many: 'valets' },
  Q: { one: 'dame', many: 'dames' },
  K: { one: 'roi', many: 'rois' },
  A: { one: 'as', many: 'as' },
};

const ENGLISH: Readonly<Record<Rank, Words>> = {
  '2': { one: 'deuce', many: 'deuces' },
  '3': { one: 'three', many: 'threes' },
  '4': { one: 'four', many: 'fours' },
  '5': { one: 'five', many: 'fives' },
  '6': { one: 'six', many: 'sixes' },
  '7': { one: 'seven', many: 'sevens' },
  '8': { one: 'eight', many: 'eights' },
  '9': { one: 'nine', many: 'nines' },
  T: { one: 'ten', many: 'tens' },
  J: { one: 'jack', many: 'jacks' },
  Q: { one: 'queen', many: 'queens' },
  K: { one: 'king', many: 'kings' },
  A: { one: 'ace', many: 'aces' },
};

/** "à l’as", "à la dame", "au roi": only the ace elides, only the queen is feminine ("huit" has an h aspiré). */
function atFr(rank: Rank): string {
  if (rank === 'A') return 'à l’as';
  if (rank === 'Q') return 'à la dame';
  return `au ${FRENCH[rank].one}`;
}

/** "d’as", "de rois", "de huit". */
function ofFr(rank: Rank): string {
  return rank === 'A' ? 'd’as' : `de ${FRENCH[rank].many}`;
}

const capitalised = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
const high = (rank: Rank): string => capitalised(`${ENGLISH[rank].one}-high`);

export function handName(hand: RankedHand): HandName {
  switch (hand.category) {
    case 'STRAIGHT_FLUSH': {
      const [top] = hand.ranks;
      if (top === 'A') return { fr: 'Quinte flush royale', en: 'Royal flush' };
      return { fr: `Quinte flush ${atFr(top)}`, en: `${high(top)} straight flush` };
    }
    case 'FOUR_OF_A_KIND': {
      const [four] = hand.ranks;
      return { fr: `Carré ${ofFr(four)}`, en: `Four ${ENGLISH[four].many}` };
    }
    case 'FULL_HOUSE': {
      const [three, two] = hand.ranks;
      return {
        fr: `Full aux ${FRENCH[three].many} par les ${FRENCH[two].many}`,
        en: `${capitalised(ENGLISH[three].many)} full of ${ENGLISH[two].many}`,
      };
    }
    case 'FLUSH': {
      const [top] = hand.ranks;
      return { fr: `Couleur ${atFr(top)}`, en: `${high(top)} flush` };
    }
    case 'STRAIGHT': {
      const [top] = hand.ranks;
      return { fr: `Quinte ${atFr(top)}`, en: `${high(top)} straight` };
    }
    case 'THREE_OF_A_KIND': {
      const [three] = hand.ranks;
      return { fr: `Brelan ${ofFr(three)}`, en: `Three ${ENGLISH[three].many}` };
    }
    case 'TWO_PAIR': {
      const [upper, lower] = hand.ranks;
      return {
        fr: `Deux paires, ${FRENCH[upper].many} et ${FRENCH[lower].many}`,
        en: `Two pair, ${ENGLISH[upper].many} and ${ENGLISH[lower].many}`,
      };
    }
    case 'PAIR': {
      const [pair] = hand.ranks;
      return { fr: `Paire ${ofFr(pair)}`, en: `Pair of ${ENGLISH[pair].many}` };
    }
    case 'HIGH_CARD': {
      const [top] = hand.ranks;
      return { fr: `Hauteur ${FRENCH[top].one}`, en: `${capitalised(ENGLISH[top].one)} high` };
    }
  }
}
