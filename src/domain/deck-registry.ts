import { type CardRef, FACES, type Face } from './cards.js';

/** A registration the registry refuses; the message is meant for the person registering the deck. */
export class RegistryError extends Error {
  override name = 'RegistryError';
}

/** HF card tags carry 4- to 10-byte UIDs (ISO 14443 single to triple size, ISO 15693 8 bytes). */
const UID_PATTERN = /^(?:[0-9A-F]{2}){4,10}$/;

export function isTagUid(uid: string): boolean {
  return UID_PATTERN.test(uid.toUpperCase());
}

/** Readers and card makers' lists differ in hex case; the registry keys on upper case. */
function normaliseUid(uid: string): string {
  const upper = uid.toUpperCase();
  if (!UID_PATTERN.test(upper)) throw new RegistryError(`"${uid}" is not a tag UID (4 to 10 bytes in hex)`);
  return upper;
}

interface Tag {
  deck: string;
  /** Null for a card of the deck that is no standard card for the game (a joker). */
  face: Face | null;
  /** 1 for the deck's own card, 2.. for further tags of the same face (replacement cards, further jokers). */
  copy: number;
  /** The deck the table knows the card by: the first registered deck of its back (see `registerDeck`). */
  playsAs: string;
}

/** A scenario's deck: its id and the colour of its back. */
export interface ScenarioDeck {
  id: string;
  back: string;
}

/**
 * The backs of a scenario's plain deck ids, alternating as a table's two colours do. A back a
 * scenario names has no space, so it is never one of these.
 */
const PLAIN_BACKS = ['first back', 'second back'] as const;

function describeTag({ deck, face, copy }: Tag): string {
  return `${face ?? 'joker'} of deck ${deck}${copy > 1 ? ` (copy ${copy})` : ''}`;
}

/**
 * Maps each card tag UID to its face and deck id; a UID it does not know is a foreign card. A deck's
 * jokers are marked non-standard: they read as the deck's cards with no face (tda-2024 #35-A-6).
 */
export class DeckRegistry {
  readonly #tags = new Map<string, Tag>();
  /** UIDs of each deck's face, by copy: key `deck face`. */
  readonly #copies = new Map<string, string[]>();
  /** The deck each registered deck plays as. */
  readonly #playsAs = new Map<string, string>();
  /** The first registered deck of each named back. */
  readonly #firstOfBack = new Map<string, string>();

  /**
   * A registry holding each deck with the deterministic scenario UIDs (see `scenarioUid`). Plain ids
   * alternate two backs (A, B, then C a copy of A); `{ id, back }` decks have the back they name.
   */
  static forScenario(decks: readonly (string | ScenarioDeck)[]): DeckRegistry {
    const registry = new DeckRegistry();
    decks.forEach((deck, i) => {
      const { id, back } = typeof deck === 'string' ? { id: deck, back: PLAIN_BACKS[i % 2] } : deck;
      registry.registerDeck(
        id,
        FACES.map((face) => scenarioUid(id, face)),
        back,
      );
    });
    return registry;
  }

  /**
   * Registers a deck scanned in the known order: `uidsInFacesOrder[i]` is the tag of `FACES[i]`.
   * Decks of one `back` are interchangeable copies: the table tells decks apart by their back only,
   * so a copy's cards read as the first deck of that back (a face of both in play is a duplicate
   * card, not a mixed deck). A deck registered without a back is a colour of its own.
   */
  registerDeck(deckId: string, uidsInFacesOrder: readonly string[], back?: string): void {
    if (deckId === '') throw new RegistryError('a deck id must not be empty');
    if (this.decks().includes(deckId)) throw new RegistryError(`deck ${deckId} is already registered`);
    if (uidsInFacesOrder.length !== FACES.length) {
      throw new RegistryError(
        `deck ${deckId}: expected ${FACES.length} tag UIDs (one per face, in FACES order), got ${uidsInFacesOrder.length}`,
      );
    }
    // Check the whole list before registering anything, so a refused deck leaves no trace.
    const listed = new Map<string, Face>();
    FACES.forEach((face, i) => {
      const uid = normaliseUid(uidsInFacesOrder[i] ?? '');
      const twin = listed.get(uid);
      if (twin) throw new RegistryError(`deck ${deckId}: UID ${uid} is listed for both ${twin} and ${face}`);
      this.#assertFree(uid);
      listed.set(uid, face);
    });
    const playsAs = (back === undefined ? undefined : this.#firstOfBack.get(back)) ?? deckId;
    if (back !== undefined && playsAs === deckId) this.#firstOfBack.set(back, deckId);
    this.#playsAs.set(deckId, playsAs);
    for (const [uid, face] of listed) this.#add(uid, { deck: deckId, face, copy: 1, playsAs });
  }

  /** Registers a further physical tag for a face of a registered deck (e.g. a replacement card). */
  addTag(deckId: string, face: Face, uid: string): void {
    const copies = this.#copies.get(copiesKey(deckId, face));
    const playsAs = this.#playsAs.get(deckId);
    if (!copies || playsAs === undefined) throw new RegistryError(`deck ${deckId} is not registered`);
    const normalised = normaliseUid(uid);
    this.#assertFree(normalised);
    this.#add(normalised, { deck: deckId, face, copy: copies.length + 1, playsAs });
  }

  /**
   * Registers a tag of a registered deck that is no standard card for the game (a joker, numbered in the
   * order its deck's jokers are registered): it reads as that deck's card with no face.
   */
  addJoker(deckId: string, uid: string): void {
    const playsAs = this.#playsAs.get(deckId);
    if (playsAs === undefined) throw new RegistryError(`deck ${deckId} is not registered`);
    const normalised = normaliseUid(uid);
    this.#assertFree(normalised);
    const copy = (this.#copies.get(copiesKey(deckId, null))?.length ?? 0) + 1;
    this.#add(normalised, { deck: deckId, face: null, copy, playsAs });
  }

  /**
   * The card a tag stands for, as the table knows it (a copy deck's card names the deck it plays as);
   * face and deck are null for a tag no registered deck has (a foreign card); a joker has its deck and
   * no face.
   */
  lookup(uid: string): CardRef {
    const normalised = uid.toUpperCase();
    const tag = this.#tags.get(normalised);
    return { uid: normalised, face: tag?.face ?? null, deck: tag?.playsAs ?? null };
  }

  /** The registry marks the tag as a registered deck's non-standard card (a joker). */
  isNonStandard(uid: string): boolean {
    return this.#tags.get(uid.toUpperCase())?.face === null;
  }

  /** Which physical tag of its face (or which joker) a UID is (1 = the first); undefined when unknown. */
  copyOf(uid: string): number | undefined {
    return this.#tags.get(uid.toUpperCase())?.copy;
  }

  /** The registered deck a tag belongs to, a copy deck's own id included; undefined when unknown. */
  deckOf(uid: string): string | undefined {
    return this.#tags.get(uid.toUpperCase())?.deck;
  }

  /** The deck a registered deck's cards play as (itself unless it is a copy); undefined when unknown. */
  playsAs(deckId: string): string | undefined {
    return this.#playsAs.get(deckId);
  }

  /** The tag of a face of a deck, or of its `copy`-th joker when `face` is null. */
  uidOf(deckId: string, face: Face | null, copy = 1): string | undefined {
    return this.#copies.get(copiesKey(deckId, face))?.[copy - 1];
  }

  /** Registered deck ids, in registration order. */
  decks(): string[] {
    return [...new Set([...this.#tags.values()].map((tag) => tag.deck))];
  }

  #assertFree(uid: string): void {
    const tag = this.#tags.get(uid);
    if (tag) throw new RegistryError(`UID ${uid} is already registered to ${describeTag(tag)}`);
  }

  #add(uid: string, tag: Tag): void {
    this.#tags.set(uid, tag);
    const key = copiesKey(tag.deck, tag.face);
    this.#copies.set(key, [...(this.#copies.get(key) ?? []), uid]);
  }
}

function copiesKey(deckId: string, face: Face | null): string {
  return `${deckId} ${face ?? 'joker'}`;
}

/**
 * A stable 4-byte tag UID for scenarios and simulators: 16 bits folded from an FNV-1a hash of the deck id,
 * then the copy (1-255), then the face's index in FACES. Distinct across faces and copies by construction;
 * two deck ids whose hashes collide are refused by `registerDeck` rather than silently merged.
 */
export function scenarioUid(deckId: string, face: Face, copy = 1): string {
  if (!Number.isInteger(copy) || copy < 1 || copy > 255) throw new RangeError(`copy ${copy} is not in 1-255`);
  return scenarioTag(deckId, copy, FACES.indexOf(face));
}

/** The n-th joker's scenario UID: copy byte 0, which no face's tag has, then n (1-255). */
export function scenarioJokerUid(deckId: string, n = 1): string {
  if (!Number.isInteger(n) || n < 1 || n > 255) throw new RangeError(`joker ${n} is not in 1-255`);
  return scenarioTag(deckId, 0, n);
}

function scenarioTag(deckId: string, high: number, low: number): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(deckId)) hash = Math.imul(hash ^ byte, 0x01000193);
  const deckBits = ((hash >>> 16) ^ hash) & 0xffff;
  const uid = ((deckBits << 16) | (high << 8) | low) >>> 0;
  return uid.toString(16).toUpperCase().padStart(8, '0');
}
