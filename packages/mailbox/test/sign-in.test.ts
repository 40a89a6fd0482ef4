// Signing in to a real Dovecot whose only check of an OAuth2 token is introspection at a real
// provider (oidc-provider), with client credentials and with a refresh token; and each way it
// can be refused, in the words an operator reads.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MailboxSignIn, testConnection, type ImapSettings, type MailboxAuth } from '../src/index.ts';
import { imapScope, startDovecot, startIdentityProvider, type Dovecot, type IdentityProvider } from '../testing/index.ts';

const caDir = process.env.EJDESK_TEST_CA_DIR!;
const message = (n: number) =>
  Buffer.from(`From: bank@example.test\r\nTo: desk@example.test\r\nSubject: Dispute ${n}\r\nMessage-ID: <${n}@example.test>\r\n\r\nATM 1\r\n`);

describe('signing in to IMAP with OAuth2', () => {
  let idp: IdentityProvider;
  let dovecot: Dovecot;
  const at = (user: string, auth: MailboxAuth): ImapSettings => ({ host: dovecot.host, port: dovecot.port, tls: false, user, mailbox: 'INBOX', auth });
  const app = (secret = 'app-secret'): MailboxAuth => ({
    method: 'oauth2-client-credentials',
    tokenUrl: idp.tokenUrl,
    clientId: 'ejdesk-app',
    clientSecret: secret,
    scope: imapScope,
  });

  beforeAll(async () => {
    idp = await startIdentityProvider({ caDir });
    dovecot = await startDovecot({ oauth2: { introspectionUrl: idp.introspectionUrl, client: idp.introspector, caFile: `${caDir}/ca.pem` } });
    await idp.addAppClient('ejdesk-app', 'app-secret', 'disputes@bank.test');
    await dovecot.append([message(1), message(2)], 'INBOX', 'disputes@bank.test');
  });
  afterAll(async () => {
    await dovecot?.stop();
    await idp?.stop();
  });

  test('client credentials: Test connection signs in and counts the folder', async () => {
    expect(await testConnection(at('disputes@bank.test', app()))).toEqual({ messages: 2 });
  });

  test('a refresh token signs in, and the token the provider rotates is kept for next time', async () => {
    const refreshToken = await idp.addDelegatedClient('ejdesk-delegated', 'delegated-secret', 'shared@bank.test');
    await dovecot.append([message(3)], 'INBOX', 'shared@bank.test');
    const rotated: string[] = [];
    const auth: MailboxAuth = {
      method: 'oauth2-refresh-token',
      tokenUrl: idp.tokenUrl,
      clientId: 'ejdesk-delegated',
      clientSecret: 'delegated-secret',
      refreshToken,
    };
    const signIn = new MailboxSignIn(at('shared@bank.test', auth), { onRefreshTokenRotated: async (token) => void rotated.push(token) });
    const { client } = await signIn.connect();
    expect((await client.mailboxOpen('INBOX')).exists).toBe(1);
    await client.logout();
    expect(rotated).toHaveLength(1);
    expect(rotated[0]).not.toBe(refreshToken);
    // The kept token works; the old one was consumed by the rotation (and replaying it makes the
    // provider revoke the whole grant, as reuse detection should).
    expect(await testConnection(at('shared@bank.test', { ...auth, refreshToken: rotated[0]! }))).toEqual({ messages: 1 });
    await expect(testConnection(at('shared@bank.test', auth))).rejects.toThrow(/^authentication failed: invalid_grant/);
  });

  test('a token is reused until near its expiry, and renewed once when the server refuses it', async () => {
    const before = idp.tokenRequests.get('ejdesk-app') ?? 0;
    const signIn = new MailboxSignIn(at('disputes@bank.test', app()));
    for (let i = 0; i < 3; i++) await (await signIn.connect()).client.logout();
    expect(idp.tokenRequests.get('ejdesk-app')).toBe(before + 1);
    await idp.revokeIssuedTokens();
    const { client } = await signIn.connect();
    expect(client.authenticated).toBeTruthy();
    await client.logout();
    expect(idp.tokenRequests.get('ejdesk-app')).toBe(before + 2);
  });

  test('a server that offers only XOAUTH2 (not OAUTHBEARER) takes the token too', async () => {
    const xoauth2Only = await startDovecot({
      oauth2: { introspectionUrl: idp.introspectionUrl, client: idp.introspector, caFile: `${caDir}/ca.pem`, mechanisms: ['xoauth2'] },
    });
    try {
      await xoauth2Only.append([message(9)], 'INBOX', 'disputes@bank.test');
      expect(await testConnection({ ...at('disputes@bank.test', app()), port: xoauth2Only.port })).toEqual({ messages: 1 });
      expect(readFileSync(`${xoauth2Only.dir}/dovecot.log`, 'utf8')).toMatch(/Login: user=<disputes@bank\.test>, method=XOAUTH2/);
      expect(readFileSync(`${dovecot.dir}/dovecot.log`, 'utf8')).toMatch(/Login: user=<disputes@bank\.test>, method=OAUTHBEARER/);
    } finally {
      await xoauth2Only.stop();
    }
  });

  test('a wrong client secret is the provider’s error, in words', async () => {
    await expect(testConnection(at('disputes@bank.test', app('not-the-secret')))).rejects.toThrow(
      /^authentication failed: invalid_client \(client authentication failed\)$/,
    );
  });

  test('a token for another mailbox is refused by the IMAP server', async () => {
    await expect(testConnection(at('someone-else@bank.test', app()))).rejects.toThrow(/^authentication failed: the IMAP server refused the access token/);
  });

  test('a revoked client cannot sign in', async () => {
    await idp.addAppClient('ejdesk-gone', 'gone-secret', 'disputes@bank.test');
    const gone: MailboxAuth = {
      method: 'oauth2-client-credentials',
      tokenUrl: idp.tokenUrl,
      clientId: 'ejdesk-gone',
      clientSecret: 'gone-secret',
      scope: imapScope,
    };
    expect(await testConnection(at('disputes@bank.test', gone))).toEqual({ messages: 2 });
    await idp.revokeClient('ejdesk-gone');
    await expect(testConnection(at('disputes@bank.test', gone))).rejects.toThrow(/^authentication failed: invalid_client/);
  });

  test('an unreachable provider, an unknown folder and a wrong password say so', async () => {
    await idp.halt();
    try {
      await expect(testConnection(at('disputes@bank.test', app()))).rejects.toThrow(
        // Refused; or closed, when the request went out on a connection kept from before the outage.
        new RegExp(
          `^authentication failed: the token endpoint ${idp.tokenUrl} could not be reached \\((connection refused, ECONNREFUSED|the connection was closed, \\w+)\\)$`,
        ),
      );
    } finally {
      await idp.resume();
    }
    await expect(testConnection({ ...at('disputes@bank.test', app()), mailbox: 'Nowhere' })).rejects.toThrow(/^the folder "Nowhere" could not be opened/);
    await expect(testConnection(at(dovecot.user, { method: 'password', password: 'wrong' }))).rejects.toThrow(
      /^authentication failed: the IMAP server refused the user name or password/,
    );
    expect(await testConnection(at(dovecot.user, { method: 'password', password: dovecot.password }))).toEqual({ messages: 0 });
  });
});
