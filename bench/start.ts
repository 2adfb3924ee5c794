import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { benchmark, progress } from './lib/child.js';
import { freePort, startCroupier } from './lib/process.js';
import { median, rounded } from './lib/stats.js';

/**
 * cold_start_ms: `croupier start --demo` (the controller, its broker, the virtual table's simulated
 * devices on PTYs) from the spawn to the first answer of `/healthz`; rss_mb_start: that process's
 * resident memory then. The median of a few starts, each on its own ports and journal.
 */

const STARTS = 3;
const POLL_MS = 5;
const LIMIT_MS = 30_000;

/** Resident memory of process `pid`, MB, as the kernel counts it. */
async function residentMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (kb === undefined) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(kb) / 1024;
}

async function coldStart(dir: string, n: number): Promise<{ ms: number; rss: number }> {
  const [http, mqtt] = await Promise.all([freePort(), freePort()]);
  const configFile = join(dir, `croupier-${n}.json`);
  const config = {
    http: { port: http },
    mqtt: { embedded: { port: mqtt } },
    journal: { path: join(dir, `journal-${n}.db`) },
  };
  await writeFile(configFile, JSON.stringify(config));
  const started = performance.now();
  const croupier = startCroupier(['start', '--demo', '--config', configFile], dir);
  const exited = once(croupier, 'exit');
  try {
    for (;;) {
      if (croupier.exitCode !== null)
        throw new Error(`croupier start exited ${croupier.exitCode} before /healthz answered`);
      if (performance.now() - started > LIMIT_MS)
        throw new Error(`/healthz did not answer within ${LIMIT_MS} ms`);
      const answered = await fetch(`http://127.0.0.1:${http}/healthz`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (answered) break;
      await sleep(POLL_MS);
    }
    const ms = performance.now() - started;
    return { ms, rss: await residentMb(croupier.pid as number) };
  } finally {
    croupier.kill('SIGTERM');
    await Promise.race([
      exited,
      sleep(LIMIT_MS, undefined, { ref: false }).then(() => croupier.kill('SIGKILL')),
    ]);
  }
}

benchmark(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'croupier-bench-start-'));
  try {
    const starts: { ms: number; rss: number }[] = [];
    for (let n = 0; n < STARTS; n++) starts.push(await coldStart(dir, n));
    progress(`start: ${starts.map(({ ms }) => `${ms.toFixed(0)} ms`).join(', ')}`);
    return {
      cold_start_ms: rounded(median(starts.map(({ ms }) => ms))),
      rss_mb_start: rounded(median(starts.map(({ rss }) => rss))),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
