/** Timing and summaries shared by the benchmarks. */

/**
 * Milliseconds on the system's monotonic clock (CLOCK_MONOTONIC), the same in every process of the
 * machine: a time taken in one process can be subtracted from one taken in another.
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** The value below which `p` percent of `values` lie (nearest rank). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** A figure as the report shows it: three significant digits are all a benchmark can tell. */
export function rounded(value: number): number {
  return Number.isFinite(value) ? Number(value.toPrecision(3)) : value;
}

/** Per-sample sums of series measured one sample at a time (the shortest sets the count). */
export function sums(...series: readonly (readonly number[])[]): number[] {
  const count = Math.min(...series.map((values) => values.length));
  return Array.from({ length: count }, (_, i) =>
    series.reduce((sum, values) => sum + (values[i] as number), 0),
  );
}

/** Collects the heap's garbage, when the process runs with --expose-gc, so memory reads what is kept. */
export function collectGarbage(): void {
  globalThis.gc?.();
}

/** Resident memory of this process and the part of it the JS heap uses, MB, after a full GC. */
export function memoryMb(): { rss: number; heap: number } {
  collectGarbage();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss: rss / 2 ** 20, heap: heapUsed / 2 ** 20 };
}
