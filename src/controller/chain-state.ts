import type { BrokenRecord } from '../journal/chain.js';
import { type HaltHistory, unacknowledged } from '../journal/halts.js';
import type { Journal } from '../journal/store.js';
import type { ChainBreak } from '../journal/walk.js';
import type { ChainCheck } from '../journal/watch.js';
import type { KnownBreaks } from '../recall/marks.js';
import type { ChainHealth } from './health.js';

/**
 * What the running table knows of its journal's chain: the broken records of the last whole walk (or,
 * until one has ended, those the check at open found) and the halts and clearings journaled. Recall marks
 * the supervisor's last hands by it, `/healthz` says how far the chain is checked, and a clearing
 * acknowledges the broken records it holds.
 */
export class ChainState {
  #history: HaltHistory = { halts: [], clearings: [] };
  #breaks: ChainBreak[] = [];
  #last: ChainCheck | undefined;

  /** A journal (re)opened: checked at its tail only, until a whole walk of it ends. */
  opened(journal: Journal): void {
    this.#history = journal.history();
    const record = journal.halted()?.record;
    this.#breaks = record ? [record as BrokenRecord & ChainBreak] : [];
    this.#last = undefined;
  }

  /** A whole walk ended: the first broken record no clearing acknowledged, if any. */
  checked(check: ChainCheck): ChainBreak | undefined {
    this.#last = check;
    this.#history = check.history;
    this.#breaks = check.walked.breaks;
    return this.unacknowledged()[0];
  }

  /** The broken records no clearing acknowledged yet: what a supervisor's clearing names. */
  unacknowledged(): ChainBreak[] {
    return unacknowledged(this.#history, this.#breaks);
  }

  known(): KnownBreaks {
    return { breaks: this.#breaks, history: this.#history };
  }

  /** Whether a whole walk has ended since the journal was opened. */
  whole(): boolean {
    return this.#last !== undefined;
  }

  health(): ChainHealth {
    const last = this.#last;
    if (!last) return { checked: 'tail' };
    const cleared = last.walked.breaks.length - this.unacknowledged().length;
    return {
      checked: 'whole',
      at: last.at,
      records: last.walked.records,
      ms: Math.round(last.ms),
      ...(cleared > 0 && { cleared }),
    };
  }
}
