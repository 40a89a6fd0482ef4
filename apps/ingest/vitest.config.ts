import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One file at a time: the cluster test (nginx, two API instances, two workers) times its
    // restarts and crashes, and missed them with other files beside it on 2 cores.
    fileParallelism: false,
    // The CA the OAuth2 provider's certificate is signed by, trusted by every worker, and the
    // migrated database templates every test app copies.
    globalSetup: ['../../packages/mailbox/testing/global-setup.ts', '../../packages/db/testing/global-setup.ts'],
  },
});
