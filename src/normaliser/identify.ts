import type { DeckRegistry } from '../domain/deck-registry.js';
import type { CardSeen } from '../domain/events.js';
import type { Zone } from '../domain/zones.js';

/** A debounced tag read from the RFID driver, its antenna already mapped to a zone. */
export interface TagRead {
  uid: string;
  zone: Zone;
}

/** What a `card.seen`/`card.gone` event says about a read: the zone and the card's identity. */
export type IdentifiedRead = Pick<CardSeen, 'zone' | 'uid' | 'face' | 'deck'>;

/**
 * Names the card a tag stands for; a tag no registered deck has stays in play as a foreign card (face and
 * deck null), and a joker the registry marks non-standard keeps its deck with no face.
 */
export function identify(registry: DeckRegistry, read: TagRead): IdentifiedRead {
  return { zone: read.zone, ...registry.lookup(read.uid) };
}
