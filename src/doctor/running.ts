import type { CroupierConfig } from '../config/config.js';
import type { DoctorSystem } from './system.js';

/**
 * Whether croupier runs on this table now, from its /healthz: some checks (the broker on its port, the
 * display) depend on it.
 */
export type Running = 'croupier' | 'nothing' | { other: number };

export async function croupierRunning(config: CroupierConfig, system: DoctorSystem): Promise<Running> {
  let answer: { status: number; body: string };
  try {
    answer = await system.fetch(`${displayUrl(config)}healthz`);
  } catch {
    return 'nothing';
  }
  return answer.status === 200 && tableOf(answer.body) === config.table.id
    ? 'croupier'
    : { other: answer.status };
}

/** The display's address as the kiosk opens it. */
export function displayUrl({ http }: CroupierConfig): string {
  return `http://${reachable(http.host)}:${http.port}/`;
}

/** An address to connect to for one croupier listens on: "any" is reached on loopback. */
export function reachable(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

function tableOf(body: string): unknown {
  try {
    return (JSON.parse(body) as { table?: unknown }).table;
  } catch {
    return undefined;
  }
}
