import { html, nothing, type TemplateResult } from 'lit';
import { LightElement } from '../../display/web/light-element.js';
import { INCIDENT_NAMES, nameOf, RULING_NAMES } from '../../display/web/messages.js';
import type { OpenCall } from '../protocol.js';
import { ft } from './messages.js';

/**
 * One open call of the room's list: the table, what happened (the dealer's call, or the incident with
 * its ruling and article), the step the dealer is on, how long it waits, and who is on the way; a
 * signed-in supervisor answers it (`answer`).
 */
export class CallCard extends LightElement {
  static override properties = {
    call: { attribute: false },
    signedIn: { attribute: false },
    pending: { attribute: false },
    fresh: { attribute: false },
  };
  declare call: OpenCall;
  declare signedIn: boolean;
  /** "On my way" was sent and the table has not confirmed it yet. */
  declare pending: boolean;
  /** Arrived since the page last looked: it flashes. */
  declare fresh: boolean;

  constructor() {
    super();
    this.signedIn = false;
    this.pending = false;
    this.fresh = false;
  }

  protected override render(): TemplateResult {
    const language = this.language;
    const call = this.call;
    const what =
      call.kind === 'call'
        ? ft(language, 'dealerCall')
        : nameOf(language, INCIDENT_NAMES, call.incident ?? '');
    return html`<article
      class="call ${call.urgent ? 'urgent' : ''} ${this.fresh ? 'fresh' : ''}"
      data-testid="floor-call-${call.table}"
      data-key=${call.key}
      data-urgent=${String(call.urgent)}
    >
      <header>
        <strong class="call-table">${ft(language, 'table', { id: call.table })}</strong>
        ${call.hand === null ? nothing : html`<span class="muted">${ft(language, 'hand', { n: call.hand })}</span>`}
        <span class="muted since">${ft(language, 'waiting', { time: new Date(call.since).toLocaleTimeString(language) })}</span>
      </header>
      <p class="call-what" data-testid="call-what-${call.table}">${what}</p>
      ${
        call.ruling
          ? html`<p class="call-ruling">
              <strong>${nameOf(language, RULING_NAMES, call.ruling)}</strong>
              <span class="muted" data-testid="call-rule-${call.table}">${call.rule}</span>
              ${call.seats.length > 0 ? html`<span class="muted">${ft(language, 'seats', { seats: call.seats.join(', ') })}</span>` : nothing}
            </p>`
          : nothing
      }
      ${call.reason ? html`<p class="muted">${call.reason[language]}</p>` : nothing}
      ${call.kind === 'incident' ? this.#step(call) : nothing}
      ${call.urgent && call.kind === 'incident' ? html`<p class="eye">${ft(language, 'floorEye')}</p>` : nothing}
      <footer>${this.#answer(call)}</footer>
    </article>`;
  }

  #step(call: OpenCall): TemplateResult {
    const language = this.language;
    if (call.stepText === null) return html`<p class="call-step">${ft(language, 'stepsDone')}</p>`;
    return html`<p class="call-step" data-testid="call-step-${call.table}">
      ${ft(language, 'step', { n: call.step + 1, of: call.steps, text: call.stepText[language] })}
    </p>`;
  }

  #answer(call: OpenCall): TemplateResult {
    const language = this.language;
    if (call.coming) {
      return html`<span class="coming" data-testid="coming-${call.table}">${ft(language, 'coming', { name: call.coming.supervisor })}</span>`;
    }
    if (!this.signedIn) return html`<span class="muted">${ft(language, 'signInFirst')}</span>`;
    return html`<button
      class="answer"
      data-testid="answer-${call.table}"
      ?disabled=${this.pending}
      @click=${() => this.dispatchEvent(new CustomEvent('answer', { detail: call, bubbles: true }))}
    >
      ${ft(language, this.pending ? 'answerSent' : 'onMyWay')}
    </button>`;
  }
}

customElements.define('croupier-call', CallCard);
