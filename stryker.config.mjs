import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MUTATE, RESULTS } from './scripts/mutation-scope.mjs';

const TEMP = '.stryker-tmp';
const REPORTS = 'reports/mutation';

mkdirSync(TEMP, { recursive: true });
// A run stopped midway leaves its sandbox behind: the next one removes it (one run at a time per checkout).
for (const name of readdirSync(TEMP)) {
  if (name.startsWith('sandbox-')) rmSync(join(TEMP, name), { recursive: true, force: true });
}
// The corpus and RULINGS.md tests read ../shared beside the checkout; from a sandbox
// (.stryker-tmp/sandbox-*) that is .stryker-tmp/shared, which points at the checkout's.
if (!existsSync(join(TEMP, 'shared'))) symlinkSync(resolve('../shared'), join(TEMP, 'shared'), 'dir');

/**
 * `npm run mutate`: mutation testing of the poker (README, "Mutation score"). A part of it:
 * `npm run mutate -- --mutate 'src/rules/**'`, whose results join the others' (`npm run mutate:score`).
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts', related: false },
  coverageAnalysis: 'perTest',
  mutate: MUTATE,
  // The machine is shared: one test runner at a time.
  concurrency: 1,
  tempDirName: TEMP,
  cleanTempDir: 'always',
  ignorePatterns: ['dist', 'docs', 'deploy', 'reports', 'test/e2e', 'test/integration'],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `${REPORTS}/index.html` },
  jsonReporter: { fileName: `${REPORTS}/mutation.json` },
  incremental: true,
  incrementalFile: RESULTS,
  thresholds: { high: 90, low: 80, break: null },
};
