import type { ChipZone } from '../../src/domain/zones.js';

export interface SettleSettings {
  stableMs: number;
  tolerance: number;
  resolution: number;
}

/** What one reading did: nothing yet, settled a new amount (`previous`: null for the zone's first), or settled below zero. */
export type Settling =
  | { settled: false }
  | { settled: true; amount: number; previous: number | null }
  | { settled: 'negative'; amount: number };

/** Consecutive readings of one zone that all lie within the tolerance of each other. */
interface Run {
  from: number;
  min: number;
  max: number;
  sum: number;
  count: number;
  /** The run has been judged: it stays quiet however long it lasts. */
  judged: boolean;
}

/**
 * Load cells jitter and swing while chips are laid down: a zone's amount is settled once its readings
 * stayed within `tolerance` of each other for `stableMs` (sensor time), and is their mean rounded to the
 * `resolution`. A settled amount equal to the last one is no change: one real change, one report.
 */
export class ZoneSettler {
  readonly #settings: SettleSettings;
  readonly #runs = new Map<ChipZone, Run>();
  /** Kept across sensor restarts: a sensor back with the same amounts changed nothing on the table. */
  readonly #settled = new Map<ChipZone, number>();

  constructor(settings: SettleSettings) {
    this.#settings = settings;
  }

  /** A reading of `zone` made at `at` (ms, the sensor's timeline); readings of a zone come in time order. */
  reading(zone: ChipZone, amount: number, at: number): Settling {
    const { stableMs, tolerance, resolution } = this.#settings;
    let run = this.#runs.get(zone);
    if (!run || Math.max(run.max, amount) - Math.min(run.min, amount) > tolerance) {
      run = { from: at, min: amount, max: amount, sum: 0, count: 0, judged: false };
      this.#runs.set(zone, run);
    }
    run.min = Math.min(run.min, amount);
    run.max = Math.max(run.max, amount);
    run.sum += amount;
    run.count++;
    if (run.judged || at - run.from < stableMs) return { settled: false };
    run.judged = true;
    // `+ 0` turns the -0 of a zone jittering just below zero into 0.
    const settled = Math.round(run.sum / run.count / resolution) * resolution + 0;
    if (settled < 0) return { settled: 'negative', amount: settled };
    const previous = this.#settled.get(zone) ?? null;
    if (settled === previous) return { settled: false };
    this.#settled.set(zone, settled);
    return { settled: true, amount: settled, previous };
  }

  /** The sensor restarted (its clock with it): runs start again, settled amounts stay. */
  restart(): void {
    this.#runs.clear();
  }
}
