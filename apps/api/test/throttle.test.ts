// The failed-login throttle under a parallel attack: the check and the record are one atomic step,
// so a burst checks at most the limit of passwords, even across two API instances on one server.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type Database } from '@ejdesk/db';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/app.ts';
import { backends, createTestApp, operator, testPoolWaitMs, type TestApp } from './helpers.ts';

const limit = 10;
const proxySecret = 'throttle-test-proxy';

describe.each(backends)('failed-login throttle on %s', (backend) => {
  let t: TestApp;
  let second: { app: FastifyInstance; database: Database } | undefined;
  let apps: FastifyInstance[];
  // What the test counts, read on a connection of its own: behind the burst in the app's pool it
  // may wait past the pool's connect timeout on a busy machine (files run side by side).
  let watcher: Database;
  beforeAll(async () => {
    t = await createTestApp(backend, { loginMaxFailures: limit, loginMaxFailuresPerIp: 1000, proxySecret });
    if (backend === 'postgres') {
      // A second API instance with its own pool on the same database, as behind a load balancer.
      const database = await openDatabase({ url: t.config.databaseUrl, poolSize: 4, connectTimeoutMs: testPoolWaitMs });
      second = { database, app: await buildApp({ database, config: t.config, secrets: t.secrets }) };
    }
    apps = second ? [t.app, second.app] : [t.app];
    watcher = backend === 'postgres' ? await openDatabase({ url: t.config.databaseUrl, poolSize: 1 }) : t.database;
    // Connected now: a connection made during the burst may not be made within the connect timeout.
    await watcher.db.execute(sql`select 1`);
  });
  afterAll(async () => {
    await second?.app.close();
    await second?.database.close();
    if (watcher !== t.database) await watcher?.close();
    await t.close();
  });

  const attempt = (i: number, password: string, ip: string) =>
    apps[i % apps.length]!.inject({
      method: 'POST',
      url: '/api/auth/jwt/create/',
      payload: { email: operator.email, password },
      headers: { 'x-forwarded-for': ip, 'x-ejdesk-proxy': proxySecret },
    });

  it('checks at most the limit of 200 parallel wrong passwords, and refuses the right one after', async () => {
    const ip = `10.20.${randomBytes(1)[0]}.1`;
    const burst = Array.from({ length: 200 }, (_, i) => attempt(i, `wrong-${i}`, ip));
    // Once the limit is taken, the right password, sent while the burst is still being answered.
    for (;;) {
      const [row] = await queryRows<{ n: number }>(watcher.db, sql`select count(*)::int as n from login_failures where ip = ${ip}`);
      if (row!.n >= limit) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    const right = await attempt(0, operator.password, ip);
    const answers = await Promise.all(burst);
    const statuses = answers.map((r) => r.statusCode);
    const checked = statuses.filter((s) => s === 401).length;
    expect(checked).toBeLessThanOrEqual(limit);
    expect(checked + statuses.filter((s) => s === 429).length).toBe(200);
    expect(right.statusCode).toBe(429);
    expect(right.json().detail).toMatch(/Too many failed login attempts/);
    // The burst was recorded, nothing more: the limit's worth of failures.
    const [row] = await queryRows<{ n: number }>(watcher.db, sql`select count(*)::int as n from login_failures where ip = ${ip}`);
    expect(row!.n).toBe(checked);
  });

  it('counts the right password of a parallel burst as no failure', async () => {
    const ip = `10.30.${randomBytes(1)[0]}.1`;
    const answers = await Promise.all([...Array.from({ length: 5 }, (_, i) => attempt(i, `wrong-${i}`, ip)), attempt(1, operator.password, ip)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 401, 401, 401, 401, 401]);
    const [row] = await queryRows<{ n: number }>(watcher.db, sql`select count(*)::int as n from login_failures where ip = ${ip}`);
    expect(row!.n).toBe(5);
  });
});
