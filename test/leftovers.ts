import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * What croupier and its tests leave behind: processes found by a folder their command lines name (a
 * socat's PTY links, a croupier's config, a broker's config, a browser's profile), read from /proc.
 */

export interface Leftover {
  pid: number;
  command: string;
}

/** The running processes whose command line contains `text`, this one aside; zombies have none. */
export function processesNaming(text: string): Leftover[] {
  const found: Leftover[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    let command: string;
    try {
      command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
    } catch {
      continue; // it ended while we looked
    }
    if (command.includes(text)) found.push({ pid, command });
  }
  return found;
}

/**
 * The processes naming `text` that are still there after `ms`: a process killed a moment ago (by the
 * kernel for a dead parent, say) takes a little while to be gone from /proc.
 */
export async function processesLeft(text: string, ms = 3000): Promise<Leftover[]> {
  const until = Date.now() + ms;
  let left = processesNaming(text);
  while (left.length > 0 && Date.now() < until) {
    await sleep(50);
    left = processesNaming(text);
  }
  return left;
}
