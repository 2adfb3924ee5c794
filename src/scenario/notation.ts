import { type CardRef, isFace } from '../domain/cards.js';
import { type DeckRegistry, isTagUid, scenarioUid } from '../domain/deck-registry.js';

const DECK_CARD = /^(?:(?<deck>[^:#]+):)?(?<face>[^:#]+)(?:#(?<copy>[1-9][0-9]?))?$/;
const FOREIGN_PREFIX = '?:';

export type Resolution = { uid: string } | { error: string };

/**
 * The scenario notation of physical cards: `As` is the first deck's ace of spades, `B:As` deck B's
 * (`A2:As` a copy deck's), `As#2` a second tag of that face in its own deck, `?:04A1B2C3` a tag no
 * deck has. Codes become the tag UIDs a reader would report, so scenario cards go through the
 * registry exactly as live reads do.
 */
export class CardNotation {
  readonly #registry: DeckRegistry;
  readonly #firstDeck: string | undefined;
  /** UIDs written as unregistered tags; a copy tag registered later must not take one of them. */
  readonly #foreign = new Set<string>();
  /** Codes already resolved: a resolution, once made, holds for the rest of the scenario. */
  readonly #resolved = new Map<string, { uid: string }>();

  constructor(registry: DeckRegistry) {
    this.#registry = registry;
    this.#firstDeck = registry.decks()[0];
  }

  /** The tag UID a code stands for; a copy (`As#2`) is registered to its deck on first use. */
  uidOf(code: string): Resolution {
    const known = this.#resolved.get(code);
    if (known) return known;
    const resolution = code.startsWith(FOREIGN_PREFIX) ? this.#foreignUid(code) : this.#deckUid(code);
    if ('uid' in resolution) this.#resolved.set(code, resolution);
    return resolution;
  }

  codeOf(card: CardRef): string {
    if (card.face === null || card.deck === null) return `${FOREIGN_PREFIX}${card.uid}`;
    const copy = this.#registry.copyOf(card.uid) ?? 1;
    // A copy deck's card plays as its back's first deck: its code names the deck it came from.
    const deck = this.#registry.deckOf(card.uid) ?? card.deck;
    return `${deck === this.#firstDeck ? '' : `${deck}:`}${card.face}${copy > 1 ? `#${copy}` : ''}`;
  }

  #foreignUid(code: string): Resolution {
    const uid = code.slice(FOREIGN_PREFIX.length);
    if (!isTagUid(uid)) return { error: `"${code}": "${uid}" is not a tag UID (4 to 10 bytes in hex)` };
    const card = this.#registry.lookup(uid);
    if (card.face !== null) {
      return { error: `"${code}" is the tag of ${this.codeOf(card)}, not an unregistered one` };
    }
    this.#foreign.add(card.uid);
    return { uid: card.uid };
  }

  #deckUid(code: string): Resolution {
    const groups = DECK_CARD.exec(code)?.groups;
    const face = groups?.face;
    if (face === undefined || !isFace(face)) {
      return { error: `"${code}" is not a card code (rank 2-9TJQKA + suit shdc, optional "B:" deck prefix)` };
    }
    const deck = groups?.deck ?? this.#firstDeck ?? '';
    let uid = this.#registry.uidOf(deck, face);
    if (uid === undefined) {
      return { error: `"${code}": deck "${deck}" is not in decks (${this.#registry.decks().join(', ')})` };
    }
    const copy = Number(groups?.copy ?? 1);
    for (let further = 2; further <= copy; further++) {
      const registered = this.#registry.uidOf(deck, face, further);
      if (registered !== undefined) {
        uid = registered;
        continue;
      }
      uid = scenarioUid(deck, face, further);
      if (this.#foreign.has(uid)) {
        return { error: `"${code}": its tag UID ${uid} is already used above as "${FOREIGN_PREFIX}${uid}"` };
      }
      this.#registry.addTag(deck, face, uid);
    }
    return { uid };
  }
}
