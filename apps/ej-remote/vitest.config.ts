import { defineConfig } from 'vitest/config';

export default defineConfig({
  esbuild: { jsx: 'automatic' },
  // A screen test types and clicks through several requests: on a busy machine that takes more than 5 s.
  test: { include: ['test/**/*.test.{ts,tsx}'], environment: 'happy-dom', testTimeout: 20_000 },
});
