import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SerialPort } from 'serialport';
import ts from 'typescript';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  openSerialLink,
  type SerialLink,
  type SerialLinkOptions,
  type SerialStatus,
} from '../../src/io/serial.js';
import { requireSocat, startPtyPair, within } from './pty.js';

/*
 * The serial link against real pseudo-terminals: socat joins two PTYs, the link opens one end and a plain
 * node-serialport port plays the device on the other. Killing socat is the unplug.
 */

const ROOT = join(import.meta.dirname, '../..');
const BAUD = 115_200;

let dir = '';
/** Run after each test, newest first, so a failing test still closes links and kills socat. */
let cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  requireSocat('the serial integration tests');
  dir = await mkdtemp(join(tmpdir(), 'croupier-serial-'));
});

afterEach(async () => {
  const pending = cleanups.reverse();
  cleanups = [];
  for (const cleanup of pending) await cleanup().catch(() => undefined);
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Peer {
  received(): Buffer;
  write(bytes: Uint8Array): Promise<void>;
}

/** The device side: node-serialport itself, independent of the code under test. */
async function openPeer(path: string): Promise<Peer> {
  const port = new SerialPort({ path, baudRate: BAUD, autoOpen: false });
  await new Promise<void>((resolve, reject) => port.open((err) => (err ? reject(err) : resolve())));
  const chunks: Buffer[] = [];
  port.on('data', (chunk: Buffer) => chunks.push(chunk));
  // The peer's PTY vanishes with socat; that is the point of some tests.
  port.on('error', () => undefined);
  cleanups.push(
    () => new Promise<void>((resolve) => (port.isOpen ? port.close(() => resolve()) : resolve())),
  );
  return {
    received: () => Buffer.concat(chunks),
    write: (bytes) =>
      new Promise<void>((resolve, reject) =>
        port.write(Buffer.from(bytes), (err) => (err ? reject(err) : resolve())),
      ),
  };
}

interface Tracked {
  link: SerialLink;
  statuses: { at: number; status: SerialStatus }[];
  received(): Buffer;
}

function track(options: SerialLinkOptions): Tracked {
  const link = openSerialLink(options);
  cleanups.push(() => link.close());
  const statuses: Tracked['statuses'] = [];
  const chunks: Uint8Array[] = [];
  link.status$.subscribe((status) => statuses.push({ at: performance.now(), status }));
  link.data$.subscribe((chunk) => chunks.push(chunk));
  return { link, statuses, received: () => Buffer.concat(chunks) };
}

/** Polls rather than sleeps, so a loaded machine only makes the test slower. */
async function until(ms: number, what: () => string, condition: () => boolean): Promise<void> {
  const deadline = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function states(t: Tracked): string {
  return t.statuses.map(({ status }) => status.state).join(' → ');
}

async function untilState(t: Tracked, ms: number, state: SerialStatus['state'], from = 0): Promise<number> {
  await until(
    ms,
    () => `status ${state} (seen: ${states(t)})`,
    () => t.statuses.slice(from).some(({ status }) => status.state === state),
  );
  return from + t.statuses.slice(from).findIndex(({ status }) => status.state === state);
}

async function untilReceived(ms: number, source: { received(): Buffer }, length: number): Promise<Buffer> {
  await until(
    ms,
    () => `${length} bytes (got ${source.received().length})`,
    () => source.received().length >= length,
  );
  return source.received();
}

/** Compared this way so a mismatch in a megabyte reports where, not a megabyte of diff. */
function sameBytes(actual: Buffer, expected: Buffer): { length: number; firstDifference: number } {
  const limit = Math.min(actual.length, expected.length);
  let i = 0;
  while (i < limit && actual[i] === expected[i]) i += 1;
  return {
    length: actual.length,
    firstDifference: i === limit && actual.length === expected.length ? -1 : i,
  };
}

const EVERY_BYTE = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

/** All 256 byte values from the peer to the link, then from the link to the peer. */
async function expectEveryByteBothWays(t: Tracked, peer: Peer): Promise<void> {
  const intact = { length: 256, firstDifference: -1 };
  await peer.write(EVERY_BYTE);
  expect(sameBytes(await untilReceived(5000, t, 256), EVERY_BYTE)).toEqual(intact);
  await t.link.write(EVERY_BYTE);
  expect(sameBytes(await untilReceived(5000, peer, 256), EVERY_BYTE)).toEqual(intact);
}

describe('serial link over socat pseudo-terminals', () => {
  it('carries all 256 byte values both ways', async () => {
    const socat = await startPtyPair(dir, cleanups);
    const t = track({ device: { path: socat.host }, baudRate: BAUD });
    await untilState(t, 5000, 'open');
    expect(t.link.status).toEqual({ state: 'open', device: `device ${socat.host}`, path: socat.host });
    const peer = await openPeer(socat.device);

    await expectEveryByteBothWays(t, peer);
  });

  it('carries a 1 MB burst intact both ways', async () => {
    const socat = await startPtyPair(dir, cleanups);
    const t = track({ device: { path: socat.host }, baudRate: BAUD });
    await untilState(t, 5000, 'open');
    const peer = await openPeer(socat.device);
    const toLink = randomBytes(1 << 20);
    const toPeer = randomBytes(1 << 20);

    await peer.write(toLink);
    const atLink = await untilReceived(20_000, t, toLink.length);
    expect(sameBytes(atLink, toLink)).toEqual({ length: toLink.length, firstDifference: -1 });

    await within(20_000, 'the link to write 1 MB', t.link.write(toPeer));
    const atPeer = await untilReceived(20_000, peer, toPeer.length);
    expect(sameBytes(atPeer, toPeer)).toEqual({ length: toPeer.length, firstDifference: -1 });
  });

  it('reports an unplug as closed within 2 s, then reopens when the device is back and data flows', async () => {
    const socat = await startPtyPair(dir, cleanups);
    const t = track({ device: { path: socat.host }, baudRate: BAUD, backoff: { initialMs: 50, maxMs: 400 } });
    await untilState(t, 5000, 'open');

    const unplugged = performance.now();
    await socat.stop();
    const closed = await untilState(t, 5000, 'closed'); // the 2 s requirement is on the status time below
    expect(t.statuses[closed]?.at).toBeLessThan(unplugged + 2000);
    expect(t.statuses[closed]?.status).toMatchObject({ reason: expect.stringContaining('disconnected') });
    // While it is away, the link keeps trying and says why it cannot open.
    const failed = await untilState(t, 5000, 'error', closed);
    expect(t.statuses[failed]?.status).toMatchObject({ reason: `device ${socat.host} not found` });
    await expect(t.link.write(EVERY_BYTE)).rejects.toThrow(`cannot write to device ${socat.host}`);

    const back = await startPtyPair(dir, cleanups);
    const reopened = await untilState(t, 5000, 'open', failed);
    expect(t.statuses[reopened]?.status).toMatchObject({ path: back.host });
    const peer = await openPeer(back.device);
    await expectEveryByteBothWays(t, peer);
  });

  it('reports an abrupt unplug (socat killed with SIGKILL) as closed within 2 s', async () => {
    const socat = await startPtyPair(dir, cleanups);
    const t = track({ device: { path: socat.host }, baudRate: BAUD });
    await untilState(t, 5000, 'open');
    const unplugged = performance.now();
    await socat.stop('SIGKILL');
    const closed = await untilState(t, 5000, 'closed'); // the 2 s requirement is on the status time below
    expect(t.statuses[closed]?.at).toBeLessThan(unplugged + 2000);
  });

  it('reports a missing device as an error with a clear reason and keeps retrying without throwing', async () => {
    const path = join(dir, 'no-such-device');
    const t = track({ device: { path }, baudRate: BAUD, backoff: { initialMs: 20, maxMs: 80 } });
    await until(
      5000,
      () => `4 failed opens (seen: ${states(t)})`,
      () => t.statuses.filter(({ status }) => status.state === 'error').length >= 4,
    );
    const errors = t.statuses.map(({ status }) => status).filter((s) => s.state === 'error');
    expect(errors.slice(0, 4)).toEqual(
      [20, 40, 80, 80].map((retryInMs, i) => ({
        state: 'error',
        device: `device ${path}`,
        reason: `device ${path} not found`,
        attempt: i + 1,
        retryInMs,
      })),
    );
    await expect(t.link.write(EVERY_BYTE)).rejects.toThrow(`cannot write to device ${path}: it is error`);

    await t.link.close();
    expect(t.link.status).toEqual({
      state: 'closed',
      device: `device ${path}`,
      reason: 'closed by caller',
      retryInMs: null,
    });
    const seen = t.statuses.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(t.statuses).toHaveLength(seen);
  });

  it('leaves no handle or timer after close(): a process using links exits by itself', async () => {
    const socat = await startPtyPair(dir, cleanups);
    const script = await childScript();
    const child = spawn(process.execPath, [script, socat.host, join(dir, 'no-such-device')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cleanups.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exit = exitOf(child);
    await until(
      15_000,
      () => `the child to close its links (output: ${output})`,
      () => output.includes('closed'),
    );
    const code = await within(
      3000,
      `the child to exit after close(), a handle is left (output: ${output})`,
      exit,
    );
    expect({ code, output }).toEqual({ code: 0, output: 'closed\n' });
  });
});

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/**
 * Writes a plain Node script using the link, compiled from the source, in the temp dir; the dir links to
 * the project's node_modules so `rxjs` and `serialport` resolve.
 */
async function childScript(): Promise<string> {
  const source = await readFile(join(ROOT, 'src/io/serial.ts'), 'utf8');
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  const out = await mkdtemp(join(dir, 'child-'));
  await symlink(join(ROOT, 'node_modules'), join(out, 'node_modules'));
  await writeFile(join(out, 'serial.mjs'), outputText);
  const script = join(out, 'main.mjs');
  await writeFile(
    script,
    `import { filter, firstValueFrom } from 'rxjs';
import { openSerialLink } from './serial.mjs';

const [path, missing] = process.argv.slice(2);
const live = openSerialLink({ device: { path }, baudRate: ${BAUD} });
const gone = openSerialLink({ device: { path: missing }, baudRate: ${BAUD}, backoff: { initialMs: 10, maxMs: 20 } });
live.data$.subscribe(() => {});
await firstValueFrom(live.status$.pipe(filter((s) => s.state === 'open')));
await live.write(new Uint8Array([1, 2, 3]));
await firstValueFrom(gone.status$.pipe(filter((s) => s.state === 'error' && s.attempt >= 3)));
await Promise.all([live.close(), gone.close()]);
console.log('closed');
`,
  );
  return script;
}
