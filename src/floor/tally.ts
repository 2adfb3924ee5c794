import type { PublicState } from '../outputs/public.js';
import type { FloorStats } from './stats.js';
import type { TableMessage } from './topics.js';

/**
 * The statistics' side of the public stream (the shared subscription: each message reaches one floor
 * service of the group): each state extends its table's down, each incident and dealer's call is one
 * fact. Only what changed is written: most states move no hand.
 */
export class Tally {
  /** What each table's down last wrote, to skip the states that change nothing. */
  readonly #written = new Map<string, string>();

  constructor(
    private readonly stats: FloorStats,
    private readonly now: () => number = Date.now,
  ) {}

  take(message: Exclude<TableMessage, { refused: string }>): void {
    if ('cleared' in message) return;
    if (message.topic === 'state') this.#state(message.table, message.state);
    else if (message.topic === 'incident' && message.output.kind === 'incident') {
      const { at, incident, ruling, floor } = message.output;
      this.stats.incident(message.table, { at, code: incident, ruling, floor }, this.now());
    }
  }

  #state(table: string, state: PublicState): void {
    const { hand, dealer, call } = state;
    if (hand !== null) {
      // Without a dealer signed in, the table's hands since the floor first saw it.
      const down = dealer
        ? { dealer: dealer.name, since: dealer.since, afterHand: dealer.afterHand }
        : { dealer: null, since: 0, afterHand: hand - 1 };
      const key = `${down.since}:${hand}`;
      if (this.#written.get(table) !== key) {
        this.stats.down(table, down, hand);
        this.#written.set(table, key);
      }
    }
    // The dealer's call: an open call with no incident.
    if (call && state.incident === null && state.phase === 'floor') {
      const key = `call:${call.key}:${call.since}`;
      if (this.#written.get(`${table}/call`) === key) return;
      this.stats.call(table, call.key, call.since);
      this.#written.set(`${table}/call`, key);
    }
  }
}
