import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The files two at a time (each has its own database copy, Dovecot and ports; most of their time
    // is spent waiting on IMAP, PostgreSQL and child processes), then the cluster test alone: it
    // times restarts and crashes of nginx, two API instances and two workers, and missed them with
    // other files beside it on 2 cores.
    maxWorkers: 2,
    // A worker runs its files one after another in one process, importing the modules once (a new
    // process per file imported them again: an eighth of the suite's CPU).
    isolate: false,
    projects: [
      { extends: true, test: { name: 'files', include: ['test/**/*.test.ts'], exclude: ['test/cluster.test.ts'], sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'cluster', include: ['test/cluster.test.ts'], sequence: { groupOrder: 1 } } },
    ],
    // The CA the OAuth2 provider's certificate is signed by, trusted by every worker, and the
    // migrated database templates every test app copies.
    globalSetup: ['../../packages/mailbox/testing/global-setup.ts', '../../packages/db/testing/global-setup.ts'],
  },
});
