import { type CardRef, type Face, isFace } from '../domain/cards.js';
import { type DeckRegistry, isTagUid, scenarioJokerUid, scenarioUid } from '../domain/deck-registry.js';

const DECK_CARD = /^(?:(?<deck>[^:#]+):)?(?<face>[^:#]+)(?:#(?<copy>[1-9][0-9]?))?$/;
const FOREIGN_PREFIX = '?:';
/** A deck's non-standard card, which the registry marks (tda-2024 #35-A-6). */
const JOKER = 'joker';

export type Resolution = { uid: string } | { error: string };

/**
 * The scenario notation of physical cards: `As` is the first deck's ace of spades, `B:As` deck B's
 * (`A2:As` a copy deck's), `As#2` a second tag of that face in its own deck, `joker` (`B:joker`,
 * `joker#2`) a deck's joker, `?:04A1B2C3` a tag no deck has. Codes become the tag UIDs a reader would
 * report, so scenario cards go through the registry exactly as live reads do.
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
    const face = card.face ?? (this.#registry.isNonStandard(card.uid) ? JOKER : null);
    if (face === null || card.deck === null) return `${FOREIGN_PREFIX}${card.uid}`;
    const copy = this.#registry.copyOf(card.uid) ?? 1;
    // A copy deck's card plays as its back's first deck: its code names the deck it came from.
    const deck = this.#registry.deckOf(card.uid) ?? card.deck;
    return `${deck === this.#firstDeck ? '' : `${deck}:`}${face}${copy > 1 ? `#${copy}` : ''}`;
  }

  #foreignUid(code: string): Resolution {
    const uid = code.slice(FOREIGN_PREFIX.length);
    if (!isTagUid(uid)) return { error: `"${code}": "${uid}" is not a tag UID (4 to 10 bytes in hex)` };
    const card = this.#registry.lookup(uid);
    if (card.deck !== null) {
      return { error: `"${code}" is the tag of ${this.codeOf(card)}, not an unregistered one` };
    }
    this.#foreign.add(card.uid);
    return { uid: card.uid };
  }

  #deckUid(code: string): Resolution {
    const groups = DECK_CARD.exec(code)?.groups;
    const written = groups?.face;
    const face: Face | null | undefined =
      written === JOKER ? null : written !== undefined && isFace(written) ? written : undefined;
    if (face === undefined) {
      return { error: `"${code}" is not a card code (rank 2-9TJQKA + suit shdc, optional "B:" deck prefix)` };
    }
    const deck = groups?.deck ?? this.#firstDeck ?? '';
    if (this.#registry.playsAs(deck) === undefined) {
      return { error: `"${code}": deck "${deck}" is not in decks (${this.#registry.decks().join(', ')})` };
    }
    // A face's first tag is the deck's own; further tags, and every joker, are registered on first use.
    let resolution: Resolution = { error: `"${code}": no tag` };
    for (let n = 1; n <= Number(groups?.copy ?? 1); n++) {
      const registered = this.#registry.uidOf(deck, face, n);
      resolution = registered === undefined ? this.#register(code, deck, face, n) : { uid: registered };
      if ('error' in resolution) return resolution;
    }
    return resolution;
  }

  /** The scenario tag of a face's n-th copy, or of a deck's n-th joker, registered to its deck. */
  #register(code: string, deck: string, face: Face | null, n: number): Resolution {
    const uid = face === null ? scenarioJokerUid(deck, n) : scenarioUid(deck, face, n);
    if (this.#foreign.has(uid)) {
      return { error: `"${code}": its tag UID ${uid} is already used above as "${FOREIGN_PREFIX}${uid}"` };
    }
    if (face === null) this.#registry.addJoker(deck, uid);
    else this.#registry.addTag(deck, face, uid);
    return { uid };
  }
}
