import { html, nothing, type TemplateResult } from 'lit';
import type { PublicCard } from '../../outputs/public.js';
import type { Language } from '../protocol.js';
import { t } from './messages.js';

/** Suit symbols and the ten as the cards print them: glyphs, the same in every language. */
const SUIT: Record<string, string> = { s: '♠', h: '♥', d: '♦', c: '♣' };
const RANK: Record<string, string> = { T: '10' };

/**
 * One card as the table may show it: a face down card stays a card back (it is never named here: the
 * display only has `{ hidden: true }` for it); a tag outside the deck registry shows as unknown.
 */
export function cardView(card: PublicCard, language: Language): TemplateResult {
  if ('hidden' in card) return html`<span class="card back" data-testid="card" data-hidden="true"></span>`;
  const { face, deck } = card;
  if (!face) {
    return html`<span class="card unknown" data-testid="card" data-face="">
      <span class="rank">?</span><span class="suit">${t(language, 'unknownCard')}</span>
    </span>`;
  }
  const rank = face.slice(0, -1);
  const suit = face.slice(-1);
  return html`<span class="card suit-${suit}" data-testid="card" data-face=${face} data-deck=${deck ?? ''}>
    <span class="rank">${RANK[rank] ?? rank}</span><span class="suit">${SUIT[suit] ?? suit}</span>
    ${deck ? html`<span class="deck">${t(language, 'deck', { id: deck })}</span>` : nothing}
  </span>`;
}

export function cardsView(cards: readonly PublicCard[], language: Language): TemplateResult[] {
  return cards.map((card) => cardView(card, language));
}
