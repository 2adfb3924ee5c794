import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openJournal } from '../src/journal/store.js';
import { benchmark, progress } from './lib/child.js';
import { percentile, rounded } from './lib/stats.js';

/**
 * journal_events_per_s: domain events appended one at a time, each its own transaction on the disk
 * before the next (WAL, synchronous=FULL), as live play writes them ahead of the table.
 */

const WARM_UP = 200;
/** Appends timed, unless the disk is so slow that the time limit comes first. */
const APPENDS = 5000;
const LIMIT_MS = 20_000;

benchmark(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'croupier-bench-journal-'));
  try {
    const journal = openJournal(join(dir, 'journal.db'));
    let appended = 0;
    const append = () =>
      journal.append({
        type: 'card.seen',
        t: 300 * appended++,
        zone: 'seat:3',
        uid: 'E0040150A1B2C3D4',
        face: 'Kd',
        deck: 'A',
      });
    for (let i = 0; i < WARM_UP; i++) append();
    const times: number[] = [];
    const started = performance.now();
    while (times.length < APPENDS && performance.now() - started < LIMIT_MS) {
      const before = performance.now();
      append();
      times.push(performance.now() - before);
    }
    const elapsedMs = performance.now() - started;
    journal.close();
    progress(`journal: ${times.length} appends in ${elapsedMs.toFixed(0)} ms`);
    return {
      journal_events_per_s: rounded((times.length / elapsedMs) * 1000),
      journal_p50_ms: rounded(percentile(times, 50)),
      journal_p99_ms: rounded(percentile(times, 99)),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
