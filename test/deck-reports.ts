import type { ShufflerReport, Unsequenced } from '../src/domain/events.js';

/** The shuffler's report of a clean deck, counted 52 and ready to deal. */
export function readyDeck(deck: string, t = 0): Unsequenced<ShufflerReport> {
  return { type: 'shuffler', t, state: 'ready', deck, count: 52, faceUp: [], missing: [], extra: [] };
}
