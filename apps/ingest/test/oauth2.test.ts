// Corporate mailboxes signed in to with OAuth2, end to end: a real Dovecot that accepts only
// tokens a real provider (oidc-provider) says are active, on PGlite and PostgreSQL. A
// client-credentials mailbox (Microsoft 365's app-only access) and a refresh-token one (Google
// Workspace's) both ingest; tokens short-lived enough to expire while watching are renewed with
// nothing missed; a revoked client's mailbox shows the provider's error in Mail Flow while the
// other keeps flowing; an outage of the provider is waited out and recovered from.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadIngestRules } from '@ejdesk/db';
import { backends, createTestApp, login, type TestApp } from '@ejdesk/api/test-helpers';
import { imapScope, startDovecot, startIdentityProvider, type Dovecot, type IdentityProvider } from '@ejdesk/mailbox/testing';
import { createLogger, ingestFromImap, watchImap, type ImapSettings, type RunOptions } from '../src/index.ts';
import { banks, compose, disputeLines, htmlTable, prepareRules } from './support/corpus.ts';

const caDir = process.env.EJDESK_TEST_CA_DIR!;
// Short enough to expire while watching; longer than Dovecot's own delay of sign-ins from an
// address with recent failures (up to 15 s, and the revoked mailbox fails from the same address).
const tokenSeconds = 20;

/** A dispute mail from Apex Bank whose one row names the ATM `APX<n>`. */
const dispute = (n: number) =>
  compose({
    from: `Disputes <disputes@${banks.apex.domain}>`,
    subject: `ATM dispute ${n} APX`,
    html: htmlTable(disputeLines('APX', n, 1)),
    messageId: `<oauth-${n}@apex>`,
  });

describe.each(backends)('OAuth2 mailboxes on %s', (backend) => {
  let idp: IdentityProvider;
  let dovecot: Dovecot;
  let t: TestApp;
  let options: RunOptions;
  let authorization: string;
  let appMailbox: ImapSettings;
  let delegatedMailbox: ImapSettings;
  const rotated: string[] = [];

  const get = async (url: string) => {
    const response = await t.app.inject({ method: 'GET', url, headers: { authorization } });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return response.json();
  };
  /** The ATM ids in the EJ table, as the screen lists them. */
  const atms = async (): Promise<string[]> =>
    (await get('/api/scrape/extract/email/data/pagination/?page_size=100')).results.map((r: { atm_id: string }) => r.atm_id).sort();
  const until = async <T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await check();
      if (value) return value;
      // The IMAP server's own account of the sign-ins, for whoever reads a failure.
      if (Date.now() > deadline)
        throw new Error(
          `timed out waiting for ${what}; Dovecot said:\n${readFileSync(`${dovecot.dir}/dovecot.log`, 'utf8').split('\n').slice(-40).join('\n')}`,
        );
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  const mailboxFlow = async (source: string) => (await get('/api/mail-flow/')).mailboxes.find((m: { source: string }) => m.source === source);
  const nameOf = (s: ImapSettings) => `imap://${encodeURIComponent(s.user)}@${s.host}:${s.port}/INBOX`;

  beforeAll(async () => {
    idp = await startIdentityProvider({ caDir, accessTokenSeconds: tokenSeconds });
    dovecot = await startDovecot({ oauth2: { introspectionUrl: idp.introspectionUrl, client: idp.introspector, caFile: `${caDir}/ca.pem` } });
    t = await createTestApp(backend, { stallAfterSeconds: 3600 });
    await prepareRules(t.database.db, t.secrets.bankPassKey);
    authorization = `JWT ${(await login(t.app)).access}`;
    // A rotated refresh token is kept, as the Mailboxes list keeps it: the old one is spent.
    const onRefreshTokenRotated = async (token: string) => {
      rotated.push(token);
      if (delegatedMailbox.auth.method === 'oauth2-refresh-token') delegatedMailbox.auth.refreshToken = token;
    };
    options = {
      db: t.database.db,
      loadRules: () => loadIngestRules(t.database.db, t.secrets.bankPassKey),
      log: createLogger('error'),
      lanes: 1,
      onRefreshTokenRotated,
    };
    await idp.addAppClient('ejdesk-m365', 'app-secret', 'disputes@bank.test');
    const refreshToken = await idp.addDelegatedClient('ejdesk-google', 'google-secret', 'shared@bank.test');
    const imap = { host: dovecot.host, port: dovecot.port, tls: false, mailbox: 'INBOX' };
    appMailbox = {
      ...imap,
      user: 'disputes@bank.test',
      auth: { method: 'oauth2-client-credentials', tokenUrl: idp.tokenUrl, clientId: 'ejdesk-m365', clientSecret: 'app-secret', scope: imapScope },
    };
    delegatedMailbox = {
      ...imap,
      user: 'shared@bank.test',
      auth: { method: 'oauth2-refresh-token', tokenUrl: idp.tokenUrl, clientId: 'ejdesk-google', clientSecret: 'google-secret', refreshToken },
    };
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await dovecot?.stop();
    await idp?.stop();
  });

  test('a client-credentials mailbox and a refresh-token mailbox both ingest', async () => {
    await dovecot.append([await dispute(1), await dispute(2)], 'INBOX', appMailbox.user);
    await dovecot.append([await dispute(3)], 'INBOX', delegatedMailbox.user);
    const app = await ingestFromImap(appMailbox, options);
    expect(app.hardFailures).toEqual([]);
    expect(app.processed).toBe(2);
    const delegated = await ingestFromImap(delegatedMailbox, options);
    expect(delegated.hardFailures).toEqual([]);
    expect(delegated.processed).toBe(1);
    expect(rotated).toHaveLength(1);
    expect(await atms()).toEqual(['APX00001', 'APX00002', 'APX00003']);
  });

  test('watching: tokens expire and are renewed, a revoked client shows its error while the other mailbox flows, a provider outage is recovered from', async () => {
    const controller = new AbortController();
    const watching = [
      watchImap(appMailbox, { ...options, pollMs: 500, signal: controller.signal }),
      watchImap(delegatedMailbox, { ...options, pollMs: 500, signal: controller.signal }),
    ];
    try {
      // Past a token's lifetime, with every session ended as Exchange ends an expired one: mail
      // appended now arrives only through sessions signed in with new tokens.
      const before = { app: idp.tokenRequests.get('ejdesk-m365') ?? 0, delegated: idp.tokenRequests.get('ejdesk-google') ?? 0 };
      await new Promise((r) => setTimeout(r, (tokenSeconds + 1) * 1000));
      await dovecot.kick(appMailbox.user);
      await dovecot.kick(delegatedMailbox.user);
      await dovecot.append([await dispute(4)], 'INBOX', appMailbox.user);
      await dovecot.append([await dispute(5)], 'INBOX', delegatedMailbox.user);
      await until('mail appended after the tokens expired', async () => (await atms()).includes('APX00005') && (await atms()).includes('APX00004'));
      expect(idp.tokenRequests.get('ejdesk-m365')).toBeGreaterThan(before.app);
      expect(idp.tokenRequests.get('ejdesk-google')).toBeGreaterThan(before.delegated);
      expect(rotated.length).toBeGreaterThan(1); // each refresh rotated the token, and it was kept

      // The app registration is deleted: once its token is gone, its mailbox says why, in the
      // provider's words, and the other mailbox still delivers.
      await idp.revokeClient('ejdesk-m365');
      await dovecot.kick(appMailbox.user);
      const failing = await until('the revoked client’s error in Mail Flow', async () => {
        const flow = await mailboxFlow(nameOf(appMailbox));
        return flow?.state === 'disconnected' && /^authentication failed: invalid_client/.test(flow.last_error ?? '') && flow;
      });
      expect(failing.last_error).not.toContain('app-secret');
      await dovecot.append([await dispute(6)], 'INBOX', delegatedMailbox.user);
      await until('mail in the other mailbox', async () => (await atms()).includes('APX00006'));
      expect(await mailboxFlow(nameOf(delegatedMailbox))).toMatchObject({ state: 'connected', last_error: null });

      // The provider goes away: the delegated mailbox says so and retries; back, nothing is lost.
      await idp.halt();
      await idp.revokeIssuedTokens().catch(() => undefined);
      await dovecot.kick(delegatedMailbox.user);
      await dovecot.append([await dispute(7)], 'INBOX', delegatedMailbox.user);
      await until('the outage in Mail Flow', async () => {
        const flow = await mailboxFlow(nameOf(delegatedMailbox));
        return flow?.state === 'disconnected' && /^authentication failed|Temporary authentication failure/.test(flow.last_error ?? '');
      });
      expect(await atms()).not.toContain('APX00007');
      await idp.resume();
      // Dovecot's own HTTP client waits a while before it asks a provider that refused it again.
      await until('mail appended during the outage', async () => (await atms()).includes('APX00007'), 120_000);
      expect(await mailboxFlow(nameOf(delegatedMailbox))).toMatchObject({ state: 'connected', last_error: null });
      expect(await atms()).toEqual(['APX00001', 'APX00002', 'APX00003', 'APX00004', 'APX00005', 'APX00006', 'APX00007']);
    } finally {
      controller.abort();
      await Promise.all(watching);
    }
  }, 300_000);
});
