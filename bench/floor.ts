import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { connectAsync } from 'mqtt';
import { startFloorLoad } from '../simulators/floor-load/room.js';
import type { FloorMessage } from '../src/floor/protocol.js';
import { startMosquitto } from '../test/integration/mosquitto.js';
import { benchmark, progress } from './lib/child.js';
import type { Figures } from './lib/figures.js';
import { CROUPIER, freePort } from './lib/process.js';
import { openScreen } from './lib/screen.js';
import { monotonicMs, percentile, rounded } from './lib/stats.js';

/**
 * The floor service at card-room scale (issue 20), on a real Mosquitto: N simulated tables' public
 * traffic (simulators/floor-load: recorded hands, incidents, dealers' calls, tables dropping off and
 * back) beside three real `croupier start --demo` tables, read by `croupier floor` in its own process,
 * and a tablet (a WebSocket client in another process, bench/ws-listener.ts).
 *
 * floor_incident_p50/p99_ms: from a table's publish of an incident (or a dealer's call) to the tablet's
 * WebSocket message that shows it on its tile, on the machine's monotonic clock. The room's incidents
 * come faster than a real room's (a few a second, and bursts of 20 tables at once) so that a minute
 * gives a p99; the state traffic is a real room's (a hand every 90 s per table).
 * floor_rss_mb, floor_cpu_percent: the floor process over that minute (CPU: of one core).
 * floor_rebuild_ms: the floor process killed and started again, to every table back in its room (its
 * `/api/tables`), from the retained messages alone. `floor_1k_*`: the same at 1,000 tables.
 *
 * table_*: what one demo table costs the broker, messages and bytes per second by topic, from a client
 * subscribed to its whole tree (`croupier/v1/demo-1/#`) for 20 s; the breakdown is printed.
 */

const DEMO_TABLES = ['demo-1', 'demo-2', 'demo-3'];
const MEASURE_MS = 60_000;
const WARM_UP_MS = 10_000;
const COST_MS = 20_000;
/** Incidents a second across the room, whatever its size: enough samples for a p99 in a minute. */
const INCIDENTS_PER_S = 4;

interface Cleanups {
  push(step: () => Promise<unknown>): unknown;
}

benchmark(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'croupier-bench-floor-'));
  const undo: (() => Promise<unknown>)[] = [];
  const cleanups: Cleanups = { push: (step) => undo.push(step) };
  try {
    const broker = await startMosquitto(cleanups);
    for (const id of DEMO_TABLES) await demoTable(dir, id, broker.url, cleanups);
    const cost = await tableCost(broker.url, DEMO_TABLES[0] as string);
    const figures: Figures = { ...cost };
    for (const [tables, prefix] of [
      [200, 'floor'],
      [1000, 'floor_1k'],
    ] as const) {
      Object.assign(figures, await measureRoom(dir, broker.url, tables, prefix));
    }
    return figures;
  } finally {
    for (const step of undo.reverse()) await step().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
});

async function demoTable(dir: string, id: string, mqtt: string, cleanups: Cleanups): Promise<void> {
  const port = await freePort();
  const config = join(dir, `${id}.json`);
  await writeFile(
    config,
    JSON.stringify({
      table: { id },
      http: { port },
      mqtt: { url: mqtt },
      journal: { path: join(dir, `${id}.db`) },
    }),
  );
  const table = croupier(['start', '--demo', '--config', config], dir);
  cleanups.push(() => stop(table));
  await answering(`http://127.0.0.1:${port}/healthz`, table);
}

/** One table's messages and bytes per second on the broker, by topic. */
async function tableCost(url: string, table: string): Promise<Figures> {
  const client = await connectAsync(url, { reconnectPeriod: 0 });
  const topics = new Map<string, { messages: number; bytes: number }>();
  client.on('message', (topic, payload) => {
    // Device channels by device and channel; the table's own topics by name.
    const key = topic.split('/').slice(3).join('/');
    const seen = topics.get(key) ?? { messages: 0, bytes: 0 };
    seen.messages++;
    seen.bytes += payload.length + topic.length;
    topics.set(key, seen);
  });
  // A minute of play first: the demo has dealt a few hands and its sensors have settled.
  await sleep(WARM_UP_MS);
  await client.subscribeAsync(`croupier/v1/${table}/#`, { qos: 1 });
  await sleep(COST_MS);
  await client.endAsync();
  const perS = (n: number) => rounded((n * 1000) / COST_MS);
  let messages = 0;
  let bytes = 0;
  for (const [topic, seen] of [...topics].sort()) {
    messages += seen.messages;
    bytes += seen.bytes;
    progress(`${table} ${topic}: ${perS(seen.messages)} messages/s, ${perS(seen.bytes)} bytes/s`);
  }
  const chips = [...topics].filter(([topic]) => topic.startsWith('device/chips-1/'));
  return {
    table_msgs_per_s: perS(messages),
    table_bytes_per_s: perS(bytes),
    table_chip_msgs_per_s: perS(chips.reduce((sum, [, seen]) => sum + seen.messages, 0)),
    table_state_msgs_per_s: perS(topics.get('state')?.messages ?? 0),
  };
}

async function measureRoom(dir: string, url: string, tables: number, prefix: string): Promise<Figures> {
  const undo: (() => Promise<unknown>)[] = [];
  try {
    const published = new Map<string, number>();
    progress(`${prefix}: ${tables} tables connecting`);
    const load = await startFloorLoad({
      url,
      tables,
      prefix: `${prefix}-`,
      seed: tables,
      incidentsPerTableHour: (INCIDENTS_PER_S * 3600) / tables,
      burstEveryMs: 10_000,
      burstSize: 20,
      incidentMs: 10_000,
      published: ({ table, key }) => {
        published.set(`${table}/${key}`, monotonicMs());
      },
    });
    // The room's tables leave it after: the next room is theirs alone.
    undo.push(() => load.stop({ forget: true }));
    const port = await freePort();
    const config = join(dir, `${prefix}.json`);
    await writeFile(config, JSON.stringify({ floor: { port, stats: join(dir, `${prefix}.db`) } }));
    const room = tables + DEMO_TABLES.length;
    let floor = croupier(['floor', '--mqtt', url, '--config', config], dir);
    undo.push(() => stop(floor));
    const base = `http://127.0.0.1:${port}`;
    await answering(`${base}/healthz`, floor);
    await whole(base, room, floor);
    await sleep(WARM_UP_MS);

    const screen = await openScreen(`ws://127.0.0.1:${port}/ws`);
    undo.push(() => screen.close());
    const shown = new Map<string, number>();
    let listening = true;
    const listen = (async () => {
      while (listening) {
        const heard = await screen.next(() => true, 1000).catch(() => undefined);
        if (!heard) continue;
        const message = JSON.parse(heard.text) as FloorMessage;
        const tiles = message.type === 'tile' ? [message.tile] : message.type === 'room' ? message.tiles : [];
        for (const tile of tiles) {
          const key = tile.call && `${tile.id}/${tile.call.key}`;
          if (key && !shown.has(key)) shown.set(key, heard.at);
        }
      }
    })();
    const from = published.size;
    const cpuBefore = await cpuMs(floor.pid as number);
    const started = monotonicMs();
    await sleep(MEASURE_MS);
    const cpu = ((await cpuMs(floor.pid as number)) - cpuBefore) / (monotonicMs() - started);
    const rss = await residentMb(floor.pid as number);
    await sleep(1000); // the last incidents' messages
    listening = false;
    await listen;
    const lags = [...published].slice(from).flatMap(([key, at]) => {
      const seen = shown.get(key);
      return seen === undefined ? [] : [seen - at];
    });
    progress(
      `${prefix}: ${lags.length} of ${published.size - from} incidents and calls shown; ${JSON.stringify(load.counts())}`,
    );

    // Killed, and started again: the room from the broker's retained messages alone. On a port of its
    // own: the one it had may be some table's connection's by now (the same range of ports).
    await stop(floor, 'SIGKILL');
    const again = await freePort();
    await writeFile(config, JSON.stringify({ floor: { port: again, stats: join(dir, `${prefix}.db`) } }));
    const restarted = monotonicMs();
    floor = croupier(['floor', '--mqtt', url, '--config', config], dir);
    await whole(`http://127.0.0.1:${again}`, room, floor);
    const rebuild = monotonicMs() - restarted;
    return {
      [`${prefix}_tables`]: tables,
      [`${prefix}_incident_p50_ms`]: rounded(percentile(lags, 50)),
      [`${prefix}_incident_p99_ms`]: rounded(percentile(lags, 99)),
      [`${prefix}_incident_samples`]: lags.length,
      [`${prefix}_rss_mb`]: rounded(rss),
      [`${prefix}_cpu_percent`]: rounded(cpu * 100),
      [`${prefix}_rebuild_ms`]: rounded(rebuild),
    };
  } finally {
    for (const step of undo.reverse()) await step().catch(() => undefined);
  }
}

/** Polls until every table of the room is on the floor's page with its state (its `/healthz` counts them). */
async function whole(base: string, room: number, floor: ChildProcess): Promise<void> {
  for (;;) {
    if (floor.exitCode !== null) throw new Error(`croupier floor exited ${floor.exitCode}`);
    const health = await fetch(`${base}/healthz`).then(
      (response) => response.json() as Promise<{ states?: number }>,
      () => ({ states: 0 }),
    );
    if ((health.states ?? 0) >= room) return;
    await sleep(20);
  }
}

async function answering(url: string, child: ChildProcess, ms = 30_000): Promise<void> {
  const deadline = monotonicMs() + ms;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited ${child.exitCode}`);
    if (
      await fetch(url).then(
        (response) => response.ok,
        () => false,
      )
    )
      return;
    if (monotonicMs() > deadline) throw new Error(`${url} did not answer within ${ms} ms`);
    await sleep(20);
  }
}

async function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  await Promise.race([exited, sleep(10_000).then(() => child.kill('SIGKILL'))]);
}

/** The CPU time process `pid` used so far (user and system), ms. */
async function cpuMs(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.split(' ') ?? [];
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / 100; // USER_HZ
}

async function residentMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]) / 1024;
}

/**
 * `croupier args…` in the background, its output dropped, its temporary files in `tmp`. Through
 * `setpriv --pdeathsig`: a benchmark killed for running too long leaves no table or floor behind.
 */
function croupier(args: readonly string[], tmp: string): ChildProcess {
  return spawn('setpriv', ['--pdeathsig', 'SIGKILL', '--', process.execPath, CROUPIER, ...args], {
    stdio: 'ignore',
    env: { ...process.env, TMPDIR: tmp },
  });
}
