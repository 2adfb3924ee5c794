import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, readdir, statfs } from 'node:fs/promises';
import { connect } from 'mqtt';
import { type HidDeviceInfo, nodeHidBinding } from '../io/hid.js';

/**
 * What `croupier doctor` asks of the machine, behind one small interface so that its tests stand fakes in
 * for a Pi: commands, file systems, the network, USB HID devices.
 */
export interface DoctorSystem {
  /** Runs a command; a non-zero exit is a result, a command not installed rejects with `ENOENT`. */
  exec(command: string, args: readonly string[]): Promise<{ code: number; stdout: string }>;
  /** Bytes free for an unprivileged user on the file system holding `path`. */
  freeBytes(path: string): Promise<number>;
  readdir(path: string): Promise<string[]>;
  /** Resolves when the user running doctor may do `mode` on `path`; rejects with the errno error. */
  access(path: string, mode: AccessMode): Promise<void>;
  /** One GET; rejects when nothing answers. */
  fetch(url: string): Promise<{ status: number; body: string }>;
  /** Connects and disconnects; rejects with why it could not connect. */
  mqttConnect(url: string, credentials: { username?: string; password?: string }): Promise<void>;
  /** The USB HID devices node-hid sees; rejects with `HidUnavailableError` when it cannot load. */
  hidDevices(): Promise<HidDeviceInfo[]>;
}

export type AccessMode = 'exists' | 'write' | 'read-write';

/** How long doctor waits for a command, a page or a broker. */
export const ANSWER_TIMEOUT_MS = 3000;

const ACCESS: Record<AccessMode, number> = {
  exists: constants.F_OK,
  write: constants.W_OK,
  'read-write': constants.R_OK | constants.W_OK,
};

/** The machine doctor runs on. */
export function hostSystem(): DoctorSystem {
  const hid = nodeHidBinding();
  return {
    exec: (command, args) =>
      new Promise((resolve, reject) => {
        execFile(command, args, { timeout: ANSWER_TIMEOUT_MS }, (error, stdout) => {
          if (error && typeof error.code !== 'number') reject(error);
          else resolve({ code: error ? Number(error.code) : 0, stdout });
        });
      }),
    freeBytes: async (path) => {
      const stats = await statfs(path);
      return stats.bavail * stats.bsize;
    },
    readdir: (path) => readdir(path),
    access: (path, mode) => access(path, ACCESS[mode]),
    fetch: async (url) => {
      const response = await fetch(url, { signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS) });
      return { status: response.status, body: await response.text() };
    },
    mqttConnect,
    hidDevices: () => hid.list(),
  };
}

function mqttConnect(url: string, credentials: { username?: string; password?: string }): Promise<void> {
  return new Promise((resolve, reject) => {
    const client = connect(url, {
      ...credentials,
      clientId: `croupier-doctor-${process.pid}`,
      // Its own timeout after doctor's, which says ETIMEDOUT.
      connectTimeout: ANSWER_TIMEOUT_MS + 1000,
      reconnectPeriod: 0,
    });
    const settle = (error?: Error) => {
      clearTimeout(timer);
      client.removeAllListeners();
      // An error after this one (the socket closing) must not be thrown as unhandled.
      client.on('error', () => undefined);
      client.end(true);
      if (error) reject(error);
      else resolve();
    };
    const timer = setTimeout(
      () => settle(Object.assign(new Error('no answer'), { code: 'ETIMEDOUT' })),
      ANSWER_TIMEOUT_MS,
    );
    client.once('connect', () => settle());
    client.once('error', settle);
    client.once('close', () => settle(new Error('the broker closed the connection')));
  });
}
