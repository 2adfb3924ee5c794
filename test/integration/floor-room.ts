import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { freePort } from '../../bench/lib/process.js';
import type { FloorMessage } from '../../src/floor/protocol.js';
import { requireSocat } from './pty.js';

/**
 * A card room for the floor's tests: `croupier start --demo` tables and `croupier floor` as the README
 * runs them (processes from bin/croupier.js over dist/, each in its own folder), a tablet's WebSocket,
 * and a relay that keeps every byte between the floor service and the broker.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export type Undo = (() => Promise<unknown>)[];

export interface Croupier {
  proc: ChildProcess;
  /** Every line it printed (JSON log lines, and stderr). */
  lines: string[];
  exited: Promise<void>;
  /** SIGTERM, or SIGKILL (a crash), and the wait for its end. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Runs `croupier args…` with `config` as its file, in a folder of its own (its journal, the demo's PTYs). */
export async function croupier(undo: Undo, args: readonly string[], config: object): Promise<Croupier> {
  const dir = await mkdtemp(join(tmpdir(), 'croupier-room-'));
  undo.push(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'croupier.json');
  await writeFile(file, JSON.stringify({ journal: { path: join(dir, 'journal.db') }, ...config }));
  const proc = spawn(process.execPath, ['bin/croupier.js', ...args, '--config', file], {
    cwd: ROOT,
    env: { ...process.env, TMPDIR: dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = once(proc, 'exit').then(() => undefined);
  const lines: string[] = [];
  for (const stream of [proc.stdout, proc.stderr])
    stream?.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
    await exited;
  };
  undo.push(() => stop('SIGKILL'));
  return { proc, lines, exited, stop };
}

/** Polls `url` until it answers 200, the process still running. */
export async function answering(url: string, running: Croupier, ms = 30_000): Promise<void> {
  const deadline = performance.now() + ms;
  for (;;) {
    if (running.proc.exitCode !== null)
      throw new Error(
        `it exited ${running.proc.exitCode} before ${url} answered:\n${running.lines.join('\n')}`,
      );
    const ok = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    if (performance.now() > deadline) throw new Error(`${url} did not answer within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface DemoTable {
  id: string;
  httpUrl: string;
  croupier: Croupier;
}

/** A `croupier start --demo` table on the broker `mqttUrl`, its hole cards on `private/` without delay. */
export async function demoTable(
  undo: Undo,
  id: string,
  mqttUrl: string,
  extra: object = {},
): Promise<DemoTable> {
  requireSocat('the floor tests');
  const port = await freePort();
  const running = await croupier(undo, ['start', '--demo'], {
    table: { id },
    http: { port },
    mqtt: { url: mqttUrl, privateDelayMs: 0 },
    ...extra,
  });
  const httpUrl = `http://127.0.0.1:${port}`;
  await answering(`${httpUrl}/healthz`, running);
  return { id, httpUrl, croupier: running };
}

export interface FloorProcess {
  url: string;
  croupier: Croupier;
}

/** `croupier floor --mqtt URL --port N` with `config`, once `/healthz` answers. */
export async function floorProcess(
  undo: Undo,
  mqttUrl: string,
  config: object,
  port?: number,
): Promise<FloorProcess> {
  const chosen = port ?? (await freePort());
  const running = await croupier(undo, ['floor', '--mqtt', mqttUrl, '--port', String(chosen)], config);
  const url = `http://127.0.0.1:${chosen}`;
  await answering(`${url}/healthz`, running);
  return { url, croupier: running };
}

/** A tablet's WebSocket on the floor's page: every message, with when it came (`performance.now()`). */
export interface Tablet {
  heard: { at: number; message: FloorMessage }[];
  close(): Promise<void>;
}

export async function tablet(undo: Undo, floorUrl: string): Promise<Tablet> {
  const socket = new WebSocket(`${floorUrl.replace(/^http/, 'ws')}/ws`);
  const heard: Tablet['heard'] = [];
  socket.on('message', (data) => heard.push({ at: performance.now(), message: JSON.parse(String(data)) }));
  await once(socket, 'open');
  const close = async () => {
    if (socket.readyState === WebSocket.CLOSED) return;
    socket.close();
    await once(socket, 'close');
  };
  undo.push(close);
  return { heard, close };
}

/** A TCP relay to the broker that keeps every byte each way: what the floor sent, and all it received. */
export interface Recorder {
  url: string;
  sent(): Buffer;
  received(): Buffer;
}

export async function recordingRelay(undo: Undo, brokerUrl: string): Promise<Recorder> {
  const broker = new URL(brokerUrl);
  const sent: Buffer[] = [];
  const received: Buffer[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(broker.port), broker.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.once('close', () => {
        client.destroy();
        upstream.destroy();
        sockets.delete(socket);
      });
    }
    client.on('data', (chunk: Buffer) => {
      sent.push(chunk);
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      received.push(chunk);
      client.write(chunk);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  undo.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  const { port } = server.address() as { port: number };
  return {
    url: `mqtt://127.0.0.1:${port}`,
    sent: () => Buffer.concat(sent),
    received: () => Buffer.concat(received),
  };
}

/** Tries `check` until it holds: a loaded machine only makes the test slower. */
export async function eventually(
  ms: number,
  what: () => string,
  check: () => Promise<boolean>,
): Promise<void> {
  const deadline = performance.now() + ms;
  for (;;) {
    if (await check()) return;
    if (performance.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export const getJson = async <T>(url: string): Promise<T> => (await fetch(url)).json() as Promise<T>;
