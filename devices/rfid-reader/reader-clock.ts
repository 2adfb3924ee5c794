/** How fast the offset may rise, per ms of host time: follows a reader crystal up to 100 ppm slow. */
const DRIFT_PER_MS = 1e-4;

/**
 * The board's uptime (u32 ms, wraps after 49.7 days, restarts with the board) as a continuous reader
 * timeline, and that timeline on the host's clock, so reads keep the spacing the board measured
 * however late the link delivers them. The offset is the smallest host-minus-reader difference
 * seen, i.e. the least delayed frame, allowed to creep up slowly so a reader clock running slow is
 * followed too.
 */
export class ReaderClock {
  #last: { raw: number; at: number } | undefined;
  #offset: { value: number; since: number } | undefined;

  /** The board (re)introduced itself: its uptime may have restarted. */
  reset(): void {
    this.#last = undefined;
    this.#offset = undefined;
  }

  /** Places reader time `raw` on the reader timeline, from a frame that arrived at host time `now`. */
  observe(raw: number, now: number): number {
    const last = this.#last;
    // `| 0` takes the difference modulo 2^32 as signed: the wrap and slightly older reads come out right.
    const at = last ? last.at + ((raw - last.raw) | 0) : raw;
    if (!last || at > last.at) this.#last = { raw, at };
    const sample = now - at;
    const offset = this.#offset;
    const crept = offset ? offset.value + (now - offset.since) * DRIFT_PER_MS : sample;
    this.#offset = { value: Math.min(sample, crept), since: now };
    return at;
  }

  /** Host time, in whole ms, of a point on the reader timeline (after at least one `observe`). */
  toHost(at: number): number {
    return Math.round(at + (this.#offset?.value ?? 0));
  }
}
