// Two API instances on one PostgreSQL database, as behind a load balancer (each its own pool and
// its own LISTEN): what one does, the other knows at once. A session logged out on one is refused
// on the other (its refresh token and its access token); a column choice saved on one is read on
// the other; a remote deployed through one is what the other's registry answers; and mail stored
// by a worker reaches the event streams of both. (The login throttle across instances: throttle.test.ts.)
import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '@ejdesk/db';
import { buildApp } from '../src/app.ts';
import { createTestApp, login, operator, testDatabaseUrl, type TestApp } from './helpers.ts';

const deployToken = 'deploy-token-for-tests-0123456789';

describe.runIf(testDatabaseUrl)('two API instances on one database (PostgreSQL)', () => {
  let t: TestApp;
  let other: { app: FastifyInstance; database: Database };
  let apps: [FastifyInstance, FastifyInstance];
  // The admin remote's build, as its origin serves it: the API reads a release from there at deploy.
  const cdn: Server = createServer((request, response) => {
    if (request.url === '/admin/2.0.0/mf-manifest.json') {
      const entry = { name: 'remoteEntry.js', path: '', type: 'global' };
      return void response.end(JSON.stringify({ name: 'admin', metaData: { remoteEntry: entry, publicPath: 'auto' }, exposes: [{ path: './routes' }] }));
    }
    if (request.url === '/admin/2.0.0/remoteEntry.js') return void response.end('var admin;');
    response.writeHead(404).end();
  });
  let origin = '';
  beforeAll(async () => {
    await new Promise<void>((done) => cdn.listen(0, '127.0.0.1', done));
    origin = `http://127.0.0.1:${(cdn.address() as { port: number }).port}`;
    t = await createTestApp('postgres', { deployToken, remoteOrigins: { admin: [origin] } });
    const database = await openDatabase({ url: t.config.databaseUrl, poolSize: 4 });
    other = { database, app: await buildApp({ database, config: t.config, secrets: t.secrets }) };
    apps = [t.app, other.app];
  }, 60_000);
  afterAll(async () => {
    await other?.app.close();
    await other?.database.close();
    await t?.close();
    cdn.close();
  });

  it('a logout on one instance ends the session on the other: its refresh and its access token are refused there', async () => {
    const [a, b] = apps;
    const { access, refresh } = await login(a);
    const auth = { authorization: `JWT ${access}` };
    expect((await b.inject({ method: 'GET', url: '/api/scrape/ejs/total/email/', headers: auth })).statusCode).toBe(200);
    expect((await a.inject({ method: 'POST', url: '/api/auth/jwt/logout/', payload: { refresh }, headers: auth })).statusCode).toBe(204);
    expect((await b.inject({ method: 'POST', url: '/api/auth/jwt/refresh/', payload: { refresh } })).statusCode).toBe(401);
    expect((await b.inject({ method: 'GET', url: '/api/scrape/ejs/total/email/', headers: auth })).statusCode).toBe(401);
  });

  it('a column choice saved on one instance is read on the other', async () => {
    const [a, b] = apps;
    const auth = { authorization: `JWT ${(await login(b, operator)).access}` };
    const choice = { order: ['atm_id', 'card_no', 'bank_name'], hidden: ['card_no'] };
    expect((await a.inject({ method: 'PUT', url: '/api/preferences/columns.ej-table/', payload: choice, headers: auth })).statusCode).toBe(200);
    expect((await b.inject({ method: 'GET', url: '/api/preferences/columns.ej-table/', headers: auth })).json()).toMatchObject({ value: choice });
  });

  it('a remote deployed through one instance is the release the other answers', async () => {
    const [a, b] = apps;
    const release = {
      version: '2.0.0',
      manifest: `${origin}/admin/2.0.0/mf-manifest.json`,
      descriptor: { name: 'admin', section: 'admin lists', role: 'admin', paths: ['bank-msp-list'], nav: [], screens: {}, contract: 1 },
      by: 'release-bot',
    };
    const deployed = await a.inject({
      method: 'POST',
      url: '/api/registry/admin/releases/',
      payload: release,
      headers: { authorization: `Bearer ${deployToken}` },
    });
    expect(deployed.statusCode).toBe(201);
    const remotes = (await b.inject({ method: 'GET', url: '/api/registry/' })).json().remotes as { name: string; version: string }[];
    expect(remotes.map((r) => [r.name, r.version])).toEqual([['admin', '2.0.0']]);
  });

  it('mail stored by a worker reaches the event streams of both instances', async () => {
    const streams = await Promise.all(
      apps.map(async (app) => {
        const { access } = await login(app);
        await app.listen({ port: 0, host: '127.0.0.1' });
        const controller = new AbortController();
        const response = await fetch(`http://127.0.0.1:${(app.server.address() as { port: number }).port}/api/events/`, {
          headers: { authorization: `JWT ${access}` },
          signal: controller.signal,
        });
        const reader = response.body!.getReader();
        let text = '';
        const heard = (async () => {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) return false;
            text += new TextDecoder().decode(value);
            if (text.includes('event: mail')) return true;
          }
        })();
        return { heard, stop: () => controller.abort() };
      }),
    );
    // What the ingester does when it stores a message: the notification on the mail channel,
    // here from a connection of neither instance.
    const worker = await openDatabase({ url: t.config.databaseUrl, poolSize: 1 });
    await new Promise((r) => setTimeout(r, 300));
    await worker.db.execute(sql`select pg_notify('ejdesk_mail', '')`);
    await worker.close();
    expect(await Promise.all(streams.map((s) => s.heard))).toEqual([true, true]);
    for (const s of streams) s.stop();
  }, 30_000);
});
