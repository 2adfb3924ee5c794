import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Vitest global setup: the CLI tests run bin/croupier.js over dist/ and the display tests load the page
 * from dist/display, so both are built once, never stale; the page as in production (vitest sets
 * NODE_ENV to test, which would bundle Lit's development build).
 */
export default function build(): void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  execFileSync('npm', ['run', '--silent', 'build'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
}
