import type { Figures } from './figures.js';

/** What a benchmark process sends the runner once, before it exits. */
export type BenchmarkMessage = { figures: Figures } | { error: string };

/**
 * Runs one benchmark in this process (the runner forks one per benchmark, so none inherits another's
 * heap, JIT state or open handles) and hands its figures to the runner; run alone, it prints them.
 * The process exits once they are sent: a port or socket a library keeps open must not hold it.
 */
export function benchmark(run: () => Promise<Figures>): void {
  run().then(
    (figures) => finish({ figures }),
    (error: unknown) =>
      finish({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
}

function finish(message: BenchmarkMessage): void {
  const code = 'error' in message ? 1 : 0;
  if (process.send) process.send(message, () => process.exit(code));
  else {
    process.stdout.write(`${JSON.stringify(message)}\n`);
    process.exit(code);
  }
}

/** A line on stderr, for whoever watches the run: stdout of a child is the runner's. */
export function progress(text: string): void {
  process.stderr.write(`  ${text}\n`);
}
