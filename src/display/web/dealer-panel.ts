import { html, nothing, type TemplateResult } from 'lit';
import { DISPLAY_ACTIONS } from '../protocol.js';
import { post } from './actions.js';
import { LightElement } from './light-element.js';
import { t, type UiKey } from './messages.js';
import './pin-pad.js';

/**
 * The dealer signs in for their down: their PIN on the pad (a badge at the keypad does it without the
 * screen). The name then shows in the bar, the public state and the journal. Fires `close`.
 */
export class DealerPanel extends LightElement {
  static override properties = {
    busy: { state: true },
    note: { state: true },
  };
  declare busy: boolean;
  declare note: { key: UiKey; values?: Record<string, string> } | null;

  constructor() {
    super();
    this.busy = false;
    this.note = null;
  }

  protected override render(): TemplateResult {
    const language = this.language;
    return html`<div class="floor-panel" data-testid="dealer-panel" role="dialog" aria-labelledby="dealer-title">
      <header class="floor-head">
        <h1 id="dealer-title">${t(language, 'dealerTitle')}</h1>
        <button class="dismiss" data-testid="dealer-close" @click=${() => this.dispatchEvent(new CustomEvent('close'))}>${t(language, 'dismiss')}</button>
      </header>
      ${this.note ? html`<p class="floor-note" data-testid="dealer-note" role="status">${t(language, this.note.key, this.note.values)}</p>` : nothing}
      <croupier-pin-pad
        .language=${language}
        .busy=${this.busy}
        @typing=${() => {
          this.note = null;
        }}
        @pin=${(event: CustomEvent<string>) => this.#signIn(event.detail)}
      ></croupier-pin-pad>
    </div>`;
  }

  async #signIn(pin: string): Promise<void> {
    this.busy = true;
    const response = await post(DISPLAY_ACTIONS.dealerSignIn, { pin });
    this.busy = false;
    const answer = (response?.answer ?? null) as { dealer?: string; refused?: string; until?: number } | null;
    if (response?.status === 200 && typeof answer?.dealer === 'string') {
      this.dispatchEvent(new CustomEvent('close'));
      return;
    }
    const reason = answer?.refused;
    const time = answer?.until ? new Date(answer.until).toLocaleTimeString(this.language) : '';
    if (reason === 'wrong' || reason === 'locked' || reason === 'busy')
      this.note = { key: `refused.${reason}`, values: { time } };
    else this.note = { key: 'notSent' };
  }
}

customElements.define('croupier-dealer-panel', DealerPanel);
