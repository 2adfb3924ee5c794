import { html, nothing, type TemplateResult } from 'lit';
import { MAX_SEATS } from '../../domain/seats.js';
import type { PublicState } from '../../outputs/public.js';
import { cardsView } from './cards.js';
import { LightElement } from './light-element.js';
import { t } from './messages.js';

type Seat = PublicState['seats'][number];

/** Seats run clockwise from the dealer's left; the dealer's place is the gap at the bottom of the oval. */
const DEALER_GAP_DEG = 30;

function place(seat: number, count: number): string {
  const step = (360 - 2 * DEALER_GAP_DEG) / (count - 1);
  const angle = ((90 + DEALER_GAP_DEG + (seat - 1) * step) * Math.PI) / 180;
  return `left:${50 + 44 * Math.cos(angle)}%;top:${50 + 41 * Math.sin(angle)}%`;
}

/** The table seen from the dealer's chair: seats with their card counts, the button, blinds and the middle. */
export class TableView extends LightElement {
  static override properties = { view: { attribute: false }, seats: { attribute: false } };
  declare view: PublicState | null;
  /** The table's seats, from the config. */
  declare seats: number;

  constructor() {
    super();
    this.view = null;
    this.seats = MAX_SEATS;
  }

  protected override render(): TemplateResult {
    const view = this.view;
    const dealt = new Map((view?.seats ?? []).map((seat) => [seat.seat, seat]));
    const count = Math.max(this.seats, ...dealt.keys());
    const seats = Array.from({ length: count }, (_, i) => i + 1);
    return html`<div class="felt">
      ${seats.map((n) => this.#seat(n, count, dealt.get(n)))}
      <div class="dealer-spot">${t(this.language, 'dealer')}</div>
      ${view ? this.#middle(view) : nothing}
    </div>`;
  }

  #seat(n: number, count: number, seat: Seat | undefined): TemplateResult {
    const language = this.language;
    const view = this.view;
    const status = seat?.status ?? 'out';
    const marks = [
      view?.button === n ? html`<span class="mark button">${t(language, 'buttonMark')}</span>` : nothing,
      view?.blinds?.sb === n ? html`<span class="mark blind">${t(language, 'smallBlind')}</span>` : nothing,
      view?.blinds?.bb === n ? html`<span class="mark blind">${t(language, 'bigBlind')}</span>` : nothing,
    ];
    return html`<div
      class="seat status-${status}"
      style=${place(n, count)}
      data-testid="seat-${n}"
      data-status=${status}
      data-cards=${seat?.cards ?? 0}
    >
      <span class="seat-name">${t(language, 'seat', { n })}</span>
      ${seat ? html`<span class="count" data-testid="seat-${n}-count">${seat.cards}</span>` : nothing}
      <span class="seat-status">${t(language, `status.${status}`)}</span>
      <span class="marks">${marks}</span>
    </div>`;
  }

  #middle(view: PublicState): TemplateResult {
    const language = this.language;
    const round = view.street ? t(language, `street.${view.street}`) : t(language, `phase.${view.phase}`);
    return html`<div class="middle">
      <div class="round">${round}</div>
      <div class="pile board" data-testid="board">${cardsView(view.board, language)}</div>
      <div class="piles">
        <div class="pile-box">
          <span class="pile-name">${t(language, 'burn')}</span>
          <div class="pile" data-testid="burn">${cardsView(view.burn, language)}</div>
        </div>
        <div class="pile-box">
          <span class="pile-name">${t(language, 'dead')}</span>
          <div class="pile" data-testid="dead">${cardsView(view.dead, language)}</div>
        </div>
      </div>
      ${view.pot > 0 ? this.#pot(view.pot) : nothing}
    </div>`;
  }

  /** Shown only once chip sensors have counted something: a table without them never sees a pot. */
  #pot(pot: number): TemplateResult {
    const language = this.language;
    return html`<div class="pot" data-testid="pot">
      ${t(language, 'pot')} <strong>${new Intl.NumberFormat(language).format(pot)}</strong>
    </div>`;
  }
}

customElements.define('croupier-table', TableView);
