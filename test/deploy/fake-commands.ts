import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

/** deploy/, where the scripts under test are. */
export const DEPLOY = join(import.meta.dirname, '../../deploy');

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/**
 * A folder of fake system commands, first on PATH: each logs its name and arguments, one call a line, then
 * does what its body says (bash; nothing by default). The folder is removed after the test.
 */
export function fakeCommands(bodies: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'croupier-deploy-'));
  folders.push(dir);
  const bin = join(dir, 'bin');
  const log = join(dir, 'calls.log');
  mkdirSync(bin);
  for (const [name, body] of Object.entries(bodies)) {
    const path = join(bin, name);
    writeFileSync(path, `#!/bin/bash\necho "${name} $*" >> "${log}"\n${body}\n`);
    chmodSync(path, 0o755);
  }
  return {
    dir,
    /** The calls so far, and forgets them. */
    calls(): string[] {
      if (!existsSync(log)) return [];
      const calls = readFileSync(log, 'utf8').split('\n').filter(Boolean);
      rmSync(log);
      return calls;
    },
    /** Runs a deploy/ script with bash, the fakes first on PATH. */
    run(script: string, args: readonly string[], env: Record<string, string> = {}) {
      const result = spawnSync('bash', [join(DEPLOY, script), ...args], {
        env: { PATH: `${bin}:/usr/local/bin:/usr/bin:/bin`, HOME: dir, ...env },
        encoding: 'utf8',
      });
      return { status: result.status, stdout: result.stdout, stderr: result.stderr };
    },
  };
}
