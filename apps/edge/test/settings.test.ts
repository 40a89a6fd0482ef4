// The edge's servers (`pnpm edge`, a remote's static server) read their settings once as they
// start: a malformed value stops them with exit 1 and one line naming the variable, before they
// listen.
import { describe, expect, it } from 'vitest';
import { startProcess } from '@ejdesk/settings/testing';

describe('an edge server started with a bad setting', () => {
  it.each([
    ['src/edge.ts', { SHELL_PORT: 'abc' }, [], 'SHELL_PORT is "abc", which is not accepted; it accepts a whole number from 1 to 65535.'],
    ['src/edge.ts', { API_URL: 'localhost:8000' }, [], 'API_URL is "localhost:8000", which is not accepted; it accepts an http(s):// URL.'],
    [
      'src/remote-server.ts',
      { ADMIN_REMOTE_PORT: '0' },
      ['admin'],
      'ADMIN_REMOTE_PORT is "0", which is not accepted; it accepts a whole number from 1 to 65535.',
    ],
  ])('%s with %j exits 1 naming it', async (script, env, args, line) => {
    const { code, stderr } = await startProcess(new URL('..', import.meta.url).pathname, script, env, args);
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(`EJ Desk: ${line}`);
  });

  it('a remote server asked for no remote, or one that is none, says so and stops', async () => {
    const { code, stderr } = await startProcess(new URL('..', import.meta.url).pathname, 'src/remote-server.ts', {}, ['billing']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/'billing' is not a remote \(email, ej, files, admin\)/);
  });
});
