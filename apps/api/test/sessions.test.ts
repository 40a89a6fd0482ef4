// Sessions end when they should: a password change ends every other session of the user (refresh
// tokens too), an admin's reset ends all of them, verify/ answers an ended session as every route
// does; the console's refresh token lives in an HttpOnly cookie scoped to the auth routes.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, backends, createTestApp, login, type TestApp } from './helpers.ts';

const someone = { email: 'someone@example.com', password: 'first password here' };

async function post(app: FastifyInstance, url: string, payload: object, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url, payload, headers });
}
const asUser = (access: string) => ({ authorization: `JWT ${access}` });
const list = (app: FastifyInstance, access: string) => app.inject({ method: 'GET', url: '/api/views/?list=email', headers: asUser(access) });
const refreshWith = (app: FastifyInstance, refresh: string) => post(app, '/api/auth/jwt/refresh/', { refresh });
const verify = (app: FastifyInstance, token: string) => post(app, '/api/auth/jwt/verify/', { token });
/** The Set-Cookie of the refresh cookie, parsed. */
function refreshCookieOf(response: {
  cookies: { name: string; value: string; path?: string; maxAge?: number; httpOnly?: boolean; secure?: boolean; sameSite?: string }[];
}) {
  return response.cookies.find((c) => c.name === 'ejdesk_refresh');
}

describe.each(backends)('sessions on %s', (backend) => {
  let t: TestApp;
  let adminAccess: string;
  let someoneId: number;
  beforeAll(async () => {
    t = await createTestApp(backend);
    adminAccess = (await login(t.app, admin)).access;
    const created = await post(t.app, '/api/admin/users/', { ...someone, role: 'operator' }, asUser(adminAccess));
    expect(created.statusCode).toBe(201);
    someoneId = created.json<{ id: number }>().id;
    // An account an admin made chooses its own password first.
    const first = await login(t.app, someone);
    const own = await post(t.app, '/api/auth/jwt/password/', { old_password: someone.password, new_password: 'own password here' }, asUser(first.access));
    expect(own.statusCode).toBe(204);
    someone.password = 'own password here';
  });
  afterAll(() => t.close());

  describe('the refresh cookie', () => {
    it('is set at login: HttpOnly, Secure, SameSite=Strict, scoped to the auth routes, as long as the refresh token', async () => {
      const response = await post(t.app, '/api/auth/jwt/create/', someone);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      const cookie = refreshCookieOf(response);
      expect(cookie).toMatchObject({
        value: response.json<{ refresh: string }>().refresh,
        httpOnly: true,
        secure: true,
        sameSite: 'Strict',
        path: '/api/auth/',
      });
      expect(cookie!.maxAge).toBe(t.config.refreshTokenHours * 3600);
    });

    it('refreshes without a body token, and logout by the cookie ends the session and clears it', async () => {
      const response = await post(t.app, '/api/auth/jwt/create/', someone);
      const cookie = refreshCookieOf(response)!;
      const cookies = { ejdesk_refresh: cookie.value };
      const refreshed = await t.app.inject({ method: 'POST', url: '/api/auth/jwt/refresh/', payload: {}, cookies });
      expect(refreshed.statusCode).toBe(200);
      expect(refreshed.headers['cache-control']).toBe('no-store');
      expect((await list(t.app, refreshed.json<{ access: string }>().access)).statusCode).toBe(200);

      const out = await t.app.inject({ method: 'POST', url: '/api/auth/jwt/logout/', payload: {}, cookies });
      expect(out.statusCode).toBe(204);
      expect(refreshCookieOf(out)).toMatchObject({ value: '', path: '/api/auth/' });
      expect((await t.app.inject({ method: 'POST', url: '/api/auth/jwt/refresh/', payload: {}, cookies })).statusCode).toBe(401);
    });

    it('answers no token in the body and no cookie with 401, and a garbage cookie likewise', async () => {
      const none = await post(t.app, '/api/auth/jwt/refresh/', {});
      expect(none.statusCode).toBe(401);
      expect(none.json()).toMatchObject({ detail: expect.any(String) });
      const garbage = await t.app.inject({ method: 'POST', url: '/api/auth/jwt/refresh/', payload: {}, cookies: { ejdesk_refresh: 'x'.repeat(5000) } });
      expect(garbage.statusCode).toBe(401);
      expect((await post(t.app, '/api/auth/jwt/logout/', {})).statusCode).toBe(401);
    });
  });

  describe('a password change', () => {
    it('ends every other session of the user, refresh tokens included, and keeps the one it was made in', async () => {
      const before = await login(t.app, someone);
      const here = await login(t.app, someone);
      // Before the change both sessions answer.
      expect((await list(t.app, before.access)).statusCode).toBe(200);
      const changed = await post(
        t.app,
        '/api/auth/jwt/password/',
        { old_password: someone.password, new_password: 'second password here' },
        asUser(here.access),
      );
      expect(changed.statusCode).toBe(204);
      someone.password = 'second password here';

      expect((await list(t.app, before.access)).statusCode).toBe(401);
      expect((await refreshWith(t.app, before.refresh)).statusCode).toBe(401);
      expect((await verify(t.app, before.access)).statusCode).toBe(401);
      expect((await verify(t.app, before.refresh)).statusCode).toBe(401);

      expect((await list(t.app, here.access)).statusCode).toBe(200);
      const renewed = await refreshWith(t.app, here.refresh);
      expect(renewed.statusCode).toBe(200);
      expect((await list(t.app, renewed.json<{ access: string }>().access)).statusCode).toBe(200);
      // A session begun after the change is not touched by it.
      const after = await login(t.app, someone);
      expect((await list(t.app, after.access)).statusCode).toBe(200);
      expect((await refreshWith(t.app, after.refresh)).statusCode).toBe(200);
    });

    it("an admin's reset ends every session of the user; the new password's session then goes on", async () => {
      const before = await login(t.app, someone);
      const reset = await post(t.app, `/api/admin/users/${someoneId}/reset-password/`, { password: 'reset by the admin' }, asUser(adminAccess));
      expect(reset.statusCode).toBe(200);
      expect((await list(t.app, before.access)).statusCode).toBe(401);
      expect((await refreshWith(t.app, before.refresh)).statusCode).toBe(401);

      // The user signs in with the admin's password and chooses their own.
      const interim = await login(t.app, { email: someone.email, password: 'reset by the admin' });
      const chosen = await post(
        t.app,
        '/api/auth/jwt/password/',
        { old_password: 'reset by the admin', new_password: 'third password here' },
        asUser(interim.access),
      );
      expect(chosen.statusCode).toBe(204);
      someone.password = 'third password here';
      expect((await list(t.app, interim.access)).statusCode).toBe(200);
      expect((await refreshWith(t.app, interim.refresh)).statusCode).toBe(200);
      // The session opened before the reset stays ended after the user's own change too.
      expect((await refreshWith(t.app, before.refresh)).statusCode).toBe(401);
    });
  });

  describe('verify/', () => {
    it('answers an ended session 401, as every route does', async () => {
      const session = await login(t.app, someone);
      expect((await verify(t.app, session.access)).statusCode).toBe(200);
      expect((await verify(t.app, session.refresh)).statusCode).toBe(200);
      expect((await post(t.app, '/api/auth/jwt/logout/', { refresh: session.refresh })).statusCode).toBe(204);
      expect((await list(t.app, session.access)).statusCode).toBe(401);
      expect((await verify(t.app, session.access)).statusCode).toBe(401);
      expect((await verify(t.app, session.refresh)).statusCode).toBe(401);
    });

    it('answers a disabled account 401', async () => {
      const session = await login(t.app, someone);
      const disabled = await t.app.inject({
        method: 'PATCH',
        url: `/api/admin/users/${someoneId}/`,
        payload: { is_active: false },
        headers: asUser(adminAccess),
      });
      expect(disabled.statusCode).toBe(200);
      expect((await verify(t.app, session.access)).statusCode).toBe(401);
      await t.app.inject({ method: 'PATCH', url: `/api/admin/users/${someoneId}/`, payload: { is_active: true }, headers: asUser(adminAccess) });
      expect((await verify(t.app, (await login(t.app, someone)).access)).statusCode).toBe(200);
    });
  });
});
