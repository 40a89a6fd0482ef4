// EJ Desk behind Debian's nginx with deploy/nginx/ejdesk.conf itself (only its addresses changed):
// two API processes on one PostgreSQL, requests balanced over both; one killed outright while 16
// connections read: not one read fails (nginx passes a GET the dead one did not answer to the
// other), and logins (POSTs, never resent once sent) keep working after it; the event stream
// comes through unbuffered; metrics and backups are not on the public port; no header is doubled;
// the registry's writes are not on it either, however the path is escaped.
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createUser, openDatabase } from '@ejdesk/db';
import { hashPassword } from '../src/lib/passwords.ts';
import { operator, testDatabaseUrl, throwawayDatabase } from './helpers.ts';
import { freePort } from '@ejdesk/http/testing';
import { nginxInstalled, startNginx, type Nginx } from './support/nginx.ts';

const cwd = new URL('..', import.meta.url).pathname;

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000, alive = () => true): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (!alive()) throw new Error(`${what} ended before it answered`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.runIf(testDatabaseUrl && nginxInstalled)('two API instances behind nginx (deploy/nginx/ejdesk.conf)', () => {
  let scratch: Awaited<ReturnType<typeof throwawayDatabase>>;
  const apis: { port: number; child: ChildProcess }[] = [];
  let proxy: Nginx;
  let base: string;
  const env = { JWT_SECRET: randomBytes(32).toString('hex'), BANK_PASS_KEY: randomBytes(32).toString('hex') };

  const startApi = (port: number) =>
    spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd,
      stdio: 'ignore',
      env: {
        ...process.env,
        ...env,
        DATABASE_URL: scratch.url,
        API_PORT: String(port),
        TRUST_PROXY: '127.0.0.1',
        LOG_LEVEL: 'error',
        EJDESK_HOSTED_WORKER: '',
      },
    });
  /** An instance's own count of the requests it answered (its metrics, on its own port). */
  const answered = async (port: number) => {
    const text = await (await fetch(`http://127.0.0.1:${port}/api/metrics`)).text();
    return [...text.matchAll(/^http_requests_total\{[^}]*route="\/api\/auth\/jwt\/create\/"[^}]*\} (\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
  };

  beforeAll(async () => {
    scratch = await throwawayDatabase();
    const database = await openDatabase({ url: scratch.url });
    await database.migrate();
    await createUser(database.db, operator.email, await hashPassword(operator.password));
    await database.close();
    for (const port of [await freePort(), await freePort()]) apis.push({ port, child: startApi(port) });
    // A process compiles the API's source as it starts: minutes on a loaded machine, which is not
    // what this test judges, so it is waited for as long as it runs (up to 4 minutes).
    for (const { port, child } of apis)
      await until(
        `the API on ${port}`,
        async () => (await fetch(`http://127.0.0.1:${port}/api/ready`)).ok,
        240_000,
        () => child.exitCode === null,
      );

    proxy = await startNginx({ api: apis.map(({ port }) => port) });
    base = proxy.base;
  }, 300_000);

  afterAll(async () => {
    await proxy?.stop();
    for (const { child } of apis) child.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 500));
    await scratch?.drop();
  });

  const login = () =>
    fetch(`${base}/api/auth/jwt/create/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(operator) });

  test('requests are balanced over both instances, their headers not doubled; metrics and backups stay off the public port', async () => {
    const before = await Promise.all(apis.map(({ port }) => answered(port)));
    const answers = await Promise.all(Array.from({ length: 8 }, login));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    const after = await Promise.all(apis.map(({ port }) => answered(port)));
    expect(after[0]! - before[0]!).toBeGreaterThan(0);
    expect(after[1]! - before[1]!).toBeGreaterThan(0);
    // The API's own security headers, once each (the proxy adds HSTS to the edge's pages only).
    expect(answers[0]!.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(answers[0]!.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await fetch(`${base}/api/metrics`)).status).toBe(404);
    expect((await fetch(`${base}/api/backup/`, { method: 'POST' })).status).toBe(404);
  });

  test('the event stream comes through unbuffered', async () => {
    const { access } = (await (await login()).json()) as { access: string };
    const controller = new AbortController();
    const response = await fetch(`${base}/api/events/`, { headers: { authorization: `JWT ${access}` }, signal: controller.signal });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    // The first frame arrives while the stream stays open: nothing holds it back to fill a buffer.
    const first = await response.body!.getReader().read();
    expect(new TextDecoder().decode(first.value)).toContain('event: stall');
    controller.abort();
  });

  test('an instance killed outright under 16 connections of reads: not one read fails, and logins go on', async () => {
    const { access } = (await (await login()).json()) as { access: string };
    const failures: string[] = [];
    let done = 0;
    let stop = false;
    const connection = async () => {
      while (!stop) {
        const response = await fetch(`${base}/api/scrape/ejs/total/email/?page_size=5`, { headers: { authorization: `JWT ${access}` } }).catch((e: Error) => e);
        if (response instanceof Error) failures.push(`network: ${response.message}`);
        else {
          if (response.status !== 200) failures.push(`${response.status} ${await response.text()}`);
          else await response.arrayBuffer();
        }
        done++;
      }
    };
    const load = Promise.all(Array.from({ length: 16 }, connection));
    await until('some load', async () => done > 50);
    apis[0]!.child.kill('SIGKILL');
    const killedAt = done;
    await until('load after the kill', async () => done > killedAt + 300);
    stop = true;
    await load;
    expect(failures).toEqual([]);
    // A login to the dead instance is refused at connect, before anything was sent: passed on.
    for (let i = 0; i < 6; i++) expect((await login()).status).toBe(200);
  }, 120_000);
});

/** One request with its path sent as it is written (fetch would resolve dot segments first). */
function rawRequest(base: string, method: string, path: string): Promise<{ status: number; body: string; type: string | undefined }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const headers = { authorization: 'Bearer x', ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) };
    request({ host: hostname, port, method, path, headers }, (response) => {
      let body = '';
      response.on('data', (c: Buffer) => (body += c.toString()));
      response.on('end', () => resolve({ status: response.statusCode!, body, type: response.headers['content-type'] }));
    })
      .on('error', reject)
      .end(method === 'POST' ? '{}' : undefined);
  });
}

describe.runIf(nginxInstalled)('the public port of deploy/nginx/ejdesk.conf, by the path the API will route', () => {
  let proxy: Nginx;
  const echoes: FastifyInstance[] = [];
  /** What reached the API, and the edge, through nginx: the path as the upstream received it. */
  const echo = async (who: string) => {
    const app = Fastify();
    app.all('/*', async (r) => ({ who, url: r.url }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    echoes.push(app);
    return (app.server.address() as { port: number }).port;
  };
  beforeAll(async () => {
    proxy = await startNginx({ api: [await echo('api')], edge: [await echo('edge')] });
  });
  afterAll(async () => {
    await proxy?.stop();
    await Promise.all(echoes.map((e) => e.close()));
  });

  test("forwards the registry's read and the console's calls, never the deployers' writes, plain or escaped", async () => {
    for (const [method, path] of [
      ['GET', '/api/registry/'],
      ['GET', '/api/registry/status/'],
      ['DELETE', '/api/registry/tokens/12/'],
      ['GET', '/api/registry/origins/'],
      ['DELETE', '/api/registry/origins/4/'],
      ['POST', '/api/registry/admin/failures/'],
    ] as const) {
      const answer = await rawRequest(proxy.base, method, path);
      expect([answer.status, JSON.parse(answer.body)], path).toEqual([200, { who: 'api', url: path }]);
    }
    for (const path of [
      '/api/registry/email/releases/',
      '/api/registry/email/rollback/',
      '/api/registry/email/withdraw/',
      '/api/registry/releases/',
      '/api/%72egistry/email/releases/',
      '/%61pi/registry/admin/releases/',
      '/api/registry/admin%2Freleases/',
      '/api/%6detrics',
    ]) {
      const answer = await rawRequest(proxy.base, 'POST', path);
      expect(answer.status, path).toBe(404);
      expect(answer.body, path).not.toContain('"who"');
    }
  });

  test('refuses with 400 a path that reads one way to nginx and another to the API', async () => {
    for (const path of [
      '/api/%2572egistry/email/releases/',
      '/api/registry/status/%2e%2e/admin/releases/',
      '/api/registry/status/../admin/releases/',
      '/api/registry/status/.%2E/admin/releases/',
      '/api/./registry/admin/releases/',
      '/api/registry/status%2F..%2Fadmin/releases/',
      '/api//registry/admin/releases/',
      '/api/registry%2F/admin/releases/',
      '/api/registry/admin%5creleases/',
      '/api/registry\\admin/releases/',
    ]) {
      const answer = await rawRequest(proxy.base, 'POST', path);
      expect(answer.status, path).toBe(400);
      expect(answer.type, path).toBe('application/json');
      expect(JSON.parse(answer.body).detail, path).toMatch(/read two ways|doubled slash/);
    }
    // A dot inside a name, an escape in the query, the console's pages: passed on as written.
    expect(JSON.parse((await rawRequest(proxy.base, 'GET', '/api/scrape/x.y/?q=50%25')).body)).toEqual({ who: 'api', url: '/api/scrape/x.y/?q=50%25' });
    expect(JSON.parse((await rawRequest(proxy.base, 'GET', '/static/js/index.1a.js')).body)).toEqual({ who: 'edge', url: '/static/js/index.1a.js' });
  });
});
