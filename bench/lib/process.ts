import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../src/version.js';

/** `croupier` as it is installed: bin/croupier.js over dist/. */
export const CROUPIER = join(PACKAGE_ROOT, 'bin', 'croupier.js');

/** Runs `croupier args…` to its end: its exit code, how many lines it printed, and its stderr. */
export function runCroupier(
  args: readonly string[],
): Promise<{ code: number | null; lines: number; stderr: string }> {
  const child = spawn(process.execPath, [CROUPIER, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let lines = 0;
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    for (const byte of chunk) if (byte === 0x0a) lines++;
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, lines, stderr }));
  });
}

/** Starts `croupier args…` in the background, its temporary files (the demo's PTYs) in `tmp`; its output is dropped. */
export function startCroupier(args: readonly string[], tmp: string): ChildProcess {
  return spawn(process.execPath, [CROUPIER, ...args], {
    stdio: 'ignore',
    env: { ...process.env, TMPDIR: tmp },
  });
}

/** A TCP port free on loopback just now. */
export function freePort(): Promise<number> {
  const server = createServer();
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
