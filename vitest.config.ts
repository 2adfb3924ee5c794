import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'bench/**/*.test.ts'],
    globalSetup: ['test/build.ts'],
    testTimeout: 120_000,
  },
});
