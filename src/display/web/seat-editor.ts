import { html, type TemplateResult } from 'lit';
import { SEAT_STATUSES, type SeatStatus } from '../../domain/seats.js';
import type { PublicState } from '../../outputs/public.js';
import { LightElement } from './light-element.js';
import { t } from './messages.js';

type Seated = PublicState['seating'][number];

/** What a seat touch carries (`DISPLAY_ACTIONS.seat`): croupier trims the name and takes at most 40 characters. */
export interface SeatMark {
  seat: number;
  status: SeatStatus;
  name?: string;
}

export const NAME_MAX = 40;

/**
 * The editor of one seat, between hands: an optional player's name and four large statuses. A touch on
 * a status is the mark itself (`mark`, with the name typed if any); `close` leaves the seat as it was.
 * A name left empty keeps the one the seat has.
 */
export class SeatEditor extends LightElement {
  static override properties = {
    seat: { attribute: false },
    seated: { attribute: false },
    busy: { attribute: false },
    name: { state: true },
  };
  declare seat: number;
  /** The seat as the dealer last marked it, if ever. */
  declare seated: Seated | null;
  /** A mark is on its way: the statuses wait for its answer. */
  declare busy: boolean;
  declare name: string;

  constructor() {
    super();
    this.seat = 1;
    this.seated = null;
    this.busy = false;
    this.name = '';
  }

  /** The seat and name the field was filled from: a state update that changes neither keeps what is typed. */
  #filledFrom: string | null = null;

  protected override willUpdate(): void {
    const from = `${this.seat}:${this.seated?.name ?? ''}`;
    if (from === this.#filledFrom) return;
    this.#filledFrom = from;
    this.name = this.seated?.name ?? '';
  }

  protected override render(): TemplateResult {
    const language = this.language;
    const current = this.seated?.status ?? null;
    return html`<div class="editor-backdrop" @click=${(event: Event) => {
      if (event.target === event.currentTarget) this.#fire('close');
    }}>
      <div class="editor" data-testid="editor" role="dialog" aria-labelledby="editor-title">
        <header class="editor-head">
          <h2 id="editor-title">${t(language, 'seat', { n: this.seat })}</h2>
          <button data-testid="editor-close" @click=${() => this.#fire('close')}>${t(language, 'dismiss')}</button>
        </header>
        <label class="editor-name">
          <span>${t(language, 'playerName')}</span>
          <input
            type="text"
            data-testid="editor-name"
            maxlength=${NAME_MAX}
            autocomplete="off"
            spellcheck="false"
            enterkeyhint="done"
            .value=${this.name}
            @input=${(event: Event) => {
              this.name = (event.target as HTMLInputElement).value;
            }}
            @keydown=${(event: KeyboardEvent) => {
              if (event.key === 'Enter') this.#mark(current ?? 'in');
            }}
          />
        </label>
        <span class="label">${t(language, 'markSeat')}</span>
        <div class="editor-statuses">
          ${SEAT_STATUSES.map(
            (status) => html`<button
              class="editor-status editor-status-${status}"
              data-testid="editor-${status}"
              aria-pressed=${String(current === status)}
              ?disabled=${this.busy}
              @click=${() => this.#mark(status)}
            >
              <strong>${t(language, `seating.${status}`)}</strong>
              <span>${t(language, `seatHint.${status}`)}</span>
            </button>`,
          )}
        </div>
      </div>
    </div>`;
  }

  #mark(status: SeatStatus): void {
    if (this.busy) return;
    const name = this.name.trim();
    const mark: SeatMark = { seat: this.seat, status, ...(name !== '' && { name }) };
    this.#fire('mark', mark);
  }

  #fire(type: 'mark' | 'close', detail?: SeatMark): void {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }
}

customElements.define('croupier-seat-editor', SeatEditor);
