// The ingester as its tests run it: signed in to the test Dovecot with its password, in this
// process or as a child process on a test app's database, and a wait for what it does.
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import type { TestApp } from '@ejdesk/api/test-helpers';
import type { ImapSettings } from '@ejdesk/mailbox';
import type { Dovecot } from '@ejdesk/mailbox/testing';

const cwd = new URL('../..', import.meta.url).pathname;

/** The test Dovecot's mailbox, signed in to with its password, without TLS. */
export const passwordMailbox = (dovecot: Dovecot, password = dovecot.password): ImapSettings => ({
  host: dovecot.host,
  port: dovecot.port,
  user: dovecot.user,
  auth: { method: 'password', password },
  tls: false,
  mailbox: 'INBOX',
});

/** `pnpm ingest ARGS` as a process of its own on the test app's database (and the Dovecot mailbox in IMAP_*, when given). */
export function spawnIngester(
  args: string[],
  t: TestApp,
  options: { dovecot?: Dovecot; password?: string; env?: Record<string, string>; stdio?: StdioOptions } = {},
): ChildProcess {
  const { dovecot } = options;
  return spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd,
    stdio: options.stdio ?? 'ignore',
    env: {
      ...process.env,
      DATABASE_URL: t.config.databaseUrl,
      BANK_PASS_KEY: t.secrets.bankPassKey.toString('hex'),
      ...(dovecot && {
        IMAP_HOST: dovecot.host,
        IMAP_PORT: String(dovecot.port),
        IMAP_USER: dovecot.user,
        IMAP_PASSWORD: options.password ?? dovecot.password,
        IMAP_TLS: 'false',
      }),
      ...options.env,
    },
  });
}

/** What `check` gives once it gives something, asked every 100 ms; past the time, an error naming `what`. */
export async function until<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
