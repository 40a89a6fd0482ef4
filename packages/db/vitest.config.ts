import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The global setup makes the migrated database templates the suites copy (testing/template.ts).
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    globalSetup: ['testing/global-setup.ts'],
    // A worker runs its files one after another in one process, importing the modules once (a new
    // process per file imported them again: a quarter of the suite's CPU).
    isolate: false,
  },
});
