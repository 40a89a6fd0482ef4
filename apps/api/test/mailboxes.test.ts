// The Mailboxes admin list: admins add, change, disable and delete mailboxes, each change audited
// with what changed; secrets are written only (no answer, audit row or log carries them);
// operators get 403; bad input is a 400 naming the field. Test connection signs in to a real
// Dovecot, by password and by OAuth2 tokens from a real provider.
import { auditLog } from '@ejdesk/db';
import { imapScope, startDovecot, startIdentityProvider, type Dovecot, type IdentityProvider } from '@ejdesk/mailbox/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, backends, createTestApp, login, type TestApp } from './helpers.ts';

const caDir = process.env.EJDESK_TEST_CA_DIR!;

describe.each(backends)('the Mailboxes list on %s', (backend) => {
  let t: TestApp;
  let idp: IdentityProvider;
  let dovecot: Dovecot;
  let asAdmin: string;
  let asOperator: string;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, authorization = asAdmin) =>
    t.app.inject({ method, url, headers: { authorization }, ...(payload ? { payload } : {}) });
  const m365 = () => ({
    host: dovecot.host,
    port: dovecot.port,
    tls: false,
    username: 'disputes@bank.test',
    auth_method: 'oauth2-client-credentials',
    token_url: idp.tokenUrl,
    client_id: 'ejdesk-app',
    scope: imapScope,
    secret: 'app-secret-value',
  });

  beforeAll(async () => {
    idp = await startIdentityProvider({ caDir });
    dovecot = await startDovecot({ oauth2: { introspectionUrl: idp.introspectionUrl, client: idp.introspector, caFile: `${caDir}/ca.pem` } });
    await idp.addAppClient('ejdesk-app', 'app-secret-value', 'disputes@bank.test');
    await dovecot.append([Buffer.from('Subject: one\r\n\r\nx\r\n'), Buffer.from('Subject: two\r\n\r\ny\r\n')], 'INBOX', 'disputes@bank.test');
    t = await createTestApp(backend);
    asAdmin = `JWT ${(await login(t.app, admin)).access}`;
    asOperator = `JWT ${(await login(t.app)).access}`;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await dovecot?.stop();
    await idp?.stop();
  });

  it('an admin adds an OAuth2 mailbox; its secret is never answered, and Test connection signs in', async () => {
    const created = await call('POST', '/api/admin/mailboxes/', m365());
    expect(created.statusCode, created.body).toBe(201);
    expect(created.body).not.toContain('app-secret-value');
    const mailbox = created.json();
    expect(mailbox).toMatchObject({
      source: `imap://disputes%40bank.test@${dovecot.host}:${dovecot.port}/INBOX`,
      folder: 'INBOX',
      auth_method: 'oauth2-client-credentials',
      has_secret: true,
      has_refresh_token: false,
      enabled: true,
    });
    expect(mailbox).not.toHaveProperty('secret');
    const listed = await call('GET', '/api/admin/mailboxes/');
    expect(listed.json()).toEqual([mailbox]);
    expect(listed.body).not.toContain('app-secret-value');

    expect((await call('POST', `/api/admin/mailboxes/${mailbox.id}/test/`)).json()).toEqual({ connected: true, messages: 2 });
    // The form before saving: its own secret, or the stored one when it names the mailbox.
    expect((await call('POST', '/api/admin/mailboxes/test/', { ...m365(), secret: 'wrong' })).json()).toEqual({
      connected: false,
      detail: 'authentication failed: invalid_client (client authentication failed)',
    });
    const { secret: _left, ...withoutSecret } = m365();
    expect((await call('POST', '/api/admin/mailboxes/test/', { ...withoutSecret, id: mailbox.id })).json()).toEqual({ connected: true, messages: 2 });
    expect((await call('POST', '/api/admin/mailboxes/test/', { ...m365(), folder: 'Archive' })).json()).toMatchObject({
      connected: false,
      detail: expect.stringMatching(/^the folder "Archive" could not be opened/),
    });
  });

  it('a change keeps a secret left out, and the audit log says what changed but never the secret', async () => {
    const [mailbox] = (await call('GET', '/api/admin/mailboxes/')).json();
    const { secret: _left, ...withoutSecret } = m365();
    const changed = await call('PUT', `/api/admin/mailboxes/${mailbox.id}/`, { ...withoutSecret, folder: 'Disputes', enabled: false });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ folder: 'Disputes', enabled: false, has_secret: true });
    const replaced = await call('PUT', `/api/admin/mailboxes/${mailbox.id}/`, { ...m365(), secret: 'a-new-secret', folder: 'Disputes', enabled: true });
    expect(replaced.statusCode).toBe(200);
    const audit = (await t.database.db.select().from(auditLog)).filter((r) => r.entity === 'mailbox');
    expect(audit.map((r) => [r.action, r.detail])).toEqual([
      ['create', `disputes@bank.test at ${dovecot.host}:${dovecot.port}/INBOX (oauth2-client-credentials)`],
      ['change', `disputes@bank.test at ${dovecot.host}:${dovecot.port}/Disputes (oauth2-client-credentials): folder INBOX -> Disputes; enabled true -> false`],
      ['change', `disputes@bank.test at ${dovecot.host}:${dovecot.port}/Disputes (oauth2-client-credentials): enabled false -> true; client secret replaced`],
    ]);
    expect(JSON.stringify(audit)).not.toMatch(/app-secret-value|a-new-secret/);
    const deleted = await call('DELETE', `/api/admin/mailboxes/${mailbox.id}/`);
    expect(deleted.statusCode).toBe(204);
    expect((await call('DELETE', `/api/admin/mailboxes/${mailbox.id}/`)).statusCode).toBe(404);
    expect((await call('GET', '/api/admin/mailboxes/')).json()).toEqual([]);
  });

  it('a password mailbox tests against the IMAP server, and a duplicate is a 400', async () => {
    const body = { host: dovecot.host, port: dovecot.port, tls: false, username: dovecot.user, auth_method: 'password', secret: dovecot.password };
    expect((await call('POST', '/api/admin/mailboxes/test/', body)).json()).toEqual({ connected: true, messages: 0 });
    expect((await call('POST', '/api/admin/mailboxes/', body)).statusCode).toBe(201);
    const again = await call('POST', '/api/admin/mailboxes/', { ...body, username: dovecot.user.toUpperCase() });
    expect(again.statusCode).toBe(400);
    expect(again.json().detail).toMatch(/already on the list/);
  });

  it.each([
    [
      'no secret for a password mailbox',
      { host: 'imap.bank.example', port: 993, tls: true, username: 'u', auth_method: 'password' },
      /secret must be the mailbox’s password/,
    ],
    [
      'an http token endpoint',
      {
        ...{ host: 'h.example', port: 993, tls: true, username: 'u', client_id: 'c', scope: 's', secret: 'x' },
        auth_method: 'oauth2-client-credentials',
        token_url: 'http://idp.example/token',
      },
      /token_url must be the provider’s https:\/\/ token endpoint/,
    ],
    [
      'no scope with client credentials',
      {
        host: 'h.example',
        port: 993,
        tls: true,
        username: 'u',
        auth_method: 'oauth2-client-credentials',
        token_url: 'https://idp.example/token',
        client_id: 'c',
        secret: 'x',
      },
      /scope must be given/,
    ],
    [
      'no refresh token',
      { host: 'h.example', port: 993, tls: true, username: 'u', auth_method: 'oauth2-refresh-token', token_url: 'https://idp.example/token', client_id: 'c' },
      /refresh_token must be/,
    ],
    ['a host with a space', { host: 'a b', port: 993, tls: true, username: 'u', auth_method: 'password', secret: 'x' }, /host must be a host name/],
    ['an unknown method', { host: 'h.example', port: 993, tls: true, username: 'u', auth_method: 'kerberos', secret: 'x' }, /auth_method/],
    ['a port out of range', { host: 'h.example', port: 70000, tls: true, username: 'u', auth_method: 'password', secret: 'x' }, /port/],
  ])('%s is a 400 naming the field, and nothing is stored', async (_name, body, detail) => {
    const before = (await call('GET', '/api/admin/mailboxes/')).json().length;
    const response = await call('POST', '/api/admin/mailboxes/', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toMatch(detail);
    expect((await call('GET', '/api/admin/mailboxes/')).json()).toHaveLength(before);
  });

  it('operators get 403 on every Mailboxes route', async () => {
    for (const [method, url] of [
      ['GET', '/api/admin/mailboxes/'],
      ['POST', '/api/admin/mailboxes/'],
      ['POST', '/api/admin/mailboxes/test/'],
      ['PUT', '/api/admin/mailboxes/1/'],
      ['DELETE', '/api/admin/mailboxes/1/'],
      ['POST', '/api/admin/mailboxes/1/test/'],
    ] as const) {
      expect((await call(method, url, m365(), asOperator)).statusCode, `${method} ${url}`).toBe(403);
    }
  });
});
