import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Temporary folders named after the process that made them (`<prefix><pid>-…`). A process killed
 * outright (a power cut, `kill -9`) cannot remove its folder: the next one made with the same prefix
 * removes the folders of processes that are gone.
 */
export async function makeOwnedFolder(prefix: string): Promise<string> {
  const parent = tmpdir();
  await removeOrphans(parent, prefix);
  return mkdtemp(join(parent, `${prefix}${process.pid}-`));
}

/** Removes the `prefix` folders in `parent` whose process no longer runs; the others are in use. */
export async function removeOrphans(parent: string, prefix: string): Promise<string[]> {
  const orphans = (await readdir(parent)).filter((name) => {
    if (!name.startsWith(prefix)) return false;
    const pid = /^(\d+)-/.exec(name.slice(prefix.length))?.[1];
    return pid !== undefined && !running(Number(pid));
  });
  await Promise.all(orphans.map((name) => rm(join(parent, name), { recursive: true, force: true })));
  return orphans;
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user. A reused pid keeps a folder until that process ends too.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
