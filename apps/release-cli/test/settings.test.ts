// The release CLI (`pnpm remote`) reads its settings once as it starts: a malformed value stops it
// with exit 1 and one line naming the variable, before anything is published or changed.
import { describe, expect, it } from 'vitest';
import { startProcess } from '@ejdesk/settings/testing';

describe('the release CLI started with a bad setting', () => {
  it.each([
    [
      'src/remote.ts',
      { EMAIL_REMOTE_URL: 'cdn.bank.example' },
      ['list'],
      'EMAIL_REMOTE_URL is "cdn.bank.example", which is not accepted; it accepts an http(s):// URL.',
    ],
  ])('%s with %j exits 1 naming it', async (script, env, args, line) => {
    const { code, stderr } = await startProcess(new URL('..', import.meta.url).pathname, script, env, args);
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(`EJ Desk: ${line}`);
  });
});
