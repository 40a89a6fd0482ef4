// `pnpm ingest` reads its settings once as it starts: a malformed or missing value stops it with
// exit 1 and one line naming the variable, before it opens a database or a mailbox.
import { describe, expect, it } from 'vitest';
import { startProcess } from '@ejdesk/settings/testing';
import { loadIngestConfig } from '../src/config.ts';

describe('the ingester started with a bad setting', () => {
  it.each([
    [{ INGEST_LANES: 'abc' }, ['--reprocess'], 'INGEST_LANES is "abc", which is not accepted; it accepts a whole number from 1 to 64.'],
    [{ INGEST_POLL_SECONDS: '0' }, ['--reprocess'], 'INGEST_POLL_SECONDS is "0", which is not accepted; it accepts a whole number from 1 to 86400.'],
    [
      { IMAP_HOST: 'mail.bank.example', IMAP_PORT: '99999' },
      ['--imap'],
      'IMAP_PORT is "99999", which is not accepted; it accepts a whole number from 1 to 65535.',
    ],
    [{ IMAP_HOST: 'mail.bank.example', IMAP_TLS: 'maybe' }, ['--imap'], 'IMAP_TLS is "maybe", which is not accepted; it accepts true or false.'],
    [{ IMAP_HOST: 'mail.bank.example' }, ['--imap'], 'IMAP_USER is not set; it is required with IMAP_HOST.'],
    [
      { IMAP_HOST: 'outlook.office365.com', IMAP_USER: 'disputes@bank.example', IMAP_AUTH: 'oauth' },
      ['--imap'],
      'IMAP_AUTH is "oauth", which is not accepted; it accepts one of: password, oauth2-client-credentials, oauth2-refresh-token.',
    ],
    [
      { IMAP_HOST: 'outlook.office365.com', IMAP_USER: 'disputes@bank.example', IMAP_AUTH: 'oauth2-client-credentials', IMAP_OAUTH_CLIENT_ID: 'id' },
      ['--imap'],
      'IMAP_OAUTH_TOKEN_URL is not set; it is required with IMAP_AUTH=oauth2-client-credentials.',
    ],
    [
      {
        IMAP_HOST: 'imap.gmail.com',
        IMAP_USER: 'disputes@bank.example',
        IMAP_AUTH: 'oauth2-refresh-token',
        IMAP_OAUTH_TOKEN_URL: 'http://oauth2.googleapis.com/token',
      },
      ['--imap'],
      'IMAP_OAUTH_TOKEN_URL is "http://oauth2.googleapis.com/token", which is not accepted; it accepts an https:// address.',
    ],
    [
      {
        IMAP_HOST: 'imap.gmail.com',
        IMAP_USER: 'disputes@bank.example',
        IMAP_AUTH: 'oauth2-refresh-token',
        IMAP_OAUTH_TOKEN_URL: 'https://oauth2.googleapis.com/token',
        IMAP_OAUTH_CLIENT_ID: 'id',
        IMAP_OAUTH_CLIENT_SECRET: 'a-client-secret',
      },
      ['--imap'],
      'IMAP_OAUTH_REFRESH_TOKEN is not set; it is required with IMAP_AUTH=oauth2-refresh-token.',
    ],
    [{ DATABASE_URL: 'postgres://127.0.0.1:1/x' }, ['--reprocess'], 'BANK_PASS_KEY is not set; it is required when DATABASE_URL is set.'],
  ])('%j exits 1 naming it', async (env, args, line) => {
    const { code, stderr } = await startProcess(new URL('..', import.meta.url).pathname, 'src/cli.ts', env, args);
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(`EJ Desk ingester: ${line}`);
  });

  it('reads the mailbox with its defaults: TLS on 993, INBOX, a 5-minute poll', () => {
    const config = loadIngestConfig({ IMAP_HOST: 'mail.bank.example', IMAP_USER: 'disputes@bank.example', IMAP_PASSWORD: 'pw' });
    expect(config.mailbox).toEqual({
      host: 'mail.bank.example',
      port: 993,
      user: 'disputes@bank.example',
      auth: { method: 'password', password: 'pw' },
      tls: true,
      mailbox: 'INBOX',
    });
    expect(config.pollMs).toBe(300_000);
    expect(loadIngestConfig({ IMAP_HOST: 'h', IMAP_USER: 'u', IMAP_TLS: 'false' }).mailbox?.port).toBe(143);
    expect(loadIngestConfig({}).mailbox).toBeNull();
  });

  it('reads a Microsoft 365 mailbox signed in to with client credentials', () => {
    const tokenUrl = 'https://login.microsoftonline.com/contoso.example/oauth2/v2.0/token';
    const config = loadIngestConfig({
      IMAP_HOST: 'outlook.office365.com',
      IMAP_USER: 'disputes@bank.example',
      IMAP_AUTH: 'oauth2-client-credentials',
      IMAP_OAUTH_TOKEN_URL: tokenUrl,
      IMAP_OAUTH_CLIENT_ID: '0b6f-client',
      IMAP_OAUTH_CLIENT_SECRET: 'the-secret',
      IMAP_OAUTH_SCOPE: 'https://outlook.office365.com/.default',
    });
    expect(config.mailbox?.auth).toEqual({
      method: 'oauth2-client-credentials',
      tokenUrl,
      clientId: '0b6f-client',
      clientSecret: 'the-secret',
      scope: 'https://outlook.office365.com/.default',
    });
  });
});
