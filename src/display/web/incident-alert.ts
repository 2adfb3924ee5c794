import { html, nothing, type TemplateResult } from 'lit';
import type { PublicState } from '../../outputs/public.js';
import { cardsView } from './cards.js';
import { LightElement } from './light-element.js';
import { CHECK_NAMES, INCIDENT_NAMES, INCIDENT_WARNINGS, nameOf, RULING_NAMES, t } from './messages.js';

type OpenIncident = NonNullable<PublicState['incident']>;
type Seat = PublicState['seats'][number];
type Step = OpenIncident['steps'][number];

/**
 * The full-screen procedure for the open incident: what happened, the ruling and the article it rests
 * on, then the steps in order. Steps before `step` are done; the current one carries the confirm button
 * (a `confirm` event for the page to send). Nothing here scrolls: the list shrinks its type to fit.
 * An incident whose name does not say what is at stake (a tabled winner in the muck) opens with a
 * warning; a tabled winner in the muck is named with the hand it showed.
 */
export class IncidentAlert extends LightElement {
  static override properties = {
    incident: { attribute: false },
    seats: { attribute: false },
    sending: { attribute: false },
  };
  declare incident: OpenIncident | null;
  /** The hand's seats, as the public state has them: the tabled hand an incident is about is named. */
  declare seats: readonly Seat[];
  /** A confirm is on its way: the button waits, so a double tap cannot skip a step. */
  declare sending: boolean;

  constructor() {
    super();
    this.incident = null;
    this.seats = [];
    this.sending = false;
  }

  protected override render(): TemplateResult | typeof nothing {
    const incident = this.incident;
    if (!incident) return nothing;
    const language = this.language;
    const complete = incident.step >= incident.steps.length;
    const warning = INCIDENT_WARNINGS[incident.incident];
    return html`<div class="alert" data-testid="alert" role="alertdialog" aria-labelledby="alert-incident">
      <header class="alert-head">
        <h1 id="alert-incident">
          <span class="stop" data-testid="alert-stop" title=${t(language, 'stopDealing')}>${t(language, 'stop')}</span>
          <span data-testid="alert-incident" data-code=${incident.incident}>${nameOf(language, INCIDENT_NAMES, incident.incident)}</span>
        </h1>
        <div class="alert-line">
          <span class="label">${t(language, 'ruling')}</span>
          <strong data-testid="alert-ruling" data-code=${incident.ruling}>
            ${nameOf(language, RULING_NAMES, incident.ruling)}
          </strong>
          <span class="label">${t(language, 'rule')}</span>
          <span class="rule" data-testid="alert-rule">${incident.rule}</span>
        </div>
        ${warning ? html`<p class="alert-warning" data-testid="alert-warning" role="alert">${warning[language]}</p>` : nothing}
        ${incident.reason ? html`<p class="reason" data-testid="alert-reason">${incident.reason[language]}</p>` : nothing}
        ${this.#facts(incident)}
      </header>
      ${incident.floor ? html`<div class="floor-first" data-testid="alert-floor">${t(language, 'floorFirst')}</div>` : nothing}
      <ol class="steps" style="--steps:${incident.steps.length}">
        ${incident.steps.map((step, i) => this.#step(step, i, incident.step))}
      </ol>
      ${complete ? html`<p class="done-note">${t(language, 'procedureDone')}</p>` : nothing}
    </div>`;
  }

  #facts(incident: OpenIncident): TemplateResult | typeof nothing {
    if (incident.seats.length === 0 && incident.cards.length === 0) return nothing;
    const language = this.language;
    return html`<div class="alert-facts">
      ${
        incident.seats.length > 0
          ? html`<span class="label">${t(language, 'seats')}</span>
              <span data-testid="alert-seats">${incident.seats.join(', ')}</span>`
          : nothing
      }
      ${incident.incident === 'WINNING_HAND_MUCKED' ? html`<span class="label">${t(language, 'inMuck')}</span>` : nothing}
      <span class="pile" data-testid="alert-cards">${cardsView(incident.cards, language)}</span>
      ${this.#hands(incident)}
    </div>`;
  }

  /** A tabled winner in the muck: the hand as it was shown, which the dealer must not kill. */
  #hands(incident: OpenIncident): TemplateResult[] {
    if (incident.incident !== 'WINNING_HAND_MUCKED') return [];
    const language = this.language;
    return this.seats.flatMap((seat) =>
      incident.seats.includes(seat.seat) && seat.tabled?.hand
        ? [
            html`<span class="label">${t(language, 'winningHand')}</span>
              <strong class="alert-hand" data-testid="alert-hand-${seat.seat}">${seat.tabled.hand.name[language]}</strong>
              <span class="pile">${cardsView(seat.tabled.cards, language)}</span>`,
          ]
        : [],
    );
  }

  #step(step: Step, i: number, current: number): TemplateResult {
    const language = this.language;
    const done = i < current;
    const now = i === current;
    const check = step.check ? nameOf(language, CHECK_NAMES, step.check) : null;
    return html`<li
      class="step ${done ? 'done' : now ? 'current' : 'todo'}"
      data-testid="step-${i}"
      data-done=${String(done)}
      data-current=${String(now)}
      data-code=${step.code}
    >
      <span class="step-no">${done ? '✓' : i + 1}</span>
      <div class="step-body">
        <span class="step-text">${step.text[language]}</span>
        ${check ? html`<span class="hint">${t(language, 'sensorCheck', { check })}</span>` : nothing}
      </div>
      ${now ? this.#confirm() : nothing}
    </li>`;
  }

  #confirm(): TemplateResult {
    return html`<button
      class="confirm"
      data-testid="confirm"
      ?disabled=${this.sending}
      @click=${() => this.dispatchEvent(new CustomEvent('confirm', { bubbles: true }))}
    >
      ${t(this.language, this.sending ? 'sending' : 'confirm')}
    </button>`;
  }
}

customElements.define('croupier-alert', IncidentAlert);
