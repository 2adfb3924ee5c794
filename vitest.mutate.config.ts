import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import type { TestSpecification } from 'vitest/node';

/**
 * The tests `npm run mutate` (stryker.config.mjs) runs against each mutant of src/table, src/rules and
 * src/domain: the unit tests of those folders and of the scenario reader, then the scenario corpus.
 * Nothing that starts a process, a broker, a PTY or a browser, and no build.
 */
const GROUPS = [
  'test/unit/',
  'test/corpus.test.ts',
  'test/rulings-tables.test.ts',
  'test/facts-at-read.test.ts',
];

/** Files in the order of GROUPS (Stryker stops a mutant at its first failing test), else by path. */
class GroupOrder {
  async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    return files;
  }

  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const key = (spec: TestSpecification) => relative(spec.project.config.root, spec.moduleId);
    const group = (spec: TestSpecification) => GROUPS.findIndex((prefix) => key(spec).startsWith(prefix));
    return [...files].sort((a, b) => group(a) - group(b) || key(a).localeCompare(key(b)));
  }
}

export default defineConfig({
  test: {
    include: [
      'test/unit/{table,rules,domain,scenario}/**/*.test.ts',
      'test/corpus.test.ts',
      'test/rulings-tables.test.ts',
      'test/facts-at-read.test.ts',
    ],
    sequence: { sequencer: GroupOrder },
    setupFiles: ['test/mutate-setup.ts'],
    testTimeout: 120_000,
  },
});
