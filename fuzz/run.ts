import { fork } from 'node:child_process';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chipDriver } from './chip-driver.js';
import { chipMessages } from './chip-messages.js';
import { configDocument, configText } from './config.js';
import { displayWs } from './display-ws.js';
import { floorCommandsTarget } from './floor-commands.js';
import { floorHttp, floorRoutes } from './floor-http.js';
import { fuzz, type Target, type TargetReport } from './harness.js';
import { keypadReports } from './keypad-reports.js';
import { rfidDriver } from './rfid-driver.js';
import { rfidFrames } from './rfid-frames.js';
import { scenarioDocument, scenarioText } from './scenario.js';
import { shufflerDriverTarget } from './shuffler-driver.js';
import { shufflerLines } from './shuffler-lines.js';

/**
 * `npm run fuzz`: every parser fed generated hostile inputs. Each target runs in shards, each shard in its
 * own process (a crash or a runaway input there cannot take the others down), as many at once as there
 * are cores. Prints per target its inputs, accepted, refused, crashes, violations (a property broken: a
 * refusal without a clear reason, a valid item lost beside garbage), the slowest input's time (its checks
 * included) and the seconds its shards ran, then ONE final JSON line. Exit code 1 if any input crashed a
 * parser or broke a property, or a shard did not finish.
 *
 *   --inputs N   inputs per parser family (default 1,000,000); each target takes its share of them
 *   --seed S     the generators' seed (default 1): the same seed replays the same inputs
 *   --only a,b   these targets only
 *   --shard t:k:n  (internal) run shard k of target t, n inputs, in this process and report to the parent
 */

/**
 * Every target and its share of its family's inputs: the drivers, YAML texts and HTTP are slower. The
 * display's HTTP API takes most inputs in process (`floor-routes`) and a sample through Fastify's inject;
 * its WebSocket takes them all through the server (`display-ws`: a connection each, about 1 ms).
 */
const TARGETS: readonly { target: Target<unknown>; share: number }[] = [
  { target: rfidFrames, share: 1 },
  { target: rfidDriver, share: 0.1 },
  { target: shufflerLines, share: 1 },
  { target: shufflerDriverTarget, share: 0.1 },
  { target: chipMessages, share: 1 },
  { target: chipDriver, share: 0.1 },
  { target: keypadReports, share: 1 },
  { target: floorCommandsTarget, share: 1 },
  { target: configDocument, share: 0.99 },
  { target: configText, share: 0.01 },
  { target: scenarioDocument, share: 0.99 },
  { target: scenarioText, share: 0.01 },
  { target: floorRoutes, share: 0.95 },
  { target: floorHttp, share: 0.05 },
  { target: displayWs, share: 1 },
];

/** Inputs per shard: small enough that the cores stay busy to the end. */
const SHARD_INPUTS = 50_000;
/** Past this a shard is stuck: it is killed and reported as failed. */
const SHARD_LIMIT_MS = 10 * 60_000;

const { values } = parseArgs({
  options: {
    inputs: { type: 'string', default: '1000000' },
    seed: { type: 'string', default: '1' },
    only: { type: 'string' },
    shard: { type: 'string' },
  },
});
const seed = Number(values.seed);

interface Shard {
  target: Target<unknown>;
  index: number;
  inputs: number;
}

type Outcome = TargetReport | { target: string; family: string; error: string };

function shards(): Shard[] {
  const only = values.only?.split(',');
  return TARGETS.filter(({ target }) => !only || only.includes(target.name)).flatMap(({ target, share }) => {
    const inputs = Math.ceil(Number(values.inputs) * share);
    const count = Math.ceil(inputs / SHARD_INPUTS);
    return Array.from({ length: count }, (_, index) => ({
      target,
      index,
      inputs: Math.min(SHARD_INPUTS, inputs - index * SHARD_INPUTS),
    }));
  });
}

/** Each shard draws from its own seed, so shards of one target never repeat each other's inputs. */
const shardSeed = (index: number): number => seed * 1000 + index;

function runShard({ target, index, inputs }: Shard): Promise<Outcome> {
  const { name, family } = target;
  // The YAML parser warns on stderr of every unknown tag it meets: thousands, in a run of mutants.
  const child = fork(
    fileURLToPath(import.meta.url),
    ['--shard', `${name}:${index}:${inputs}`, '--seed', `${seed}`],
    {
      execArgv: ['--no-warnings'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  return new Promise((resolve) => {
    let report: TargetReport | undefined;
    const limit = setTimeout(() => child.kill('SIGKILL'), SHARD_LIMIT_MS);
    child.on('message', (message: TargetReport) => {
      report = message;
    });
    child.on('exit', (code, signal) => {
      clearTimeout(limit);
      const error = `shard ${index} (seed ${shardSeed(index)}) ended (${signal ?? `exit code ${code}`}) without its report`;
      resolve(report ?? { target: name, family, error });
    });
  });
}

/** Two shards of one target as one: counts added, the slower input kept, the first failures. */
function added(sum: TargetReport, shard: TargetReport): TargetReport {
  const slower = shard.maxMs > sum.maxMs ? shard : sum;
  return {
    ...sum,
    inputs: sum.inputs + shard.inputs,
    accepted: sum.accepted + shard.accepted,
    refused: sum.refused + shard.refused,
    crashes: sum.crashes + shard.crashes,
    violations: sum.violations + shard.violations,
    maxMs: slower.maxMs,
    slowest: slower.slowest,
    failures: [...sum.failures, ...shard.failures].slice(0, 5),
    seconds: sum.seconds + shard.seconds,
  };
}

/** One outcome per target: its shards added up, or the first that failed to report. */
function merged(outcomes: readonly Outcome[]): Outcome[] {
  const byTarget = new Map<string, Outcome[]>();
  for (const outcome of outcomes)
    byTarget.set(outcome.target, [...(byTarget.get(outcome.target) ?? []), outcome]);
  return [...byTarget.values()]
    .map((shards) => {
      const reports = shards.filter((shard): shard is TargetReport => !('error' in shard));
      const failed = shards.find((shard) => 'error' in shard);
      const [first, ...rest] = reports;
      return failed ?? (first && rest.reduce(added, first));
    })
    .filter((outcome): outcome is Outcome => outcome !== undefined)
    .sort((a, b) => a.family.localeCompare(b.family) || a.target.localeCompare(b.target));
}

function line(outcome: Outcome): string {
  if ('error' in outcome) return `${outcome.target.padEnd(18)} FAILED: ${outcome.error}`;
  const { target, inputs, accepted, refused, crashes, violations, maxMs, seconds } = outcome;
  const cells = [
    target.padEnd(18),
    ...[inputs, accepted, refused].map((n) => String(n).padStart(9)),
    String(crashes).padStart(7),
    String(violations).padStart(10),
    maxMs.toFixed(1).padStart(8),
    seconds.toFixed(0).padStart(7),
  ];
  return [
    cells.join(' '),
    `  slowest: ${outcome.slowest}`,
    ...outcome.failures.map((failure) => `  ${failure}`),
  ].join('\n');
}

async function runAll(): Promise<void> {
  const started = Date.now();
  const queue = shards();
  const outcomes: Outcome[] = [];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      process.stderr.write(`${next.target.name} shard ${next.index} (${next.inputs} inputs)…\n`);
      outcomes.push(await runShard(next));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, cpus().length) }, worker));
  const targets = merged(outcomes);

  process.stdout.write(
    `\n${'target'.padEnd(18)}    inputs  accepted   refused crashes violations  max ms   secs\n`,
  );
  for (const outcome of targets) process.stdout.write(`${line(outcome)}\n`);
  const families: Record<string, number> = {};
  for (const outcome of targets) {
    if (!('error' in outcome)) families[outcome.family] = (families[outcome.family] ?? 0) + outcome.inputs;
  }
  const minutes = (Date.now() - started) / 60_000;
  process.stdout.write(`\ninputs per family: ${JSON.stringify(families)}; ${minutes.toFixed(1)} minutes\n`);
  const ok = targets.every((outcome) => !('error' in outcome) && outcome.crashes + outcome.violations === 0);
  const summary = targets.map((outcome) =>
    'error' in outcome
      ? outcome
      : {
          ...outcome,
          maxMs: Number(outcome.maxMs.toFixed(2)),
          seconds: Math.round(outcome.seconds),
          failures: undefined,
        },
  );
  const minutesRounded = Number(minutes.toFixed(1));
  process.stdout.write(
    `${JSON.stringify({ seed, ok, minutes: minutesRounded, inputsPerFamily: families, targets: summary })}\n`,
  );
  process.exitCode = ok ? 0 : 1;
}

async function runShardHere(spec: string): Promise<void> {
  const [name, index, inputs] = spec.split(':');
  const entry = TARGETS.find(({ target }) => target.name === name);
  if (!entry) throw new Error(`no fuzz target ${name}`);
  const report = await fuzz(entry.target, Number(inputs), shardSeed(Number(index)));
  if (process.send) process.send(report, () => process.exit(0));
  else process.stdout.write(`${line(report)}\n`);
}

await (values.shard === undefined ? runAll() : runShardHere(values.shard));
