import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { filter, firstValueFrom } from 'rxjs';
import { describe, it } from 'vitest';
import { DEMO_SCENARIOS } from '../../simulators/virtual-table/demo.js';
import type { HealthReport } from '../../src/controller/health.js';
import { connectMqtt, type MqttLink, type MqttMessage } from '../../src/io/mqtt.js';
import { publicOutput } from '../../src/outputs/public.js';
import { parseScenarioText } from '../../src/scenario/load.js';
import { replayEvents } from '../../src/table/table.js';
import { until } from './live-table.js';
import { startMosquitto } from './mosquitto.js';
import { requireSocat } from './pty.js';
import { leakedSecrets } from './secrets.js';

/*
 * `croupier start` as the README runs it: a process from bin/croupier.js over dist/, its embedded broker,
 * `/healthz`, and with --demo the virtual table's devices on PTYs playing hands round and round.
 */

requireSocat('the croupier start tests');
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
type Undo = (() => Promise<unknown>)[];

interface Croupier {
  proc: ChildProcessWithoutNullStreams;
  /** Every log line, parsed. */
  logs: { level: number; msg: string; [key: string]: unknown }[];
  lines: string[];
  exited: Promise<number | null>;
}

async function croupier(undo: Undo, args: string[], config: object): Promise<Croupier> {
  const dir = await mkdtemp(join(tmpdir(), 'croupier-start-'));
  undo.push(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'croupier.json');
  // Each croupier its own journal, in its own folder: never one in the checkout.
  await writeFile(file, JSON.stringify({ journal: { path: join(dir, 'journal.db') }, ...config }));
  // Its temporary files (the demo's PTYs) in that folder too: a croupier killed below cannot remove them.
  const proc = spawn(process.execPath, ['bin/croupier.js', 'start', '--config', file, ...args], {
    cwd: ROOT,
    env: { ...process.env, TMPDIR: dir },
  });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  undo.push(async () => {
    proc.kill('SIGKILL');
    await exited;
  });
  const running: Croupier = { proc, logs: [], lines: [], exited };
  let rest = '';
  proc.stdout.on('data', (chunk: Buffer) => {
    const lines = (rest + chunk.toString()).split('\n');
    rest = lines.pop() ?? '';
    running.lines.push(...lines);
    running.logs.push(...lines.map((line) => JSON.parse(line) as Croupier['logs'][number]));
  });
  proc.stderr.on('data', (chunk: Buffer) => running.lines.push(chunk.toString()));
  return running;
}

const started = async (running: Croupier) => {
  await until(
    20_000,
    () => `croupier to start:\n${running.lines.join('\n')}`,
    () => running.logs.some((log) => log.msg === 'croupier started'),
  );
  return running.logs.find((log) => log.msg === 'croupier started') as unknown as {
    http: string;
    mqtt: string;
  };
};

function watch(undo: Undo, url: string, topicFilter = '#'): { floor: MqttLink; messages: MqttMessage[] } {
  const floor = connectMqtt({ url, clientId: `floor-${Math.random()}`, reconnectMs: 200 });
  undo.push(() => floor.close());
  const messages: MqttMessage[] = [];
  floor.messages(topicFilter).subscribe((message) => messages.push(message));
  return { floor, messages };
}

const PORTS = { http: { port: 0 }, mqtt: { embedded: { port: 0 } } };

describe.concurrent('croupier start', () => {
  it('runs the demo: every device online on /healthz, a demo hand ruled on MQTT with no hole card shown, a clean stop', {
    timeout: 120_000,
  }, async ({ expect, onTestFinished }) => {
    const undo: Undo = [];
    onTestFinished(async () => {
      for (const step of undo.reverse()) await step().catch(() => undefined);
    });
    const running = await croupier(undo, ['--demo'], { table: { id: 'demo' }, ...PORTS });
    const { http, mqtt } = await started(running);
    const { floor, messages } = watch(undo, mqtt);
    await firstValueFrom(floor.status$.pipe(filter((status) => status.state === 'connected')));

    let health: HealthReport | undefined;
    await until(
      15_000,
      () => `every device online: ${JSON.stringify(health?.devices)}`,
      () => health?.status === 'ok',
      async () => {
        health = (await (await fetch(`${http}/healthz`)).json()) as HealthReport;
      },
    );
    expect(health?.devices.map((device) => [device.id, device.status])).toEqual([
      ['rfid-1', 'online'],
      ['keypad-1', 'online'],
      ['chips-1', 'online'],
      ['shuffler-1', 'online'],
    ]);

    // The first demo hand, watched on every topic from its start.
    const file = join(ROOT, DEMO_SCENARIOS[0]);
    await until(
      60_000,
      () => 'the first demo hand',
      () => running.logs.some((log) => log.msg === 'demo hand played' && log.file === file),
    );
    const scenario = parseScenarioText(await readFile(file, 'utf8'), file);
    const expected = replayEvents({ seats: 10, profile: scenario.profile }, scenario.events).map(
      publicOutput,
    );
    const incidents = messages.filter((message) => message.topic === 'croupier/v1/demo/incident');
    expect(incidents.map((message) => JSON.parse(message.payload.toString()).incident)).toEqual(
      expected.map((output) => output.kind === 'incident' && output.incident),
    );
    expect(messages.some((message) => message.topic === 'croupier/v1/demo/state')).toBe(true);
    expect(
      leakedSecrets(
        scenario,
        expected,
        messages,
        running.lines.filter((line) => line.startsWith('{')),
      ),
    ).toEqual([]);

    running.proc.kill('SIGTERM');
    expect(await running.exited).toBe(0);
  });

  it('refuses a bad config, naming the key, with exit code 2', async ({ expect }) => {
    const undo: Undo = [];
    const running = await croupier(undo, [], { table: { seats: 11 } });
    expect(await running.exited).toBe(2);
    expect(running.lines.join('')).toContain('table.seats: Too big: expected number to be <=10');
    for (const step of undo.reverse()) await step();
  });

  it('leaves its will on an external broker when killed: status offline, retained', async ({
    expect,
    onTestFinished,
  }) => {
    const undo: Undo = [];
    onTestFinished(async () => {
      for (const step of undo.reverse()) await step().catch(() => undefined);
    });
    const mosquitto = await startMosquitto({ push: (step) => undo.push(step) });
    const running = await croupier(undo, [], {
      table: { id: 'will' },
      http: { port: 0 },
      mqtt: { url: mosquitto.url },
    });
    await started(running);
    const { messages } = watch(undo, mosquitto.url, 'croupier/v1/will/status');
    const status = () => messages.map((message) => JSON.parse(message.payload.toString()).state as string);
    await until(
      5000,
      () => 'status online',
      () => status().includes('online'),
    );
    running.proc.kill('SIGKILL');
    await running.exited;
    await until(
      10_000,
      () => `status offline (got ${status()})`,
      () => status().at(-1) === 'offline',
    );
    // The broker said it for the vanished croupier, and keeps it for whoever subscribes later.
    expect(status()).toEqual(['online', 'offline']);
    const late = watch(undo, mosquitto.url, 'croupier/v1/will/status');
    await until(
      5000,
      () => 'the retained status',
      () => late.messages.length > 0,
    );
    expect(
      late.messages.map((message) => [message.retain, JSON.parse(message.payload.toString()).state]),
    ).toEqual([[true, 'offline']]);
  });
});
