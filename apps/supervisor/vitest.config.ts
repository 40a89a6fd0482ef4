import { defineConfig } from 'vitest/config';

// Most tests here run a CLI or a server as a child process: seconds each on a loaded 2-core machine.
export default defineConfig({ test: { include: ['test/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 60_000 } });
