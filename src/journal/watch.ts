import type { HaltHistory } from './halts.js';
import { haltHistory } from './halts.js';
import type { ChainReader } from './store.js';
import { ChainWalk, type Walked } from './walk.js';

/** A whole walk of the chain: what it found, the halts and clearings it read, when it ended. */
export interface ChainCheck {
  walked: Walked;
  history: HaltHistory;
  /** Wall clock (ms since the epoch) when it ended. */
  at: number;
  /** How long it took, slices and what ran between them included. */
  ms: number;
}

/**
 * How long one slice of a walk may hold the event loop: the table's events, `/healthz` and the display
 * are served between slices, so a walk of millions of records delays none of them by more than this.
 */
const SLICE_MS = 4;
/** Records walked between two looks at the clock. */
const STRIDE = 250;

/**
 * Walks the whole chain on `reader`'s connection in slices of a few milliseconds of the event loop
 * (SQLite is synchronous, and a worker thread would need a second bundle), inside one read transaction:
 * the walk reads one snapshot of the journal, whatever the writer appends or rotates meanwhile.
 */
export function walkInSlices(
  reader: ChainReader,
  { now = Date.now, signal }: { now?: () => number; signal?: AbortSignal } = {},
): Promise<ChainCheck> {
  const started = performance.now();
  return new Promise<ChainCheck>((resolve, reject) => {
    const { db } = reader;
    let walk: ChainWalk;
    let history: HaltHistory = { halts: [], clearings: [] };
    const end = () => {
      try {
        if (reader.own && db.inTransaction) db.exec('ROLLBACK');
      } catch {
        // A read transaction ends with its connection anyway.
      }
    };
    try {
      // Deferred: the snapshot is taken at the first read, the history's, and held to the last.
      if (reader.own) db.exec('BEGIN');
      try {
        history = haltHistory(db);
      } catch {
        // A damaged file: the walk names where.
      }
      walk = new ChainWalk(db);
    } catch (error) {
      end();
      reject(error);
      return;
    }
    const slice = () => {
      if (signal?.aborted) {
        end();
        reject(signal.reason);
        return;
      }
      const until = performance.now() + SLICE_MS;
      try {
        while (!walk.step(STRIDE)) {
          if (performance.now() >= until) {
            setImmediate(slice);
            return;
          }
        }
      } catch (error) {
        end();
        reject(error);
        return;
      }
      end();
      resolve({ walked: walk.result(), history, at: now(), ms: performance.now() - started });
    };
    setImmediate(slice);
  });
}

export interface ChainWatchOptions {
  /** Between the end of a pass and the start of the next one. */
  everyMs: number;
  /** A connection to walk on; undefined when there is nothing to walk. */
  reader(): ChainReader | undefined;
  /** Each pass, as it ends. */
  checked(check: ChainCheck): void;
  /** A pass that could not be made (the file could not be opened): the next one is tried all the same. */
  failed(error: unknown): void;
  now?: () => number;
}

/**
 * The background check: a whole walk of the chain at once, then again every `everyMs` (hourly by
 * default), each in slices (`walkInSlices`). `checkNow` gives the pass under way, or starts one.
 */
export class ChainWatch {
  #timer: NodeJS.Timeout | undefined;
  #pass: Promise<ChainCheck | undefined> | undefined;
  readonly #abort = new AbortController();

  constructor(private readonly options: ChainWatchOptions) {}

  /** The first pass at once, the others every `everyMs` after. */
  start(): void {
    void this.checkNow();
  }

  /** The pass under way, or a new one; undefined when there is nothing to walk or it failed. */
  checkNow(): Promise<ChainCheck | undefined> {
    if (this.#pass) return this.#pass;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const pass = this.#walk().finally(() => {
      this.#pass = undefined;
      if (!this.#abort.signal.aborted) {
        this.#timer = setTimeout(() => void this.checkNow(), this.options.everyMs);
      }
    });
    this.#pass = pass;
    return pass;
  }

  stop(): void {
    this.#abort.abort(new Error('the journal check was stopped'));
    clearTimeout(this.#timer);
  }

  async #walk(): Promise<ChainCheck | undefined> {
    if (this.#abort.signal.aborted) return undefined;
    let reader: ChainReader | undefined;
    try {
      reader = this.options.reader();
      if (!reader) return undefined;
      const check = await walkInSlices(reader, {
        signal: this.#abort.signal,
        ...(this.options.now && { now: this.options.now }),
      });
      this.options.checked(check);
      return check;
    } catch (error) {
      if (!this.#abort.signal.aborted) this.options.failed(error);
      return undefined;
    } finally {
      reader?.close();
    }
  }
}
