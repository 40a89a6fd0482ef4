import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The global setup makes the CA the OAuth2 provider's certificate is signed by, trusted by every worker.
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    globalSetup: ['../../packages/mailbox/testing/global-setup.ts'],
  },
});
