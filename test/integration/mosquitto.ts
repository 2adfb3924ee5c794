import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Cleanups, within } from './pty.js';

/** Debian's Mosquitto, a real broker of the kind a casino runs, as a peer for integration tests. */

export const MOSQUITTO = '/usr/sbin/mosquitto';

export interface Mosquitto {
  /** `mqtt://127.0.0.1:<port>`, for clients. */
  url: string;
  port: number;
  /** Stops the broker and waits for it to exit. */
  stop(): Promise<void>;
  /** Stops it and starts it again on the same port and files. */
  restart(): Promise<void>;
}

/** Fails the suite at once, saying what to install, when Mosquitto is missing (never a silent skip). */
export function requireMosquitto(what: string): void {
  if (!existsSync(MOSQUITTO)) {
    throw new Error(
      `Mosquitto is not installed (no ${MOSQUITTO}): ${what} need it as a real broker; ` +
        'install it with `apt-get install mosquitto` (scripts/setup.sh does)',
    );
  }
}

/** A port nobody listens on right now, on loopback. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || !address) throw new Error('no free port on 127.0.0.1');
  return address.port;
}

/**
 * Starts Mosquitto on a free loopback port, anonymous access, its config file in a temporary folder;
 * resolves once it listens. With `persistence`, sessions and queued QoS 1 messages survive a restart, as
 * on a casino's broker. Registers its stop (and the folder's removal) with `cleanups`.
 */
export async function startMosquitto(
  cleanups: Cleanups,
  {
    persistence = false,
    access,
  }: {
    persistence?: boolean;
    /** Users (name → password) and an ACL file's text: anonymous clients are refused. */
    access?: { users: Record<string, string>; acl: string };
  } = {},
): Promise<Mosquitto> {
  requireMosquitto('these tests');
  const dir = await mkdtemp(join(tmpdir(), 'croupier-mosquitto-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  // Started as root, Mosquitto drops to its own user: it must still be able to save its sessions here.
  await chmod(dir, 0o777);
  const port = await freePort();
  const config = join(dir, 'mosquitto.conf');
  const guarded: string[] = [];
  if (access) {
    const passwords = join(dir, 'passwd');
    await writeFile(passwords, '');
    for (const [user, password] of Object.entries(access.users)) {
      await new Promise<void>((resolve, reject) =>
        spawn('/usr/bin/mosquitto_passwd', ['-b', passwords, user, password]).once('exit', (code) =>
          code === 0 ? resolve() : reject(new Error(`mosquitto_passwd exited ${code}`)),
        ),
      );
    }
    await writeFile(join(dir, 'acl'), access.acl);
    await chmod(passwords, 0o644);
    guarded.push(`password_file ${passwords}`, `acl_file ${join(dir, 'acl')}`);
  }
  await writeFile(
    config,
    [
      `listener ${port} 127.0.0.1`,
      `allow_anonymous ${!access}`,
      ...guarded,
      `persistence ${persistence}`,
      `persistence_location ${dir}/`,
      'log_dest stderr',
      '',
    ].join('\n'),
  );
  let stop = await run(config, port);
  cleanups.push(() => stop());
  return {
    url: `mqtt://127.0.0.1:${port}`,
    port,
    stop: () => stop(),
    async restart() {
      await stop();
      stop = await run(config, port);
    },
  };
}

/** Runs Mosquitto on `config` until the returned stop; resolves once it listens on `port`. */
async function run(config: string, port: number): Promise<() => Promise<void>> {
  const proc = spawn(MOSQUITTO, ['-c', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<void>((resolve) => {
    proc.once('exit', () => resolve());
    proc.once('error', () => resolve());
  });
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
    await exited;
  };
  let log = '';
  const listening = new Promise<void>((resolve, reject) => {
    proc.stderr.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes(`listen socket on port ${port}`) && log.includes('running')) resolve();
    });
    void exited.then(() => reject(new Error(`mosquitto exited before listening on port ${port}:\n${log}`)));
  });
  await within(5000, `mosquitto to listen on port ${port}`, listening);
  return stop;
}
