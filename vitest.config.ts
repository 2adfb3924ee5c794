import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'bench/**/*.test.ts'],
    // First in, last out: its check sees what every other setup and every test left.
    globalSetup: ['test/no-leftovers.ts', 'test/build.ts'],
    testTimeout: 120_000,
  },
});
