import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // Node loads graphql's CommonJS build for every package (graphql 16 has no "exports" map); make the test
    // transform load the same copy, or schema objects built by Pothos fail graphql's instanceof checks.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // the service's clock is fixed per file (TEST_CLOCK, else the file's start): see test/setup-clock.ts
    setupFiles: ['test/setup-clock.ts'],
    // generous: a limit guards against a hang, never a measure of speed (the machine may be shared and slow)
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // expect.poll waits for what runs beside the test (a browser page, a dispatcher): 1 s by default, which a saved
    // form's answer outlasted on PostgreSQL under CI's load ("SMS settings saved." never seen); a poll that holds
    // returns at once, so only a failing one waits this long
    expect: { poll: { timeout: 30_000 } },
    // PGlite opens one in-memory database per test file; two cores, so keep it to two workers
    maxWorkers: 2,
    fileParallelism: true,
    // A worker reuses its loaded modules from one test file to the next instead of importing the app again for
    // each file (that import was a third of the run). Files share no state that matters: each opens its own
    // database and app with its own companies, and module-level settings are set again by each app.
    isolate: false,
  },
});
