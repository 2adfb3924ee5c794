import { html, nothing, type TemplateResult } from 'lit';
import { MAX_SEATS } from '../../domain/seats.js';
import type { PublicOutput, PublicState } from '../../outputs/public.js';
import type { FloorSession } from '../../supervisor/desk.js';
import type { DisplayDevice, Language } from '../protocol.js';
import { type DisplayAction, send, type Touch } from './actions.js';
import { LightElement } from './light-element.js';
import { DisplayLink } from './link.js';
import { isUiKey, nameOf, PROMPT_NAMES, t, type UiKey } from './messages.js';
import type { SeatMark } from './seat-editor.js';
import { betweenHands } from './table-view.js';
import './dealer-panel.js';
import './floor-panel.js';
import './incident-alert.js';
import './seat-editor.js';

type Prompt = Extract<PublicOutput, { kind: 'prompt' }>;

/** A refused touch in the screen's language where croupier gave its code, else in croupier's words. */
function noticeOf(touch: Extract<Touch, { taken: false }>): NonNullable<DisplayApp['notice']> {
  if (touch.error === null) return { key: 'notSent' };
  const key = `refused.${touch.code}`;
  return isUiKey(key) ? { key } : { key: 'refusedTouch', values: { error: touch.error } };
}

/** How long a refused or lost touch stays said on screen. */
const NOTICE_MS = 10_000;

/** Which step a confirm was sent for: the button waits until the table has moved past it. */
function stepKey(incident: PublicState['incident']): string | null {
  return incident ? `${incident.at}:${incident.step}` : null;
}

/**
 * The dealer display: the bar (hand, connection, language, call the floor), the table, the device
 * strip, a prompt banner, and the incident alert over everything but the bar while a procedure is open.
 */
export class DisplayApp extends LightElement {
  static override properties = {
    chosen: { state: true },
    prompt: { state: true },
    sending: { state: true },
    notice: { state: true },
    session: { state: true },
    floorOpen: { state: true },
    dealerOpen: { state: true },
    editing: { state: true },
  };
  /** The language the dealer picked on screen; until then, the configured one from `hello`. */
  declare chosen: Language | null;
  /** The last prompt, with the hand it belongs to: it goes when the dealer closes it or the hand ends. */
  declare prompt: { output: Prompt; hand: number | null } | null;
  declare sending: string | null;
  /** The last touch croupier refused (with its reason) or that did not get through. */
  declare notice: { key: UiKey; values?: Record<string, string> } | null;
  /** The supervisor signed in at this screen, while their session lasts. */
  declare session: FloorSession | null;
  declare floorOpen: boolean;
  /** The dealer's sign-in for their down is open. */
  declare dealerOpen: boolean;
  /** The seat whose editor is open, between hands. */
  declare editing: number | null;
  #noticeTimer: number | undefined;

  readonly #link = new DisplayLink(this, new URL('/ws', location.href.replace(/^http/, 'ws')).href, {
    output: (output) => {
      if (output.kind === 'prompt') this.prompt = { output, hand: this.#link.state?.state.hand ?? null };
    },
    floor: (session) => {
      this.session = session;
      this.floorOpen = true;
    },
  });

  constructor() {
    super();
    this.chosen = null;
    this.prompt = null;
    this.sending = null;
    this.notice = null;
    this.session = null;
    this.floorOpen = false;
    this.dealerOpen = false;
    this.editing = null;
  }

  protected override willUpdate(): void {
    this.language = this.chosen ?? this.#link.hello?.language ?? 'fr';
    // Seats are marked between hands only: a hand that starts, or an incident, closes the editor.
    const view = this.#link.state?.state ?? null;
    if (this.editing !== null && (!betweenHands(view) || view.incident !== null)) this.editing = null;
  }

  protected override updated(): void {
    document.documentElement.lang = this.language;
  }

  protected override render(): TemplateResult {
    const view = this.#link.state?.state ?? null;
    const live = this.#link.status === 'open';
    return html`${this.#bar(view)}
      <main class="table-area ${live ? '' : 'stale'}">
        ${live ? nothing : html`<p class="stale-note">${t(this.language, 'stale')}</p>`}
        <croupier-table
          .view=${view}
          .seats=${this.#link.hello?.seats ?? MAX_SEATS}
          .language=${this.language}
          @edit-seat=${(event: CustomEvent<number>) => {
            this.editing = event.detail;
          }}
        ></croupier-table>
        ${this.#prompt(view)} ${this.#nextHand(view)}
      </main>
      ${this.#devices(this.#link.state?.devices ?? [])}
      <croupier-alert
        .incident=${view?.incident ?? null}
        .seats=${view?.seats ?? []}
        .language=${this.language}
        .sending=${this.sending !== null && this.sending === stepKey(view?.incident ?? null)}
        @confirm=${() => this.#confirm(view)}
      ></croupier-alert>
      ${this.editing !== null && view ? this.#seatEditor(view, this.editing) : nothing}
      ${this.#link.halt === null ? nothing : this.#halt(this.#link.halt)}
      ${this.floorOpen ? this.#floorPanel() : nothing}
      ${
        this.dealerOpen
          ? html`<croupier-dealer-panel .language=${this.language} @close=${() => {
              this.dealerOpen = false;
            }}></croupier-dealer-panel>`
          : nothing
      }
      ${this.notice ? html`<p class="toast" data-testid="notice" role="alert">${t(this.language, this.notice.key, this.notice.values)}</p>` : nothing}`;
  }

  /**
   * The journal cannot record, or a record of it is broken: nothing may be played, and the dealer is
   * told why, whom to call, and that a supervisor clears it (the bar's Supervisor button stays above).
   */
  #halt(detail: string): TemplateResult {
    return html`<div class="halt" data-testid="halt" role="alertdialog">
      <h1>${t(this.language, 'halted')}</h1>
      <p>${t(this.language, 'haltedWhat')}</p>
      <p class="detail" data-testid="halt-detail">${detail}</p>
      <p>${t(this.language, 'haltedClear')}</p>
    </div>`;
  }

  #floorPanel(): TemplateResult {
    return html`<croupier-floor-panel
      .language=${this.language}
      .halted=${this.#link.halt !== null}
      .session=${this.session}
      .available=${this.#link.hello?.supervisors ?? false}
      @session=${(event: CustomEvent<FloorSession | null>) => {
        this.session = event.detail;
      }}
      @close=${() => {
        this.floorOpen = false;
      }}
    ></croupier-floor-panel>`;
  }

  /**
   * Between hands the dealer starts the next one, as the middle of the table shows it; without two
   * players seated there is none, and the middle says why.
   */
  #nextHand(view: PublicState | null): TemplateResult | typeof nothing {
    if (!betweenHands(view)) return nothing;
    return html`<button
      class="next-hand"
      data-testid="next-hand"
      ?disabled=${view.nextHand === null}
      aria-describedby="next-info"
      @click=${() => this.#send('nextHand')}
    >
      ${t(this.language, 'nextHand')}
    </button>`;
  }

  #seatEditor(view: PublicState, seat: number): TemplateResult {
    return html`<croupier-seat-editor
      .language=${this.language}
      .seat=${seat}
      .seated=${view.seating.find((seated) => seated.seat === seat) ?? null}
      .busy=${this.sending === `seat:${seat}`}
      @mark=${(event: CustomEvent<SeatMark>) => this.#mark(event.detail)}
      @close=${() => {
        this.editing = null;
      }}
    ></croupier-seat-editor>`;
  }

  /** A seat marked: the editor closes once croupier has taken it, and stays open to try again if not. */
  async #mark(mark: SeatMark): Promise<void> {
    const key = `seat:${mark.seat}`;
    if (this.sending === key) return;
    this.sending = key;
    const taken = await this.#send('seat', mark);
    if (this.sending === key) this.sending = null;
    if (taken && this.editing === mark.seat) this.editing = null;
  }

  #bar(view: PublicState | null): TemplateResult {
    const language = this.language;
    const hello = this.#link.hello;
    const status = this.#link.status;
    const floor = view?.phase === 'floor';
    const crew = this.#link.state?.crew;
    // Who answered the call from the floor's page: the dealer knows someone is coming, and who.
    const coming = crew?.call?.coming?.supervisor;
    return html`<header class="bar">
      <div class="bar-info">
        <strong class="hand-no">${view?.hand != null ? t(language, 'hand', { n: view.hand }) : t(language, 'noHand')}</strong>
        ${view ? html`<span class="phase">${t(language, `phase.${view.phase}`)}</span>` : nothing}
        ${hello ? html`<span class="table-name">${t(language, 'table', { id: hello.table, profile: hello.profile })}</span>` : nothing}
      </div>
      <div class="connection link-${status}" data-testid="connection" data-state=${status} role="status">
        <span class="dot"></span>${t(language, `link.${status}`)}
      </div>
      <div class="lang" role="group" aria-label=${t(language, 'language')}>
        ${this.#languageButton('fr')} ${this.#languageButton('en')}
      </div>
      <button class="supervisor ${this.session ? 'signed-in' : ''}" data-testid="supervisor" @click=${() => {
        this.floorOpen = true;
      }}>
        ${this.session ? this.session.supervisor : t(language, 'supervisor')}
      </button>
      ${
        hello?.dealers || crew?.dealer
          ? html`<button class="dealer-button" data-testid="dealer" @click=${() => {
              this.dealerOpen = true;
            }}>
              ${crew?.dealer?.name ?? t(language, 'dealerNone')}
            </button>`
          : nothing
      }
      <button class="call-floor ${coming ? 'coming' : floor ? 'called' : ''}" data-testid="call-floor" data-coming=${coming ?? ''} @click=${() => this.#send('callFloor')}>
        ${coming ? t(language, 'floorComing', { name: coming }) : t(language, floor ? 'floorCalled' : 'callFloor')}
      </button>
    </header>`;
  }

  #languageButton(language: Language): TemplateResult {
    return html`<button
      data-testid="lang-${language}"
      aria-pressed=${String(this.language === language)}
      @click=${() => {
        this.chosen = language;
      }}
    >
      ${t(this.language, language === 'fr' ? 'langFr' : 'langEn')}
    </button>`;
  }

  /**
   * The hand's prompt, until the dealer closes it or the hand is over; or, once a pot is awarded, the
   * showdown moved past it: the pots in the middle say what is left to do.
   */
  #prompt(view: PublicState | null): TemplateResult | typeof nothing {
    const prompt = this.prompt;
    const settling = view?.showdown?.pots.some((pot) => pot.award !== null) ?? false;
    if (!prompt || prompt.hand !== (view?.hand ?? null) || settling || betweenHands(view)) return nothing;
    const language = this.language;
    const { output } = prompt;
    return html`<aside class="prompt" data-testid="prompt" data-code=${output.prompt} role="status">
      <div class="prompt-body">
        <strong>${nameOf(language, PROMPT_NAMES, output.prompt)}</strong>
        <span class="rule">${output.rule}</span>
        <ol>${output.steps.map((step, i) => html`<li data-testid="prompt-step-${i}" data-code=${step.code}>${step.text[language]}</li>`)}</ol>
      </div>
      <button class="dismiss" @click=${() => {
        this.prompt = null;
      }}>${t(language, 'dismiss')}</button>
    </aside>`;
  }

  #devices(devices: readonly DisplayDevice[]): TemplateResult {
    const language = this.language;
    const refused = this.#link.refused;
    return html`<footer class="devices">
      ${devices.map(
        (
          device,
        ) => html`<span class="device status-${device.status}" data-testid="device-${device.id}" data-status=${device.status}>
          <span class="dot"></span><span class="device-id">${device.id}</span>
          <span>${t(language, `device.${device.status}`)}</span>
          ${device.status === 'online' || !device.detail ? nothing : html`<span class="detail">${device.detail}</span>`}
        </span>`,
      )}
      ${refused > 0 ? html`<span class="refused">${t(language, 'refused', { n: refused })}</span>` : nothing}
    </footer>`;
  }

  #confirm(view: PublicState | null): void {
    const key = stepKey(view?.incident ?? null);
    if (key === null || this.sending === key) return;
    this.sending = key;
    void this.#send('confirm').then((taken) => {
      if (!taken && this.sending === key) this.sending = null;
    });
  }

  /** A dealer touch: true when croupier took it; otherwise the screen says why, or that it was lost. */
  async #send(action: DisplayAction, body?: object): Promise<boolean> {
    this.#say(null);
    const touch = await send(action, body);
    if (touch.taken) return true;
    this.#say(noticeOf(touch));
    return false;
  }

  #say(notice: DisplayApp['notice']): void {
    window.clearTimeout(this.#noticeTimer);
    this.notice = notice;
    if (notice)
      this.#noticeTimer = window.setTimeout(() => {
        this.notice = null;
      }, NOTICE_MS);
  }
}

customElements.define('croupier-display', DisplayApp);
