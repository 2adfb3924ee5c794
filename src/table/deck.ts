import type { CardRef } from '../domain/cards.js';
import type { ShufflerReport } from '../domain/events.js';
import { type Draft, keepDeck, report } from './draft.js';

type DeckIncident = 'DECK_COUNT' | 'DECK_FACE_UP' | 'DECK_UNKNOWN_CARD' | 'CARD_NOT_RETURNED';

/**
 * The shuffler's count and card recognition of a deck ready to deal: a foreign or other-deck card,
 * a wrong count, a face-up card. The first count of a deck after it was dealt is its return: a card
 * short, or one the hand had in play listed missing, may be held out.
 */
export function onShuffler(d: Draft, e: ShufflerReport): void {
  if (e.state !== 'ready') return;
  const record = e.deck === null ? undefined : d.ctx.decks[e.deck];
  if (e.deck !== null && record && !record.returned) {
    keepDeck(d, e.deck, { ...record, returned: true });
    const h = d.hand;
    const inPlay = h !== null && h.no === record.lastHand ? h.cards : {};
    const heldOut = e.missing.some((c) => Object.hasOwn(inPlay, c.uid));
    if ((e.count !== undefined && e.count < 52) || heldOut) return raiseOnce(d, 'CARD_NOT_RETURNED', [], e);
  }
  const fault = deckFault(e);
  if (fault) return raiseOnce(d, fault.incident, fault.cards, e);
  const clean = e.deck === null ? undefined : d.ctx.decks[e.deck];
  if (e.deck !== null && clean) keepDeck(d, e.deck, { ...clean, fault: null });
}

/** What is wrong with a deck the shuffler reports ready, and the cards to name. */
export function deckFault(e: ShufflerReport): { incident: DeckIncident; cards: CardRef[] } | null {
  const unknown = [...e.extra, ...e.faceUp].filter(
    (c) => c.face === null || (e.deck !== null && c.deck !== e.deck),
  );
  if (unknown.length > 0) return { incident: 'DECK_UNKNOWN_CARD', cards: unknown };
  const miscount = (e.count !== undefined && e.count !== 52) || e.missing.length > 0 || e.extra.length > 0;
  if (miscount) return { incident: 'DECK_COUNT', cards: [...e.missing, ...e.extra] };
  if (e.faceUp.length > 0) return { incident: 'DECK_FACE_UP', cards: e.faceUp };
  return null;
}

/** The shuffler repeats its status: one alarm per fault of a deck. */
function raiseOnce(d: Draft, incident: DeckIncident, cards: CardRef[], e: ShufflerReport): void {
  const key = e.deck ?? '?';
  const record = d.ctx.decks[key] ?? { lastHand: 0, returned: true, fault: null };
  const fingerprint = JSON.stringify([incident, e.count, e.missing, e.extra, e.faceUp]);
  if (record.fault === fingerprint) return;
  keepDeck(d, key, { ...record, fault: fingerprint });
  report(d, { incident }, e.seq, [], cards);
}
