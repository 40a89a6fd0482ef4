// The supervisor (`pnpm start`, `pnpm dev`) reads its settings once as it starts: a malformed value
// stops it with exit 1 and one line naming the variable, before anything is built, started or changed.
import { describe, expect, it } from 'vitest';
import { startProcess } from '@ejdesk/settings/testing';

describe('the supervisor started with a bad setting', () => {
  it.each([
    ['src/start.ts', { SHELL_PORT: 'abc' }, [], 'SHELL_PORT is "abc", which is not accepted; it accepts a whole number from 1 to 65535.'],
    ['src/start.ts', { API_URL: 'localhost:8000' }, [], 'API_URL is "localhost:8000", which is not accepted; it accepts an http(s):// URL.'],
    ['src/dev.ts', { ADMIN_REMOTE_PORT: '0' }, [], 'ADMIN_REMOTE_PORT is "0", which is not accepted; it accepts a whole number from 1 to 65535.'],
  ])('%s with %j exits 1 naming it', async (script, env, args, line) => {
    const { code, stderr } = await startProcess(new URL('..', import.meta.url).pathname, script, env, args);
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(`EJ Desk: ${line}`);
  });
});
