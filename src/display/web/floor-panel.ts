import { html, nothing, type TemplateResult } from 'lit';
import { FLOOR_DECISIONS } from '../../domain/events.js';
import type { FloorSession } from '../../supervisor/desk.js';
import { FLOOR_ACTIONS, type FloorDecision, type RecentHand } from '../protocol.js';
import { post } from './actions.js';
import { LightElement } from './light-element.js';
import './pin-pad.js';
import {
  INCIDENT_NAMES,
  nameOf,
  PROBLEM_NAMES,
  PROMPT_NAMES,
  RULING_NAMES,
  t,
  type UiKey,
} from './messages.js';

/**
 * The supervisor's panel, over everything: a PIN pad (or a badge at the keypad) signs them in, then
 * three large decisions, each signed with their name; while the table is halted, the one action is to
 * clear the halt, signed the same way. The panel holds the session's token only while it lasts; it fires
 * `session` when one opens or ends, and `close`.
 */
export class FloorPanel extends LightElement {
  static override properties = {
    session: { attribute: false },
    available: { attribute: false },
    halted: { attribute: false },
    note: { state: true },
    busy: { state: true },
    recent: { state: true },
  };
  declare session: FloorSession | null;
  /** Whether the config lists any supervisor. */
  declare available: boolean;
  /** Whether the table is halted: the supervisor's action is then to clear it. */
  declare halted: boolean;
  /** The last outcome, as catalogue key and values. */
  declare note: { key: UiKey; values?: Record<string, string> } | null;
  declare busy: boolean;
  /** The last hands' incidents, while the supervisor reviews them. */
  declare recent: RecentHand[] | null;

  constructor() {
    super();
    this.session = null;
    this.available = true;
    this.halted = false;
    this.note = null;
    this.busy = false;
    this.recent = null;
  }

  protected override render(): TemplateResult {
    const language = this.language;
    return html`<div class="floor-panel" data-testid="floor-panel" role="dialog" aria-labelledby="floor-title">
      <header class="floor-head">
        <h1 id="floor-title">${this.session ? t(language, 'signedInAs', { name: this.session.supervisor }) : t(language, 'signInTitle')}</h1>
        <button class="dismiss" data-testid="floor-close" @click=${() => this.#fire('close')}>${t(language, 'dismiss')}</button>
      </header>
      ${this.note ? html`<p class="floor-note" data-testid="floor-note" role="status">${t(language, this.note.key, this.note.values)}</p>` : nothing}
      ${!this.available ? html`<p>${t(language, 'noSupervisors')}</p>` : !this.session ? this.#pad() : this.recent ? this.#recent(this.recent) : this.halted ? this.#clearing() : this.#decisions()}
    </div>`;
  }

  #pad(): TemplateResult {
    return html`<croupier-pin-pad
      .language=${this.language}
      .busy=${this.busy}
      @typing=${() => {
        this.note = null;
      }}
      @pin=${(event: CustomEvent<string>) => this.#signIn(event.detail)}
    ></croupier-pin-pad>`;
  }

  #decisions(): TemplateResult {
    const language = this.language;
    return html`<div class="decisions">
      ${FLOOR_DECISIONS.map(
        (
          decision,
        ) => html`<button class="decision decision-${decision}" data-testid="decide-${decision}" ?disabled=${this.busy} @click=${() => this.#decide(decision)}>
          <strong>${t(language, `decision.${decision}`)}</strong>
          <span>${t(language, `decisionHint.${decision}`)}</span>
        </button>`,
      )}
      <button class="recent" data-testid="recent-hands" ?disabled=${this.busy} @click=${() => this.#loadRecent()}>${t(language, 'recentHands')}</button>
      <button class="sign-out" data-testid="sign-out" @click=${() => this.#signOut()}>${t(language, 'signOut')}</button>
    </div>`;
  }

  /** The table is halted: the supervisor clears it (signed), or reviews the last hands first. */
  #clearing(): TemplateResult {
    const language = this.language;
    return html`<div class="decisions">
      <button class="decision decision-continue" data-testid="clear-halt" ?disabled=${this.busy} @click=${() => this.#clearHalt()}>
        <strong>${t(language, 'clearHalt')}</strong>
        <span>${t(language, 'clearHaltHint')}</span>
      </button>
      <button class="recent" data-testid="recent-hands" ?disabled=${this.busy} @click=${() => this.#loadRecent()}>${t(language, 'recentHands')}</button>
      <button class="sign-out" data-testid="sign-out" @click=${() => this.#signOut()}>${t(language, 'signOut')}</button>
    </div>`;
  }

  async #clearHalt(): Promise<void> {
    const session = this.session;
    if (!session) return;
    this.busy = true;
    const response = await post(FLOOR_ACTIONS.clearHalt, { token: session.token });
    this.busy = false;
    const code = (response?.answer as { code?: unknown } | null)?.code;
    if (response?.status === 202) this.note = { key: 'haltClearing' };
    else if (response?.status === 401) this.#expired();
    else if (code === 'not-halted' || code === 'not-clearable') this.note = { key: `refused.${code}` };
    else if (code === 'busy') this.note = { key: 'haltClearing' };
    else this.note = { key: 'notSent' };
  }

  /**
   * The last hands, newest first, each with what the table ruled (nothing when it was clean), and the
   * broken journal record it holds or follows: such a hand is never said clean.
   */
  #recent(hands: readonly RecentHand[]): TemplateResult {
    const language = this.language;
    return html`<div class="recent-hands" data-testid="recent-list">
      <ol>
        ${hands.map(
          (hand) => html`<li data-testid="recent-${hand.number}" data-chain=${this.#chainState(hand)}>
            <strong>${t(language, 'hand', { n: hand.number })}</strong>
            <span class="time">${new Date(hand.startedAt).toLocaleTimeString(language)}</span>
            <span class="rulings">${hand.outputs.length > 0 ? hand.outputs.map((output) => this.#ruled(output)).join(' · ') : hand.broken || hand.unreadable || hand.unchecked ? '' : t(language, 'cleanHand')}</span>
            ${this.#chainMark(hand)}
          </li>`,
        )}
      </ol>
      <button data-testid="recent-back" @click=${() => {
        this.recent = null;
      }}>${t(language, 'back')}</button>
    </div>`;
  }

  #chainState(hand: RecentHand): string {
    return hand.unreadable ? 'unreadable' : hand.broken ? 'broken' : hand.unchecked ? 'unchecked' : 'intact';
  }

  /** What the chain cannot vouch for in the hand, in the screen's language. */
  #chainMark(hand: RecentHand): TemplateResult | typeof nothing {
    const language = this.language;
    const { broken } = hand;
    if (broken) {
      const cleared = broken.clearedBy
        ? ` · ${t(language, 'chain.cleared', { name: broken.clearedBy })}`
        : '';
      return html`<span class="floor-note" data-testid="recent-${hand.number}-chain">${t(language, broken.where === 'in' ? 'chain.in' : 'chain.after', { record: broken.record })} — ${nameOf(language, PROBLEM_NAMES, broken.problem)}${cleared}</span>`;
    }
    if (hand.unreadable) return html`<span class="floor-note">${t(language, 'chain.unreadable')}</span>`;
    if (hand.unchecked) return html`<span class="time">${t(language, 'chain.unchecked')}</span>`;
    return nothing;
  }

  #ruled(output: RecentHand['outputs'][number]): string {
    const language = this.language;
    if (output.kind === 'incident')
      return `${nameOf(language, INCIDENT_NAMES, output.incident)} → ${nameOf(language, RULING_NAMES, output.ruling)} (${output.rule})`;
    if (output.kind === 'award')
      return t(language, 'award', { pot: output.pot, winners: output.winners.join(', ') });
    return nameOf(language, PROMPT_NAMES, output.prompt);
  }

  async #loadRecent(): Promise<void> {
    const session = this.session;
    if (!session) return;
    this.busy = true;
    const response = await post(FLOOR_ACTIONS.recentHands, { token: session.token });
    this.busy = false;
    if (response?.status === 200) this.recent = response.answer as RecentHand[];
    else if (response?.status === 401) this.#expired();
    else this.note = { key: 'notSent' };
  }

  #expired(): void {
    this.note = { key: 'refused.expired' };
    this.#fire('session', null);
  }

  async #signIn(pin: string): Promise<void> {
    this.busy = true;
    const response = await post(FLOOR_ACTIONS.signIn, { pin });
    this.busy = false;
    if (response?.status === 200) {
      this.note = null;
      this.#fire('session', response.answer as FloorSession);
      return;
    }
    const refused = (response?.answer ?? null) as {
      refused?: 'wrong' | 'locked' | 'busy';
      until?: number;
    } | null;
    const reason = refused?.refused ?? 'wrong';
    const time = refused?.until ? new Date(refused.until).toLocaleTimeString(this.language) : '';
    this.note = { key: `refused.${reason}`, values: { time } };
  }

  async #decide(decision: FloorDecision): Promise<void> {
    const session = this.session;
    if (!session) return;
    this.busy = true;
    const response = await post(FLOOR_ACTIONS.decide, { token: session.token, decision });
    this.busy = false;
    if (response?.status === 202) {
      const values = { decision: t(this.language, `decision.${decision}`), name: session.supervisor };
      this.note = { key: 'decided', values };
    } else if (response?.status === 401) {
      this.#expired();
    } else {
      this.note = { key: 'notSent' };
    }
  }

  #signOut(): void {
    this.recent = null;
    if (this.session) void post(FLOOR_ACTIONS.signOut, { token: this.session.token });
    this.note = null;
    this.#fire('session', null);
  }

  #fire(type: 'session' | 'close', detail?: FloorSession | null): void {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }
}

customElements.define('croupier-floor-panel', FloorPanel);
