import { html, type TemplateResult } from 'lit';
import { LightElement } from './light-element.js';
import { t } from './messages.js';
import './pin-pad.css';

const PAD = ['1', '2', '3', '4', '5', '6', '7', '8', '9', 'erase', '0', 'enter'] as const;
const MAX_PIN = 12;

/**
 * A PIN pad: the digits typed show as dots; Enter fires `pin` with them (and clears), any key `typing`.
 * The supervisor's panel, the dealer's sign-in and the floor's tablets type their PINs on it.
 */
export class PinPad extends LightElement {
  static override properties = {
    busy: { attribute: false },
    pin: { state: true },
  };
  /** A PIN is being checked: the keys wait. */
  declare busy: boolean;
  declare pin: string;

  constructor() {
    super();
    this.busy = false;
    this.pin = '';
  }

  protected override render(): TemplateResult {
    const language = this.language;
    return html`<div class="pin" data-testid="pin" aria-live="polite">${'●'.repeat(this.pin.length) || '\u00a0'}</div>
      <div class="pad">
        ${PAD.map((key) =>
          key === 'erase' || key === 'enter'
            ? html`<button class="pad-key ${key}" data-testid="pad-${key}" ?disabled=${this.busy} @click=${() => (key === 'erase' ? this.#erase() : this.#enter())}>
                ${t(language, key === 'erase' ? 'erase' : 'signInOk')}
              </button>`
            : html`<button class="pad-key" data-testid="pad-${key}" ?disabled=${this.busy} @click=${() => this.#type(key)}>${key}</button>`,
        )}
      </div>`;
  }

  #type(digit: string): void {
    if (this.pin.length < MAX_PIN) this.pin += digit;
    this.dispatchEvent(new CustomEvent('typing'));
  }

  #erase(): void {
    this.pin = '';
  }

  #enter(): void {
    const pin = this.pin;
    this.pin = '';
    this.dispatchEvent(new CustomEvent('pin', { detail: pin }));
  }
}

customElements.define('croupier-pin-pad', PinPad);
