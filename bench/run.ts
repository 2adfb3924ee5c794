import { fork } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { BenchmarkMessage } from './lib/child.js';
import { type CpuProfile, topSelfFrames } from './lib/cpu-profile.js';
import { BENCHMARKS, FIGURES, type Figures } from './lib/figures.js';

/**
 * `npm run bench`: each benchmark in its own process, one after the other (two running at once would
 * measure each other), then a table and ONE final JSON line with every figure. A benchmark, not a test:
 * no number fails it; only a benchmark that cannot run does (exit 1).
 *
 *   --only machine,e2e   run these benchmarks only
 *   --profile            the machine benchmark under `node --cpu-prof`: its top self-time frames
 */

const HERE = dirname(fileURLToPath(import.meta.url));
/** Past this a benchmark is stuck: it is killed and reported as failed. */
const BENCHMARK_LIMIT_MS = 8 * 60_000;
const TOP_FRAMES = 15;
/** The machine benchmark's timed loop: the profile's focus. */
const TIMED_LOOP = 'sendAll';

function runBenchmark(name: string, execArgv: string[] = []): Promise<BenchmarkMessage> {
  process.stderr.write(`${name}…\n`);
  const child = fork(join(HERE, `${name}.js`), [], {
    execArgv: ['--expose-gc', ...execArgv],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve) => {
    let message: BenchmarkMessage | undefined;
    const limit = setTimeout(() => child.kill('SIGKILL'), BENCHMARK_LIMIT_MS);
    child.on('message', (received: BenchmarkMessage) => {
      message = received;
    });
    child.on('exit', (code, signal) => {
      clearTimeout(limit);
      resolve(message ?? { error: `${name} ended (${signal ?? `exit code ${code}`}) without its figures` });
    });
  });
}

function printTable(figures: Figures): void {
  const rows = Object.values(FIGURES)
    .flat()
    .filter(({ name }) => name in figures)
    .map(({ name, unit, target }) => [name, String(figures[name] ?? '—'), unit, target ?? '']);
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => (row[column] as string).length)));
  process.stdout.write(
    `\n${'figure'.padEnd(widths[0] as number)}  value  (target on the reference machine)\n`,
  );
  for (const [name, value, unit, target] of rows) {
    const cells = [
      (name as string).padEnd(widths[0] as number),
      (value as string).padStart(widths[1] as number),
      (unit as string).padEnd(widths[2] as number),
    ];
    process.stdout.write(`${cells.join('  ')}  ${target}\n`);
  }
}

async function profile(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'croupier-profile-'));
  try {
    const result = await runBenchmark('machine', ['--cpu-prof', '--cpu-prof-dir', dir]);
    if ('error' in result) throw new Error(result.error);
    const [file] = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'));
    if (file === undefined) throw new Error('node --cpu-prof wrote no profile');
    const cpu = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
    const { frames, totalMs } = topSelfFrames(cpu, { top: TOP_FRAMES, under: TIMED_LOOP });
    // The collector runs beneath no function of ours: its share is the whole process's.
    const whole = topSelfFrames(cpu, { top: Number.POSITIVE_INFINITY });
    const collector = whole.frames.find(({ frame }) => frame === '(garbage collector)')?.selfMs ?? 0;
    process.stdout.write(`${JSON.stringify(result.figures)}\n`);
    process.stdout.write(
      `top ${TOP_FRAMES} self-time frames of ${totalMs.toFixed(0)} ms in ${TIMED_LOOP}:\n`,
    );
    for (const { frame, selfMs, share } of frames) {
      process.stdout.write(
        `${selfMs.toFixed(0).padStart(7)} ms ${(share * 100).toFixed(1).padStart(5)}%  ${frame}\n`,
      );
    }
    process.stdout.write(
      `garbage collector: ${collector.toFixed(0)} ms of ${whole.totalMs.toFixed(0)} ms profiled\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { only: { type: 'string' }, profile: { type: 'boolean', default: false } },
  });
  if (values.profile) {
    await profile();
    return 0;
  }
  const chosen = values.only?.split(',') ?? BENCHMARKS;
  const unknown = chosen.filter((name) => !BENCHMARKS.includes(name));
  if (unknown.length > 0)
    throw new Error(`no benchmark ${unknown.join(', ')} (one of ${BENCHMARKS.join(', ')})`);
  const [cpu] = cpus();
  process.stderr.write(`croupier benchmarks: Node ${process.version}, ${cpus().length} × ${cpu?.model}\n`);
  const started = performance.now();
  const figures: Figures = {};
  const failed: string[] = [];
  for (const name of chosen) {
    const result = await runBenchmark(name);
    if ('error' in result) {
      failed.push(name);
      process.stderr.write(`${name} failed: ${result.error}\n`);
    }
    for (const { name: figure } of FIGURES[name] ?? []) {
      figures[figure] = 'figures' in result ? (result.figures[figure] ?? null) : null;
    }
  }
  printTable(figures);
  process.stderr.write(
    `\n${chosen.length} benchmarks in ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
  );
  process.stdout.write(`${JSON.stringify(figures)}\n`);
  return failed.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
