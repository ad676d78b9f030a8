import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite opens one in-memory database per test file; two cores, so keep it to two workers
    maxWorkers: 2,
    fileParallelism: true,
  },
});
