import { html, nothing, type TemplateResult } from 'lit';
import { post } from '../../display/web/actions.js';
import { LightElement } from '../../display/web/light-element.js';
import '../../display/web/pin-pad.js';
import { FLOOR_API, type FloorPageSession } from '../protocol.js';
import { type FloorKey, ft } from './messages.js';

/** A badge reader on a tablet types the UID as keys and Enter, faster than a hand could. */
const BADGE = /^[0-9A-Fa-f]{4,64}$/;
const BADGE_KEY_GAP_MS = 60;

/**
 * A supervisor signs in on the tablet: their PIN on the pad, or their badge on a reader that types it
 * (a keyboard wedge), checked by the floor service against the tables' own hashes. Fires `session`
 * with it, and `close`.
 */
export class SignInPanel extends LightElement {
  static override properties = {
    busy: { state: true },
    note: { state: true },
  };
  declare busy: boolean;
  declare note: { key: FloorKey; values?: Record<string, string> } | null;
  #typed = '';
  #lastKey = 0;
  readonly #keys = (event: KeyboardEvent) => this.#key(event);

  constructor() {
    super();
    this.busy = false;
    this.note = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('keydown', this.#keys);
  }

  override disconnectedCallback(): void {
    window.removeEventListener('keydown', this.#keys);
    super.disconnectedCallback();
  }

  protected override render(): TemplateResult {
    const language = this.language;
    return html`<div class="floor-panel sign-in" data-testid="floor-sign-in" role="dialog" aria-labelledby="sign-in-title">
      <header class="floor-head">
        <h1 id="sign-in-title">${ft(language, 'signInTitle')}</h1>
        <button class="dismiss" data-testid="sign-in-close" @click=${() => this.#fire('close')}>${ft(language, 'dismiss')}</button>
      </header>
      ${this.note ? html`<p class="floor-note" data-testid="sign-in-note" role="status">${ft(language, this.note.key, this.note.values)}</p>` : nothing}
      <croupier-pin-pad
        .language=${language}
        .busy=${this.busy}
        @typing=${() => {
          this.note = null;
        }}
        @pin=${(event: CustomEvent<string>) => this.#signIn({ pin: event.detail })}
      ></croupier-pin-pad>
    </div>`;
  }

  /** Keys typed in a burst and ended by Enter are a badge. */
  #key(event: KeyboardEvent): void {
    const now = performance.now();
    if (now - this.#lastKey > BADGE_KEY_GAP_MS) this.#typed = '';
    this.#lastKey = now;
    if (event.key === 'Enter') {
      const badge = this.#typed;
      this.#typed = '';
      if (BADGE.test(badge)) void this.#signIn({ badge });
    } else if (event.key.length === 1) this.#typed += event.key;
  }

  async #signIn(credential: { pin: string } | { badge: string }): Promise<void> {
    this.busy = true;
    const response = await post(FLOOR_API.signIn, credential);
    this.busy = false;
    if (response?.status === 200) {
      this.#fire('session', response.answer as FloorPageSession);
      return;
    }
    const answer = (response?.answer ?? null) as { refused?: string; until?: number } | null;
    const reason = answer?.refused;
    const time = answer?.until ? new Date(answer.until).toLocaleTimeString(this.language) : '';
    if (reason === 'wrong' || reason === 'locked' || reason === 'busy')
      this.note = { key: `refused.${reason}`, values: { time } };
    else this.note = { key: 'notSent' };
  }

  #fire(type: 'session' | 'close', detail?: FloorPageSession): void {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }
}

customElements.define('croupier-floor-sign-in', SignInPanel);
