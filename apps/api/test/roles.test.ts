// Roles: an operator uses every route but the admin lists' (403 there); an admin uses
// all. Every registered route is tried with each role, so a new route cannot forget its check.
import { eq } from 'drizzle-orm';
import { users } from '@ejdesk/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, backends, createTestApp, login, operator, type TestApp } from './helpers.ts';

/** The admin lists (bank passwords, bank -> MSP) and everything under /api/admin. */
const adminOnly = /^\/api\/(scrape\/(store\/password|bank\/msp)|admin)\//;
const denied = { detail: 'You do not have permission to perform this action.' };
const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());

describe.each(backends)('roles on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  /** Each route the app serves behind a token, with its parameters filled in. */
  const protectedRoutes = () =>
    t.app.ctx.routes
      .filter(
        (r) =>
          /^\/api\/(scrape|preferences|admin|mail-flow|disputes|emails)\//.test(r.url) && r.method !== 'HEAD' && r.method !== 'OPTIONS' && !r.url.includes('*'),
      )
      .map((r) => ({
        method: r.method as 'GET' | 'POST' | 'PUT' | 'DELETE',
        url: r.url.replace(':id', '1').replace(':key', 'columns.roles-test').replace(':index', '0'),
      }));

  it('gives an operator every route but the admin lists, which answer 403 and change nothing', async () => {
    const authorization = `JWT ${(await login(t.app, operator)).access}`;
    const routes = protectedRoutes();
    expect(routes.filter((r) => adminOnly.test(r.url)).length).toBe(45);
    expect(routes.length).toBeGreaterThan(30);
    for (const route of routes) {
      const response = await t.app.inject({
        ...route,
        headers: { authorization },
        ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
      });
      if (adminOnly.test(route.url)) {
        expect(response.statusCode, `${route.method} ${route.url}`).toBe(403);
        expect(response.json()).toEqual(denied);
      } else {
        expect([401, 403], `${route.method} ${route.url}`).not.toContain(response.statusCode);
      }
    }
    // A create refused for the role stores nothing, even with a valid body.
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/scrape/bank/msp/create/',
      headers: { authorization },
      payload: { msp: 'Orbit', bank_name: 'Harbor' },
    });
    expect(refused.statusCode).toBe(403);
    const asAdmin = `JWT ${(await login(t.app, admin)).access}`;
    expect((await t.app.inject({ method: 'GET', url: '/api/scrape/bank/msp/list/', headers: { authorization: asAdmin } })).json()).toEqual([]);
  });

  it('gives an admin every route', async () => {
    const authorization = `JWT ${(await login(t.app, admin)).access}`;
    for (const route of protectedRoutes()) {
      const response = await t.app.inject({
        ...route,
        headers: { authorization },
        ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
      });
      expect([401, 403], `${route.method} ${route.url}`).not.toContain(response.statusCode);
    }
  });

  it('names the role in the access token, and a role change counts at once on the API and in the next refreshed token', async () => {
    const { access, refresh } = await login(t.app, operator);
    expect(claims(access)).toMatchObject({ role: 'operator', token_type: 'access' });
    expect(claims(refresh).role).toBeUndefined();
    const list = () => t.app.inject({ method: 'GET', url: '/api/scrape/store/password/list/', headers: { authorization: `JWT ${access}` } });
    expect((await list()).statusCode).toBe(403);

    await t.database.db.update(users).set({ role: 'admin' }).where(eq(users.email, operator.email));
    try {
      // The API reads the account on every request: the old token already may.
      expect((await list()).statusCode).toBe(200);
      const refreshed = await t.app.inject({ method: 'POST', url: '/api/auth/jwt/refresh/', payload: { refresh } });
      expect(claims(refreshed.json().access).role).toBe('admin');
    } finally {
      await t.database.db.update(users).set({ role: 'operator' }).where(eq(users.email, operator.email));
    }
    expect((await list()).statusCode).toBe(403);
  });
});
