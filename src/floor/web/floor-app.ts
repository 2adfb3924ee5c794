import { html, nothing, type TemplateResult } from 'lit';
import { post } from '../../display/web/actions.js';
import { LightElement } from '../../display/web/light-element.js';
import { openCalls } from '../calls.js';
import {
  FLOOR_API,
  type FloorPageSession,
  type Language,
  type OpenCall,
  type TableTile,
} from '../protocol.js';
import { Chime } from './chime.js';
import { type FloorKey, ft } from './messages.js';
import { RoomLink } from './room-link.js';
import './call-card.js';
import './sign-in-panel.js';
import './stats-view.js';
import './table-tile.js';

/** An answer the table has not confirmed in this long is said lost: the supervisor taps again. */
const CONFIRM_MS = 6000;
/** How long a new call flashes, and its banner stays. */
const FRESH_MS = 8000;

/**
 * The floor's page, for the supervisors' tablets: the room's open calls, most urgent first, beside every
 * table as a tile; a new call rings and flashes. A signed-in supervisor answers a call ("on my way"):
 * the table shows who is coming, and the decision is still signed on the table's own screen.
 */
export class FloorApp extends LightElement {
  static override properties = {
    chosen: { state: true },
    session: { state: true },
    signingIn: { state: true },
    view: { state: true },
    note: { state: true },
    banner: { state: true },
  };
  declare chosen: Language | null;
  declare session: FloorPageSession | null;
  declare signingIn: boolean;
  declare view: 'room' | 'stats';
  declare note: { key: FloorKey; values?: Record<string, string> } | null;
  /** The last new call, while it is new. */
  declare banner: OpenCall | null;
  readonly #chime = new Chime();
  /** Calls answered and not yet confirmed by their table: their key, and when the answer went. */
  readonly #pending = new Map<string, number>();
  /** Calls that came since the page loaded, until they are old news. */
  readonly #fresh = new Map<string, number>();
  #timer: number | undefined;

  readonly #link = new RoomLink(
    this,
    new URL('/ws', location.href.replace(/^http/, 'ws')).href,
    (tile, before, first) => this.#changed(tile, before, first),
  );

  constructor() {
    super();
    this.chosen = null;
    this.session = null;
    this.signingIn = false;
    this.view = 'room';
    this.note = null;
    this.banner = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Fresh calls fade, and unconfirmed answers are said lost, on the second.
    this.#timer = window.setInterval(() => this.#tick(), 1000);
  }

  override disconnectedCallback(): void {
    window.clearInterval(this.#timer);
    super.disconnectedCallback();
  }

  protected override willUpdate(): void {
    this.language = this.chosen ?? this.#link.hello?.language ?? 'fr';
  }

  protected override updated(): void {
    document.documentElement.lang = this.language;
  }

  protected override render(): TemplateResult {
    const tiles = [...this.#link.tiles.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return html`${this.#bar(tiles.length)}
      ${this.banner ? html`<p class="banner" data-testid="floor-alert" role="alert">${ft(this.language, 'newCall', { id: this.banner.table })}</p>` : nothing}
      ${this.view === 'stats' ? html`<croupier-stats .language=${this.language}></croupier-stats>` : this.#room(tiles)}
      ${this.signingIn ? this.#signIn() : nothing}
      ${this.note ? html`<p class="toast" data-testid="floor-note" role="status">${ft(this.language, this.note.key, this.note.values)}</p>` : nothing}`;
  }

  #bar(tables: number): TemplateResult {
    const language = this.language;
    const link = this.#link;
    const live = link.status === 'open';
    return html`<header class="bar">
      <strong class="title">${ft(language, 'title', { n: tables })}</strong>
      <span class="link broker-${live ? link.broker : 'offline'}" data-testid="floor-broker" data-state=${live ? link.broker : 'page-closed'} role="status">
        ${live ? ft(language, `broker.${link.broker}`) : ft(language, 'link.closed')}
      </span>
      <nav>
        <button aria-pressed=${String(this.view === 'room')} data-testid="view-room" @click=${() => {
          this.view = 'room';
        }}>${ft(language, 'room')}</button>
        <button aria-pressed=${String(this.view === 'stats')} data-testid="view-stats" @click=${() => {
          this.view = 'stats';
        }}>${ft(language, 'stats')}</button>
      </nav>
      <button class="sound" aria-pressed=${String(this.#chime.ready)} data-testid="sound" @click=${() => {
        this.#chime.unlock();
        this.requestUpdate();
      }}>${ft(language, 'sound')}</button>
      <div class="lang">
        ${(['fr', 'en'] as const).map(
          (choice) =>
            html`<button data-testid="lang-${choice}" aria-pressed=${String(language === choice)} @click=${() => {
              this.chosen = choice;
            }}>${ft(language, choice === 'fr' ? 'langFr' : 'langEn')}</button>`,
        )}
      </div>
      ${
        this.session
          ? html`<button class="supervisor signed-in" data-testid="floor-supervisor" @click=${() => this.#signOut()}>
              ${this.session.supervisor} · ${ft(language, 'signOut')}
            </button>`
          : html`<button class="supervisor" data-testid="floor-supervisor" ?disabled=${!link.hello?.supervisors} @click=${() => {
              this.#chime.unlock();
              this.signingIn = true;
            }}>${ft(language, 'signIn')}</button>`
      }
    </header>`;
  }

  #room(tiles: readonly TableTile[]): TemplateResult {
    const language = this.language;
    const calls = openCalls(tiles);
    return html`<main class="room">
      <section class="calls" data-testid="call-list" aria-label=${ft(language, 'calls')}>
        <h2>${ft(language, 'calls')}</h2>
        ${calls.length === 0 ? html`<p class="muted">${ft(language, 'noCalls')}</p>` : nothing}
        ${calls.map(
          (call) => html`<croupier-call
            .call=${call}
            .language=${language}
            .signedIn=${this.session !== null}
            .pending=${this.#pending.has(callId(call)) && !call.coming}
            .fresh=${this.#fresh.has(callId(call))}
            @answer=${() => this.#answer(call)}
          ></croupier-call>`,
        )}
      </section>
      <section class="tiles" data-testid="tiles">
        ${tiles.map((tile) => html`<croupier-tile .tile=${tile} .language=${language}></croupier-tile>`)}
      </section>
    </main>`;
  }

  #signIn(): TemplateResult {
    return html`<croupier-floor-sign-in
      .language=${this.language}
      @session=${(event: CustomEvent<FloorPageSession>) => {
        this.session = event.detail;
        this.signingIn = false;
      }}
      @close=${() => {
        this.signingIn = false;
      }}
    ></croupier-floor-sign-in>`;
  }

  /** A new call rings (an urgent one) and flashes; the first room a page loads is no news. */
  #changed(tile: TableTile, before: TableTile | undefined, first: boolean): void {
    const call = tile.call;
    if (!call || first || before?.call?.key === call.key) return;
    this.#fresh.set(callId(call), Date.now());
    this.banner = call;
    if (call.urgent) this.#chime.ring();
  }

  async #answer(call: OpenCall): Promise<void> {
    const session = this.session;
    if (!session) return;
    this.#pending.set(callId(call), Date.now());
    this.requestUpdate();
    const response = await post(FLOOR_API.answer, {
      token: session.token,
      table: call.table,
      call: call.key,
    });
    if (response?.status === 202) return;
    this.#pending.delete(callId(call));
    if (response?.status === 401) {
      this.session = null;
      this.note = { key: 'refused.expired' };
    } else this.note = { key: 'notSent' };
  }

  #tick(): void {
    const now = Date.now();
    for (const [key, at] of this.#fresh) if (now - at > FRESH_MS) this.#fresh.delete(key);
    if (this.banner && !this.#fresh.has(callId(this.banner))) this.banner = null;
    for (const [id, at] of this.#pending) {
      if (now - at < CONFIRM_MS) continue;
      this.#pending.delete(id);
      const call = [...this.#link.tiles.values()].find((tile) => tile.call && callId(tile.call) === id)?.call;
      if (call && !call.coming) this.note = { key: 'answerLost' };
    }
    if (this.session && this.session.until < now) {
      this.session = null;
      this.note = { key: 'refused.expired' };
    }
    this.requestUpdate();
  }

  #signOut(): void {
    if (this.session) void post(FLOOR_API.signOut, { token: this.session.token });
    this.session = null;
  }
}

/** A call across the room: its key is its table's own. */
function callId(call: OpenCall): string {
  return `${call.table}/${call.key}`;
}

customElements.define('croupier-floor', FloorApp);
