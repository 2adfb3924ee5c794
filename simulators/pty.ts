import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { SerialPort } from 'serialport';

/**
 * Pseudo-terminal pairs made by socat: a simulated serial device talks on one end while croupier opens
 * the other as it would a USB serial port. Killing socat makes both vanish, as a pulled cable does.
 *
 * socat is started through util-linux's `setpriv --pdeathsig SIGKILL`: the kernel kills it when the
 * process that started it dies, however it dies (a SIGKILL, the OOM killer), so a demo or test killed
 * before it could stop its devices leaves no socat behind (Node has no prctl of its own).
 */

/** Where a test registers what to undo, newest first, even when it fails. */
export interface Cleanups {
  push(cleanup: () => Promise<unknown>): unknown;
}

export interface PtyPair {
  /** croupier's end. */
  host: string;
  /** The device's end. */
  device: string;
  /** Kills socat: both PTYs vanish, as when a cable is pulled. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** A socat PTY pair linked as `host` and `device` in `dir`; the same names come back after a restart. */
export async function startPtyPair(dir: string, cleanups: Cleanups): Promise<PtyPair> {
  const host = join(dir, 'host');
  const device = join(dir, 'device');
  const socat = ['socat', '-d', '-d', `pty,raw,echo=0,link=${host}`, `pty,raw,echo=0,link=${device}`];
  // setpriv execs socat in its own process: `proc` is socat itself, its pid and its signals.
  const proc = spawn('setpriv', ['--pdeathsig', 'SIGKILL', '--', ...socat], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => {
    proc.once('exit', () => resolve());
    proc.once('error', () => resolve());
  });
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
    await exited;
  };
  cleanups.push(stop);
  let log = '';
  const ready = new Promise<void>((resolve, reject) => {
    proc.stderr.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('starting data transfer loop')) resolve();
    });
    void exited.then(() => reject(new Error(`socat ended before making its PTYs:\n${log}`)));
  });
  await within(5000, `socat to make ${host} and ${device}`, ready);
  return { host, device, stop };
}

/** Waits for `promise`, failing with what was awaited after `ms`. */
export async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Throws, saying what to install, when socat or setpriv is missing (never a silent skip). */
export function requireSocat(what: string): void {
  const probe = spawnSync('socat', ['-V'], { stdio: 'ignore' });
  if (probe.error) {
    throw new Error(
      `socat is not installed (${probe.error.message}): ${what} need it to make pseudo-terminals; ` +
        'install it with `apt-get install socat` (scripts/setup.sh does)',
    );
  }
  const setpriv = spawnSync('setpriv', ['--version'], { stdio: 'ignore' });
  if (setpriv.error) {
    throw new Error(
      `setpriv is not installed (${setpriv.error.message}): ${what} start socat through it so that it ` +
        'dies with them; it is in util-linux (`apt-get install util-linux`)',
    );
  }
}

/** The device's cable: a plain node-serialport port, independent of the code under test. */
export async function openDevicePort(
  path: string,
  cleanups: Cleanups,
  baudRate = 115_200,
): Promise<SerialPort> {
  const port = new SerialPort({ path, baudRate, autoOpen: false });
  await new Promise<void>((resolve, reject) => port.open((err) => (err ? reject(err) : resolve())));
  // The PTY vanishes with socat (an unplug): the error must not crash the simulator.
  port.on('error', () => undefined);
  cleanups.push(
    () => new Promise<void>((resolve) => (port.isOpen ? port.close(() => resolve()) : resolve())),
  );
  return port;
}
