import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each suite has its own database copy, ports (port 0) and temp folders, and much of its time
    // is spent waiting on child processes, PostgreSQL and sockets: two files at a time on 2 cores.
    fileParallelism: true,
    maxWorkers: 2,
    // Each worker runs its files one after another in one process, importing the API's modules
    // once: a fifth of the suite's CPU went to a new process importing them again for every file.
    // The files share no state through modules (each builds its own app on its own database).
    isolate: false,
    // The CA the OAuth2 provider's certificate is signed by (Test connection's tests), and the
    // migrated database templates every suite copies.
    globalSetup: ['../../packages/mailbox/testing/global-setup.ts', '../../packages/db/testing/global-setup.ts'],
  },
});
