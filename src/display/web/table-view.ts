import { html, nothing, type TemplateResult } from 'lit';
import { MAX_SEATS } from '../../domain/seats.js';
import type { PublicState } from '../../outputs/public.js';
import { cardsView } from './cards.js';
import { LightElement } from './light-element.js';
import { t } from './messages.js';
import { showdownView } from './showdown-view.js';

type Seat = PublicState['seats'][number];
type Seated = PublicState['seating'][number];
type NextHand = NonNullable<PublicState['nextHand']>;
/** A seat between hands: as the dealer marked it, or empty. */
export type PlaceStatus = Seated['status'] | 'empty';

/** No hand in play: none yet, or the last one over or void. The dealer marks seats and starts the next. */
export function betweenHands(view: PublicState | null): view is PublicState {
  return view?.betweenHands === true;
}

/** Seats run clockwise from the dealer's left; the dealer's place is the gap at the bottom of the oval. */
const DEALER_GAP_DEG = 30;

function place(seat: number, count: number): string {
  const step = (360 - 2 * DEALER_GAP_DEG) / (count - 1);
  const angle = ((90 + DEALER_GAP_DEG + (seat - 1) * step) * Math.PI) / 180;
  return `left:${50 + 44 * Math.cos(angle)}%;top:${50 + 41 * Math.sin(angle)}%`;
}

/**
 * The table seen from the dealer's chair. In a hand: seats with their card counts (a tabled hand face
 * up, with its name), the button, blinds and the middle, which holds the showdown once it begins.
 * Between hands: each seat a touch target (`edit-seat`, its number as detail) showing how the dealer
 * marked it and where the next hand puts the button and blinds; the level and that hand in the middle.
 */
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
    const seating = new Map((view?.seating ?? []).map((seat) => [seat.seat, seat]));
    const count = Math.max(this.seats, ...dealt.keys(), ...seating.keys());
    const seats = Array.from({ length: count }, (_, i) => i + 1);
    const between = betweenHands(view);
    return html`<div class="felt">
      ${seats.map((n) => (between ? this.#place(n, count, view, seating.get(n)) : this.#seat(n, count, dealt.get(n), seating.get(n))))}
      <div class="dealer-spot">${t(this.language, 'dealer')}</div>
      ${between ? this.#next(view) : view ? this.#middle(view) : nothing}
    </div>`;
  }

  /** A seat between hands: a touch opens its editor. */
  #place(n: number, count: number, view: PublicState, seated: Seated | undefined): TemplateResult {
    const language = this.language;
    const next = view.nextHand;
    const plays = next?.players.includes(n) ?? false;
    // Without any seat marked, the last hand's players play on: those seats are taken.
    const status: PlaceStatus = seated?.status ?? (plays ? 'in' : 'empty');
    const label = status === 'waiting' && plays ? t(language, 'comesIn') : t(language, `seating.${status}`);
    return html`<button
      class="seat place place-${status} ${plays ? 'plays' : ''}"
      style=${place(n, count)}
      data-testid="seat-${n}"
      data-status=${status}
      data-plays=${String(plays)}
      @click=${() => this.dispatchEvent(new CustomEvent('edit-seat', { detail: n }))}
    >
      <span class="seat-name">${t(language, 'seat', { n })}</span>
      ${seated?.name ? html`<span class="player" data-testid="seat-${n}-player">${seated.name}</span>` : nothing}
      <span class="seat-status">${label}</span>
      <span class="marks">${next ? this.#nextMarks(n, next) : nothing}</span>
    </button>`;
  }

  #nextMarks(n: number, next: NextHand): TemplateResult[] {
    const language = this.language;
    const marks: TemplateResult[] = [];
    if (next.button === n)
      marks.push(
        html`<span class="mark button" data-testid="mark-button">${t(language, 'buttonMark')}</span>`,
      );
    if (next.sb === n)
      marks.push(html`<span class="mark blind" data-testid="mark-sb">${t(language, 'smallBlind')}</span>`);
    if (next.bb === n)
      marks.push(html`<span class="mark blind" data-testid="mark-bb">${t(language, 'bigBlind')}</span>`);
    if (next.posted?.includes(n))
      marks.push(html`<span class="mark blind" data-testid="mark-posts">${t(language, 'postsMark')}</span>`);
    return marks;
  }

  /** The middle between hands: the level in force, and the hand the dealer's "next hand" starts. */
  #next(view: PublicState): TemplateResult {
    const language = this.language;
    const number = new Intl.NumberFormat(language);
    const [sb, bb] = view.level.blinds;
    const level = t(language, 'level', { sb: number.format(sb), bb: number.format(bb) });
    const ante =
      view.level.ante > 0 ? ` · ${t(language, 'ante', { ante: number.format(view.level.ante) })}` : '';
    const next = view.nextHand;
    return html`<div class="middle next-hand-info" id="next-info" data-testid="next-info">
      <div class="round">${t(language, 'nextHand')}</div>
      <div class="level" data-testid="level">${level}${ante}</div>
      ${
        next
          ? html`<ul class="next-positions">
              <li data-testid="next-button">${t(language, 'next.button', { n: next.button })}</li>
              <li data-testid="next-sb">${next.sb === null ? t(language, 'next.noSb') : t(language, 'next.sb', { n: next.sb })}</li>
              <li data-testid="next-bb">${t(language, 'next.bb', { n: next.bb })}</li>
              ${next.posted?.length ? html`<li data-testid="next-posted">${t(language, 'next.posted', { seats: next.posted.join(', ') })}</li>` : nothing}
            </ul>
            <div class="next-players" data-testid="next-players">
              ${t(language, 'next.players', { n: next.players.length })} · <span class="rule">${next.rule}</span>
            </div>`
          : html`<p class="next-none" data-testid="next-none">${t(language, 'next.none')}</p>`
      }
      <p class="touch-hint">${t(language, 'touchSeat')}</p>
    </div>`;
  }

  #seat(n: number, count: number, seat: Seat | undefined, seated: Seated | undefined): TemplateResult {
    const language = this.language;
    const view = this.view;
    const status = seat?.status ?? 'out';
    const won = view?.showdown?.pots.some((pot) => pot.award?.winners.includes(n)) ?? false;
    const marks = [
      view?.button === n ? html`<span class="mark button">${t(language, 'buttonMark')}</span>` : nothing,
      view?.blinds?.sb === n ? html`<span class="mark blind">${t(language, 'smallBlind')}</span>` : nothing,
      view?.blinds?.bb === n ? html`<span class="mark blind">${t(language, 'bigBlind')}</span>` : nothing,
    ];
    const tabled = seat?.tabled;
    return html`<div
      class="seat status-${status} ${tabled ? 'tabled' : seat?.faceUp ? 'face-up' : ''} ${won ? 'won' : ''}"
      style=${place(n, count)}
      data-testid="seat-${n}"
      data-status=${status}
      data-cards=${seat?.cards ?? 0}
      data-won=${String(won)}
    >
      <span class="seat-name">${t(language, 'seat', { n })}</span>
      ${seated?.name ? html`<span class="player" data-testid="seat-${n}-player">${seated.name}</span>` : nothing}
      ${
        tabled
          ? html`<span class="tabled-cards" data-testid="seat-${n}-tabled">${cardsView(tabled.cards, language)}</span>`
          : seat
            ? html`<span class="count" data-testid="seat-${n}-count">${seat.cards}</span>${
                seat.faceUp
                  ? html`<span class="face-up-cards" data-testid="seat-${n}-face-up">${cardsView(seat.faceUp, language)}</span>`
                  : nothing
              }`
            : nothing
      }
      <span class="seat-status">${t(language, `status.${status}`)}</span>
      ${tabled?.hand ? html`<span class="hand-name" data-testid="seat-${n}-hand" data-category=${tabled.hand.category}>${tabled.hand.name[language]}</span>` : nothing}
      <span class="marks">${marks}</span>
    </div>`;
  }

  /** In a hand: the board, then the showdown once it has begun, else the burn and dead cards. */
  #middle(view: PublicState): TemplateResult {
    const language = this.language;
    const round = view.street ? t(language, `street.${view.street}`) : t(language, `phase.${view.phase}`);
    const showdown = view.showdown;
    return html`<div class="middle ${showdown ? 'at-showdown' : ''}">
      <div class="round">${round}</div>
      <div class="pile board" data-testid="board">${cardsView(view.board, language)}</div>
      ${showdown ? showdownView(view, showdown, language) : this.#piles(view)}
      ${view.pot > 0 ? this.#pot(view.pot) : nothing}
    </div>`;
  }

  #piles(view: PublicState): TemplateResult {
    const language = this.language;
    return html`<div class="piles">
        <div class="pile-box">
          <span class="pile-name">${t(language, 'burn')}</span>
          <div class="pile" data-testid="burn">${cardsView(view.burn, language)}</div>
        </div>
        <div class="pile-box">
          <span class="pile-name">${t(language, 'dead')}</span>
          <div class="pile" data-testid="dead">${cardsView(view.dead, language)}</div>
        </div>
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
