// The Mailboxes admin list: admins add, change, disable and delete mailboxes, each change audited
// with what changed; secrets are written only (no answer, audit row or log carries them);
// operators get 403; bad input is a 400 naming the field. Test connection signs in to a real
// Dovecot, by password and by OAuth2 tokens from a real provider. A stored secret goes only where
// it was saved (servers of the test's own record what reaches them); private, loopback and
// link-local targets are refused unless MAILBOX_ALLOWED_NETWORKS allows them (these tests allow
// 127.0.0.0/8 for Dovecot and the provider); an open port, a closed one and a wrong protocol are
// answered alike; every test is audited and at most 10 a minute per admin.
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { auditLog, createUser } from '@ejdesk/db';
import { imapScope, startDovecot, startIdentityProvider, type Dovecot, type IdentityProvider } from '@ejdesk/mailbox/testing';
import { serverCertificate } from '@ejdesk/mailbox/testing/tls';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { hashPassword } from '../src/lib/passwords.ts';
import { admin, backends, createTestApp, login, type TestApp } from './helpers.ts';

const caDir = process.env.EJDESK_TEST_CA_DIR!;

/** What a server of the test's own saw: its connections and every byte sent to it. */
interface Recorder {
  port: number;
  connections: number;
  received: string;
  close(): Promise<void>;
}

async function listening(server: Server, rec: { connections: number; received: string } = { connections: 0, received: '' }): Promise<Recorder> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    rec.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket)).on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(rec, {
    port: (server.address() as { port: number }).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  });
}

/** An IMAP server on loopback that offers AUTHENTICATE PLAIN, refuses every sign-in and records what it was sent. */
async function imapRecorder(): Promise<Recorder> {
  const rec = { connections: 0, received: '' };
  const server = createTcpServer((socket) => {
    socket.write('* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] ready\r\n');
    let buffer = '';
    let authenticating: string | null = null;
    socket.on('data', (data: Buffer) => {
      rec.received += data.toString('latin1');
      buffer += data.toString('latin1');
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const refuse = (tag: string) => socket.write(`${tag} NO [AUTHENTICATIONFAILED] Authentication failed.\r\n`);
        if (authenticating) {
          refuse(authenticating);
          authenticating = null;
          continue;
        }
        const [tag = '*', command = '', ...args] = line.split(' ');
        if (/^capability$/i.test(command)) socket.write(`* CAPABILITY IMAP4rev1 AUTH=PLAIN\r\n${tag} OK done\r\n`);
        else if (/^authenticate$/i.test(command) && args.length === 1) {
          authenticating = tag;
          socket.write('+ \r\n');
        } else if (/^(authenticate|login)$/i.test(command)) refuse(tag);
        else if (/^logout$/i.test(command)) socket.end(`* BYE\r\n${tag} OK bye\r\n`);
        else socket.write(`${tag} BAD unknown command\r\n`);
      }
    });
  });
  return listening(server, rec);
}

/** An OAuth2 token endpoint on loopback (https, the tests' CA) that refuses every client and records what it was sent. */
async function tokenEndpointRecorder(): Promise<Recorder> {
  const rec = { connections: 0, received: '' };
  const { key, cert } = serverCertificate(caDir);
  const server = createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (request, response) => {
    request.on('data', (data: Buffer) => (rec.received += data.toString('latin1')));
    request.on('end', () => response.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid_client"}'));
  });
  return listening(server as unknown as Server, rec);
}

/** Whether `secret` is in what a recorder received, as it is or in base64 (SASL PLAIN) or form encoding. */
const sawSecret = (received: string, secret: string) =>
  received.includes(secret) ||
  received.includes(encodeURIComponent(secret)) ||
  received.split(/\s+/).some((word) => Buffer.from(word, 'base64').toString('latin1').includes(secret));

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Another admin of `t` (each admin has their own limit of tests a minute), signed in. */
async function anotherAdmin(t: TestApp): Promise<{ id: number; authorization: string }> {
  const email = `admin-${Math.random().toString(36).slice(2)}@example.com`;
  const user = await createUser(t.database.db, email, await hashPassword('another admin password'), 'admin');
  return { id: user!.id, authorization: `JWT ${(await login(t.app, { email, password: 'another admin password' })).access}` };
}

describe.each(backends)('the Mailboxes list on %s', (backend) => {
  let t: TestApp;
  let idp: IdentityProvider;
  let dovecot: Dovecot;
  let asAdmin: string;
  let asOperator: string;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, authorization = asAdmin) =>
    t.app.inject({ method, url, headers: { authorization }, ...(payload ? { payload } : {}) });
  const passwordBox = () => ({ host: dovecot.host, port: dovecot.port, tls: false, username: dovecot.user, auth_method: 'password' });
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
    // Dovecot and the provider listen on loopback: allowed here as an operations team would.
    t = await createTestApp(backend, { mailboxAllowedNetworks: ['127.0.0.0/8'] });
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
    const audit = (await t.database.db.select().from(auditLog)).filter((r) => r.entity === 'mailbox' && !r.action.startsWith('test'));
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

  it('a stored password is sent only to its own server: another host, port or TLS setting needs it typed again', async () => {
    const recorder = await imapRecorder();
    const { authorization } = await anotherAdmin(t);
    try {
      const [stored] = (await call('GET', '/api/admin/mailboxes/')).json().filter((m: { username: string }) => m.username === dovecot.user);
      const elsewhere = [
        { host: '127.0.0.1', port: recorder.port },
        { host: 'localhost', port: dovecot.port },
        { host: dovecot.host, port: dovecot.port, tls: true },
      ];
      for (const target of elsewhere) {
        const response = await call('POST', '/api/admin/mailboxes/test/', { ...passwordBox(), ...target, id: stored.id }, authorization);
        expect(response.statusCode, JSON.stringify(target)).toBe(400);
        expect(response.json().detail).toMatch(/^The stored password is sent only where it was saved, and this goes elsewhere \(.+\): type the password again/);
      }
      expect(recorder.connections).toBe(0);
      expect(sawSecret(recorder.received, dovecot.password)).toBe(false);
      // Its own server still takes it; typed again, a password goes where the form says.
      expect((await call('POST', '/api/admin/mailboxes/test/', { ...passwordBox(), id: stored.id }, authorization)).json()).toEqual({
        connected: true,
        messages: 0,
      });
      const typed = await call(
        'POST',
        '/api/admin/mailboxes/test/',
        { ...passwordBox(), port: recorder.port, secret: 'typed-again', id: stored.id },
        authorization,
      );
      expect(typed.json()).toEqual({
        connected: false,
        detail: expect.stringMatching(/^authentication failed: the IMAP server refused the user name or password/),
      });
      expect(sawSecret(recorder.received, 'typed-again')).toBe(true);
      expect(sawSecret(recorder.received, dovecot.password)).toBe(false);

      // A change that moves it elsewhere is refused alike (the ingester would send it there).
      const moved = await call('PUT', `/api/admin/mailboxes/${stored.id}/`, { ...passwordBox(), port: recorder.port }, authorization);
      expect(moved.statusCode).toBe(400);
      expect(moved.json().detail).toMatch(/type the password again/);
      expect((await call('GET', '/api/admin/mailboxes/')).json()).toContainEqual(expect.objectContaining({ id: stored.id, port: dovecot.port }));
    } finally {
      await recorder.close();
    }
  });

  it('a stored client secret goes only to its own token endpoint and client id', async () => {
    const recorder = await tokenEndpointRecorder();
    const { authorization } = await anotherAdmin(t);
    try {
      const created = await call('POST', '/api/admin/mailboxes/', { ...m365(), folder: 'Stored' });
      expect(created.statusCode, created.body).toBe(201);
      const { secret: _left, ...withoutSecret } = { ...m365(), folder: 'Stored' };
      for (const change of [{ token_url: `https://127.0.0.1:${recorder.port}/token` }, { client_id: 'another-app' }]) {
        const response = await call('POST', '/api/admin/mailboxes/test/', { ...withoutSecret, ...change, id: created.json().id }, authorization);
        expect(response.statusCode, JSON.stringify(change)).toBe(400);
        expect(response.json().detail).toMatch(/^The stored client secret is sent only where it was saved, .*: type the client secret again/);
      }
      expect(recorder.connections).toBe(0);
      // Another way of signing in never takes the stored secret along.
      const otherMethod = await call(
        'POST',
        '/api/admin/mailboxes/test/',
        {
          ...withoutSecret,
          auth_method: 'oauth2-refresh-token',
          token_url: `https://127.0.0.1:${recorder.port}/token`,
          refresh_token: 'a-refresh-token',
          id: created.json().id,
        },
        authorization,
      );
      expect(otherMethod.json()).toEqual({ connected: false, detail: 'authentication failed: invalid_client' });
      expect(sawSecret(recorder.received, 'a-refresh-token')).toBe(true);
      expect(sawSecret(recorder.received, 'app-secret-value')).toBe(false);
      // Typed again, the form's secret goes to the form's endpoint.
      const typed = await call(
        'POST',
        '/api/admin/mailboxes/test/',
        { ...withoutSecret, token_url: `https://127.0.0.1:${recorder.port}/token`, secret: 'typed-client-secret', id: created.json().id },
        authorization,
      );
      expect(typed.json()).toEqual({ connected: false, detail: 'authentication failed: invalid_client' });
      expect(sawSecret(recorder.received, 'typed-client-secret')).toBe(true);
      expect(sawSecret(recorder.received, 'app-secret-value')).toBe(false);
    } finally {
      await recorder.close();
    }
  });

  it('an open port, a closed one and one that speaks another protocol are answered alike, in words and in time', async () => {
    const silent = await listening(createTcpServer());
    const talker = await listening(createTcpServer((socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n')));
    const { authorization } = await anotherAdmin(t);
    try {
      const ports = [silent.port, talker.port, await closedPort()];
      const answers = await Promise.all(
        ports.map(async (port) => {
          const began = Date.now();
          const response = await call('POST', '/api/admin/mailboxes/test/', { ...passwordBox(), port, secret: 'x' }, authorization);
          return { port, ms: Date.now() - began, status: response.statusCode, body: response.json() };
        }),
      );
      for (const { port, status, body } of answers) {
        expect(status).toBe(200);
        expect(body).toEqual({ connected: false, detail: `Could not sign in to the mailbox at 127.0.0.1:${port}.` });
      }
      const times = answers.map((a) => a.ms);
      expect(Math.min(...times), times.join(', ')).toBeGreaterThanOrEqual(4_900);
      expect(Math.max(...times) - Math.min(...times), times.join(', ')).toBeLessThan(1_000);
    } finally {
      await silent.close();
      await talker.close();
    }
  });

  it('every test is audited as it begins and with its outcome, and never with a secret', async () => {
    const { id, authorization } = await anotherAdmin(t);
    const [stored] = (await call('GET', '/api/admin/mailboxes/')).json().filter((m: { username: string }) => m.username === dovecot.user);
    await call('POST', '/api/admin/mailboxes/test/', { ...passwordBox(), secret: dovecot.password }, authorization);
    await call('POST', '/api/admin/mailboxes/test/', { ...passwordBox(), port: 1, id: stored.id }, authorization);
    await call('POST', `/api/admin/mailboxes/${stored.id}/test/`, undefined, authorization);
    await call('POST', '/api/admin/mailboxes/test/', { ...passwordBox(), secret: 'wrong-password' }, authorization);
    const rows = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.userId, id), eq(auditLog.entity, 'mailbox')))
      .orderBy(auditLog.id);
    const where = `${dovecot.user} at 127.0.0.1:${dovecot.port}/INBOX (password)`;
    expect(rows.map((r) => [r.action, r.entity, r.entityId, r.detail])).toEqual([
      ['test', 'mailbox', null, `Test connection of ${where}, secret typed`],
      ['test_result', 'mailbox', null, 'connected, 0 messages'],
      ['test', 'mailbox', String(stored.id), `Test connection of ${dovecot.user} at 127.0.0.1:1/INBOX (password) for mailbox ${stored.id}, stored secrets`],
      [
        'test_result',
        'mailbox',
        String(stored.id),
        expect.stringMatching(/^refused: The stored password is sent only where it was saved, and this goes elsewhere \(port \d+ -> 1\)/),
      ],
      ['test', 'mailbox', String(stored.id), `Test connection of ${where}, stored secrets`],
      ['test_result', 'mailbox', String(stored.id), 'connected, 0 messages'],
      ['test', 'mailbox', null, `Test connection of ${where}, secret typed`],
      ['test_result', 'mailbox', null, expect.stringMatching(/^not connected: authentication failed: the IMAP server refused the user name or password/)],
    ]);
    expect(JSON.stringify(rows)).not.toMatch(new RegExp(`${dovecot.password}|wrong-password`));
  });

  it('an admin starts at most 10 tests a minute, even all at once; then 429 with Retry-After, and other admins are not held up', async () => {
    const { authorization } = await anotherAdmin(t);
    const [stored] = (await call('GET', '/api/admin/mailboxes/')).json().filter((m: { username: string }) => m.username === dovecot.user);
    // Bodies refused once begun (no refresh token), and tests of a stored mailbox: both count.
    const answers = await Promise.all([
      ...Array.from({ length: 12 }, () => call('POST', '/api/admin/mailboxes/test/', { ...m365(), auth_method: 'oauth2-refresh-token' }, authorization)),
      call('POST', `/api/admin/mailboxes/${stored.id}/test/`, undefined, authorization),
      call('POST', `/api/admin/mailboxes/${stored.id}/test/`, undefined, authorization),
    ]);
    const limited = answers.filter((a) => a.statusCode === 429);
    expect(answers.map((a) => a.statusCode).filter((status) => status !== 429)).toHaveLength(10);
    expect(limited).toHaveLength(4);
    for (const answer of limited) {
      expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(answer.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(answer.json().detail).toMatch(/^Too many connection tests: an admin may start 10 a minute\. Try again in \d+ seconds?\.$/);
    }
    const other = await anotherAdmin(t);
    expect((await call('POST', `/api/admin/mailboxes/${stored.id}/test/`, undefined, other.authorization)).json()).toEqual({ connected: true, messages: 0 });
  });

  it.each([
    ['no body', 400, undefined, /body/],
    ['a port of 0', 400, { port: 0 }, /port/],
    ['a field it does not know', 400, { server: 'x' }, /server|additional/i],
    ['a host with a space', 400, { host: 'a b' }, /host must be a host name/],
    ['an id of 0', 400, { id: 0 }, /id/],
    [
      'a token endpoint that is not a URL',
      400,
      { auth_method: 'oauth2-client-credentials', token_url: 'https://[zz]/token', client_id: 'c', scope: 's' },
      /token_url/,
    ],
    ['a mailbox that is not there', 404, { id: 999_999 }, /Not found/],
  ])('Test connection with %s is a %i naming it', async (_name, status, change, detail) => {
    const { authorization } = await anotherAdmin(t);
    const response = await call('POST', '/api/admin/mailboxes/test/', change && { ...passwordBox(), secret: 'x', ...change }, authorization);
    expect(response.statusCode, response.body).toBe(status);
    expect(response.json().detail).toMatch(detail);
  });
});

describe.each(backends)('Test connection and saving without MAILBOX_ALLOWED_NETWORKS on %s', (backend) => {
  let t: TestApp;
  let recorder: Recorder;
  const call = async (method: 'POST', url: string, payload: object) =>
    t.app.inject({ method, url, headers: { authorization: (await anotherAdmin(t)).authorization }, payload });
  const box = (host: string) => ({ host, port: recorder.port, tls: false, username: 'someone', auth_method: 'password', secret: 'the-password' });

  beforeAll(async () => {
    recorder = await imapRecorder();
    t = await createTestApp(backend);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await recorder?.close();
  });

  it.each([
    ['loopback', '127.0.0.1', /^host: 127\.0\.0\.1 is not on the public internet/],
    ['a name that resolves to loopback', 'localhost', /^host: localhost \((127\.0\.0\.1|::1)\) is not on the public internet/],
    ['IPv6 loopback', '[::1]', /is not on the public internet/],
    ['IPv4-mapped IPv6 loopback', '[::ffff:127.0.0.1]', /is not on the public internet/],
    ['the cloud metadata address (link-local)', '169.254.169.254', /is not on the public internet/],
    ['a private network', '10.20.30.40', /is not on the public internet/],
    ['the unspecified address', '0.0.0.0', /is not on the public internet/],
    ['IPv6 link-local', '[fe80::1]', /is not on the public internet/],
    ['IPv6 unique-local', '[fd12:3456::1]', /is not on the public internet/],
  ])('%s is refused for Test connection and for saving, and nothing is sent', async (_name, host, detail) => {
    const tested = await call('POST', '/api/admin/mailboxes/test/', box(host));
    expect(tested.statusCode, tested.body).toBe(400);
    expect(tested.json().detail).toMatch(detail);
    expect(tested.json().detail).toMatch(/MAILBOX_ALLOWED_NETWORKS/);
    const saved = await call('POST', '/api/admin/mailboxes/', box(host));
    expect(saved.statusCode, saved.body).toBe(400);
    expect(saved.json().detail).toMatch(detail);
    expect(recorder.connections).toBe(0);
  });

  it('an OAuth2 token endpoint on loopback is refused, and the public mailbox server is not tried', async () => {
    // A public mailbox server (never reached: the token endpoint is checked before anything is sent).
    const oauth = {
      ...box('8.8.8.8'),
      auth_method: 'oauth2-client-credentials',
      client_id: 'c',
      scope: 's',
      token_url: `https://localhost:${recorder.port}/token`,
    };
    for (const url of ['/api/admin/mailboxes/test/', '/api/admin/mailboxes/']) {
      const response = await call('POST', url, oauth);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().detail).toMatch(/^token_url: localhost \((127\.0\.0\.1|::1)\) is not on the public internet/);
    }
    expect(recorder.connections).toBe(0);
  });
});

describe('MAILBOX_ALLOWED_NETWORKS', () => {
  it('is read at start: ranges in a normal spelling, and one it cannot read stops the API naming it', () => {
    expect(loadConfig({}).mailboxAllowedNetworks).toEqual([]);
    expect(loadConfig({ MAILBOX_ALLOWED_NETWORKS: '127.0.0.0/8, 10.20.0.0/16,fd00::/8' }).mailboxAllowedNetworks).toEqual([
      '127.0.0.0/8',
      '10.20.0.0/16',
      'fd00::/8',
    ]);
    expect(() => loadConfig({ MAILBOX_ALLOWED_NETWORKS: '10.20.0.0/33' })).toThrow(
      'MAILBOX_ALLOWED_NETWORKS is not accepted: "10.20.0.0/33" is not an address range such as 10.20.0.0/16 or fd00::/8.',
    );
    expect(() => loadConfig({ MAILBOX_ALLOWED_NETWORKS: 'intranet' })).toThrow(/^MAILBOX_ALLOWED_NETWORKS is "intranet", which is not accepted/);
  });
});
