/** Card faces as the card room writes them: rank then suit, `As`, `Td`, `2c`. */
export const RANKS = ['2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A'] as const;
export const SUITS = ['s', 'h', 'd', 'c'] as const;

export type Rank = (typeof RANKS)[number];
export type Suit = (typeof SUITS)[number];
export type Face = `${Rank}${Suit}`;

/** The 52 faces of one deck, in a fixed order (used to derive tag UIDs and to enumerate decks). */
export const FACES: readonly Face[] = SUITS.flatMap((suit) => RANKS.map((rank) => `${rank}${suit}` as Face));

const FACE_SET: ReadonlySet<string> = new Set(FACES);

export function isFace(code: string): code is Face {
  return FACE_SET.has(code);
}

/**
 * One physical card as the table saw it: its tag UID and, when the deck registry knows the tag,
 * its face and deck id. `face`/`deck` null means an unregistered (foreign) tag.
 */
export interface CardRef {
  uid: string;
  face: Face | null;
  deck: string | null;
}
