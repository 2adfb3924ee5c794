import { parseConfig } from '../../../src/config/config.js';
import type { DoctorSystem } from '../../../src/doctor/system.js';

export const GB = 1024 ** 3;

/** A failed system call, as Node gives it. */
export const errno = (code: string, message = `${code}: it failed`) =>
  Object.assign(new Error(message), { code });

/**
 * A Pi with nothing on it yet: no commands, no serial devices, nothing listening, plenty of disk; each
 * test gives what its check looks at.
 */
export function fakeSystem(overrides: Partial<DoctorSystem> = {}): DoctorSystem {
  return {
    exec: async (command) => {
      throw errno('ENOENT', `spawn ${command} ENOENT`);
    },
    freeBytes: async () => 10 * GB,
    readdir: async (path) => {
      throw errno('ENOENT', `ENOENT: no such file or directory, scandir '${path}'`);
    },
    access: async () => undefined,
    fetch: async () => {
      throw new TypeError('fetch failed');
    },
    mqttConnect: async () => {
      throw errno('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1883');
    },
    hidDevices: async () => [],
    ...overrides,
  };
}

/** A config: every key but those given at its default. */
export const config = (input: object = {}) => parseConfig(input);

/** croupier answering on its /healthz for `table`, and its display page. */
export const croupierAnswers =
  (table = 'table-1', page = 200): DoctorSystem['fetch'] =>
  async (url) =>
    url.endsWith('/healthz')
      ? { status: 200, body: JSON.stringify({ status: 'ok', table }) }
      : { status: page, body: '<!doctype html>' };
