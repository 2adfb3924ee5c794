import { once } from 'node:events';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openJournal } from '../src/journal/store.js';
import { walkInSlices } from '../src/journal/watch.js';
import { loadScenario } from '../src/scenario/load.js';
import { benchmark, progress } from './lib/child.js';
import { BENCH_TABLE_CONFIG, corpusDocument, loadCorpus } from './lib/corpus.js';
import { writeNightJournal } from './lib/night-journal.js';
import { freePort, startCroupier } from './lib/process.js';
import { median, rounded } from './lib/stats.js';

/**
 * cold_start_ms: `croupier start --demo` (the controller, its broker, the virtual table's simulated
 * devices on PTYs) from the spawn to the first answer of `/healthz`; rss_mb_start: that process's
 * resident memory then. The median of a few starts, each on its own ports and journal.
 *
 * cold_start_10k_hands_ms: the same on a clean journal of 10,000 corpus hands (a long night's, about
 * 340,000 records), each start on a copy of it: the chain's check at open (the records recovery reads),
 * the recovery, and the background check's first slices.
 *
 * journal_verify_s_per_million: the whole walk of that journal's hash chain (`croupier journal verify`'s,
 * and the background check's without its pauses), seconds per million records; the retention limit
 * (`journal.keepRecords`) is 5 million. journal_background_verify_s_per_million: the background check as
 * croupier runs it, in slices of the event loop, on an idle process.
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

const NIGHT_HANDS = 10_000;

async function coldStart(dir: string, n: number, journal?: string): Promise<{ ms: number; rss: number }> {
  const [http, mqtt] = await Promise.all([freePort(), freePort()]);
  const configFile = join(dir, `croupier-${n}.json`);
  const path = join(dir, `journal-${n}.db`);
  if (journal) await copyFile(journal, path);
  const config = {
    http: { port: http },
    mqtt: { embedded: { port: mqtt } },
    journal: { path },
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

/** A clean journal of `hands` corpus hands, closed, as live play leaves it; its records. */
function nightJournal(path: string, hands: number): number {
  const journal = openJournal(path);
  try {
    const night = corpusDocument(loadCorpus(), hands);
    writeNightJournal(journal, loadScenario(night, 'night').events, BENCH_TABLE_CONFIG);
    journal.marker('power-off');
    const verified = journal.verify();
    if (!verified.ok) throw new Error('the night journal does not verify');
    return verified.records;
  } finally {
    journal.close();
  }
}

/** The whole chain walked, at once and in the background check's slices: seconds per million records. */
async function verifyTimes(path: string, records: number) {
  const journal = openJournal(path, { readonly: true });
  try {
    const walks: number[] = [];
    for (let n = 0; n < STARTS; n++) {
      const started = performance.now();
      journal.verify();
      walks.push(performance.now() - started);
    }
    const reader = journal.reader();
    const sliced = await walkInSlices(reader);
    reader.close();
    const perMillion = (ms: number) => rounded(ms / 1000 / (records / 1_000_000));
    progress(
      `verify: ${records} records in ${walks.map((ms) => `${ms.toFixed(0)} ms`).join(', ')}; in slices ${sliced.ms.toFixed(0)} ms`,
    );
    return {
      journal_verify_s_per_million: perMillion(median(walks)),
      journal_background_verify_s_per_million: perMillion(sliced.ms),
    };
  } finally {
    journal.close();
  }
}

benchmark(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'croupier-bench-start-'));
  try {
    const starts: { ms: number; rss: number }[] = [];
    for (let n = 0; n < STARTS; n++) starts.push(await coldStart(dir, n));
    progress(`start: ${starts.map(({ ms }) => `${ms.toFixed(0)} ms`).join(', ')}`);
    const night = join(dir, 'night.db');
    const records = nightJournal(night, NIGHT_HANDS);
    const onNight: { ms: number; rss: number }[] = [];
    for (let n = 0; n < STARTS; n++) onNight.push(await coldStart(dir, STARTS + n, night));
    progress(`start on ${NIGHT_HANDS} hands: ${onNight.map(({ ms }) => `${ms.toFixed(0)} ms`).join(', ')}`);
    return {
      cold_start_ms: rounded(median(starts.map(({ ms }) => ms))),
      rss_mb_start: rounded(median(starts.map(({ rss }) => rss))),
      cold_start_10k_hands_ms: rounded(median(onNight.map(({ ms }) => ms))),
      ...(await verifyTimes(night, records)),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
