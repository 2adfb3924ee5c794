import { readdirSync, rmSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { makeOwnedFolder } from '../simulators/owned-folder.js';
import { processesLeft } from './leftovers.js';

/**
 * Vitest global setup: the suite runs in a temporary folder of its own, TMPDIR for every worker and
 * every croupier, socat, broker and browser they start, so what the suite leaves behind is what is in
 * that folder or names it, whatever else runs on the machine (another checkout's suite). At the end
 * both must be empty: the run fails naming what was left, and it is removed so that nothing piles up.
 * The folder of a run that was itself killed is removed by the next run.
 */
export default async function noLeftovers(): Promise<() => Promise<void>> {
  const before = process.env.TMPDIR;
  const root = await makeOwnedFolder('croupier-suite-');
  // Open as /tmp is: a test's process may run as another user (Mosquitto drops to its own).
  await chmod(root, 0o1777);
  process.env.TMPDIR = root;
  return async () => {
    const processes = await processesLeft(root);
    const folders = readdirSync(root);
    for (const { pid } of processes) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // it ended meanwhile
      }
    }
    rmSync(root, { recursive: true, force: true });
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    if (processes.length + folders.length > 0) {
      // Vitest reports a teardown's error but does not fail the run for it.
      process.exitCode = 1;
      throw new Error(
        `the tests left behind (now removed):\n${[
          ...processes.map(({ pid, command }) => `  process ${pid}: ${command}`),
          ...folders.map((name) => `  ${join(root, name)}`),
        ].join('\n')}`,
      );
    }
  };
}
