/** Cancels a scheduled task; calling it after the task ran does nothing. */
export type Cancel = () => void;

/** Time as a simulator sees it: real timers on a table, a hand-driven clock in unit tests. */
export interface Scheduler {
  /** Milliseconds on a monotonic clock. */
  now(): number;
  /** Runs `task` once, `ms` from now. */
  after(ms: number, task: () => void): Cancel;
}

export const realScheduler: Scheduler = {
  now: () => performance.now(),
  after(ms, task) {
    const timer = setTimeout(task, ms);
    return () => clearTimeout(timer);
  },
};

interface Pending {
  at: number;
  order: number;
  task: () => void;
}

/** A clock that moves only when told to, running due tasks in time order (ties in scheduling order). */
export class ManualScheduler implements Scheduler {
  #now = 0;
  #order = 0;
  #pending: Pending[] = [];

  now(): number {
    return this.#now;
  }

  after(ms: number, task: () => void): Cancel {
    const entry: Pending = { at: this.#now + Math.max(0, ms), order: this.#order++, task };
    this.#pending.push(entry);
    return () => {
      this.#pending = this.#pending.filter((pending) => pending !== entry);
    };
  }

  /** Moves the clock `ms` forward, running every task that falls due, tasks they schedule included. */
  advance(ms: number): void {
    const until = this.#now + ms;
    for (;;) {
      const next = this.#next();
      if (!next || next.at > until) break;
      this.#pending = this.#pending.filter((pending) => pending !== next);
      this.#now = next.at;
      next.task();
    }
    this.#now = until;
  }

  #next(): Pending | undefined {
    let first: Pending | undefined;
    for (const pending of this.#pending) {
      if (!first || pending.at < first.at || (pending.at === first.at && pending.order < first.order)) {
        first = pending;
      }
    }
    return first;
  }
}
