import { eq } from 'drizzle-orm';
import { createSigner } from 'fast-jwt';
import { auditLog, revokedTokens } from '@ejdesk/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, createTestApp, decodeClaims, login, multipart, operator, type TestApp } from './helpers.ts';

const proxySecret = 'shell-proxy-secret';
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe.each(backends)('auth on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend, { loginMaxFailures: 3, loginMaxFailuresPerIp: 5, proxySecret });
  });
  afterAll(() => t.close());

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload: payload as string, headers });

  describe('POST /api/auth/jwt/create/', () => {
    it('returns an access and a refresh token with the SimpleJWT claims', async () => {
      const { access, refresh } = await login(t.app);
      const claims = decodeClaims(access);
      expect(claims).toMatchObject({ token_type: 'access', user_id: expect.any(Number) });
      expect(claims.exp).toBeGreaterThan(Date.now() / 1000);
      expect(claims.iat).toBeLessThanOrEqual(Date.now() / 1000 + 1);
      expect(claims.jti).toMatch(/^[0-9a-f]{32}$/);
      expect(decodeClaims(refresh)).toMatchObject({ token_type: 'refresh', user_id: claims.user_id });
      expect(decodeClaims(refresh).exp as number).toBeGreaterThan(claims.exp as number);
    });

    it('accepts urlencoded and multipart bodies, and any case of the email', async () => {
      const form = new URLSearchParams({ email: operator.email.toUpperCase(), password: operator.password }).toString();
      const urlencoded = await post('/api/auth/jwt/create/', form, { 'content-type': 'application/x-www-form-urlencoded' });
      expect(urlencoded.statusCode).toBe(200);
      const { payload, headers } = multipart(operator);
      const formData = await post('/api/auth/jwt/create/', payload, headers);
      expect(formData.statusCode).toBe(200);
      expect(formData.json()).toHaveProperty('access');
    });

    it('refuses a wrong password with the SimpleJWT message', async () => {
      const response = await post('/api/auth/jwt/create/', { email: operator.email, password: 'wrong' });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ detail: 'No active account found with the given credentials' });
    });

    it.each([
      ['a missing field', { email: operator.email }, /'password' is required/],
      ['an extra field', { ...operator, is_staff: true }, /unknown field 'is_staff'/],
      ['a wrongly typed field', { email: operator.email, password: 12345 }, /'password'.*string/],
      ['an oversized field', { email: 'a'.repeat(400), password: 'x' }, /'email'.*320/],
    ])('answers %s with 400 and a detail', async (_name, body, detail) => {
      const response = await post('/api/auth/jwt/create/', body);
      expect(response.statusCode).toBe(400);
      expect(response.json().detail).toMatch(detail);
    });

    it('answers malformed JSON and an oversized body with a 4xx detail', async () => {
      const malformed = await post('/api/auth/jwt/create/', '{"email": "x", ', { 'content-type': 'application/json' });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().detail).toMatch(/JSON/i);
      const huge = await post('/api/auth/jwt/create/', JSON.stringify({ email: 'x', password: 'y'.repeat(100_000) }), {
        'content-type': 'application/json',
      });
      expect(huge.statusCode).toBe(413);
      expect(huge.json()).toHaveProperty('detail');
      const wrongType = await post('/api/auth/jwt/create/', '<xml/>', { 'content-type': 'text/xml' });
      expect(wrongType.statusCode).toBe(415);
      expect(wrongType.json()).toHaveProperty('detail');
    });

    it('locks out an account from the guessing address only, and an address spraying accounts', async () => {
      // Successful logins never count.
      for (let i = 0; i < 5; i++) await login(t.app);
      const from = (ip: string) => ({ 'x-forwarded-for': ip, 'x-ejdesk-proxy': proxySecret });
      for (let i = 0; i < 3; i++) {
        const r = await post('/api/auth/jwt/create/', { email: operator.email, password: 'guess' }, from('10.0.0.1'));
        expect(r.statusCode).toBe(401);
      }
      // Even the right password is refused from that address...
      const blocked = await post('/api/auth/jwt/create/', operator, from('10.0.0.1'));
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().detail).toMatch(/Too many failed login attempts\. Try again in 15 minutes\./);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(800);
      // ...while the operator at their own desk is not locked out by the stranger.
      expect((await post('/api/auth/jwt/create/', operator, from('10.1.1.1'))).statusCode).toBe(200);

      // One address guessing across accounts is stopped by the per-address limit (5 here).
      for (const who of ['a', 'b', 'c', 'd', 'e']) {
        const r = await post('/api/auth/jwt/create/', { email: `${who}@example.com`, password: 'guess' }, from('10.9.9.9'));
        expect(r.statusCode).toBe(401);
      }
      expect((await post('/api/auth/jwt/create/', operator, from('10.9.9.9'))).statusCode).toBe(429);
      expect((await post('/api/auth/jwt/create/', operator, from('10.1.1.2'))).statusCode).toBe(200);
    });

    it('believes X-Forwarded-For only from the shell proxy (its shared secret)', async () => {
      const forged = (ip: string) => ({ 'x-forwarded-for': ip, 'x-ejdesk-proxy': 'not the secret' });
      const victim = 'forged@example.com';
      for (let i = 0; i < 3; i++) {
        expect((await post('/api/auth/jwt/create/', { email: victim, password: 'guess' }, forged(`10.5.0.${i}`))).statusCode).toBe(401);
      }
      // Three "different" forged addresses were one client: the pair limit holds.
      expect((await post('/api/auth/jwt/create/', { email: victim, password: 'guess' }, forged('10.5.0.9'))).statusCode).toBe(429);
    });
  });

  describe('verify and refresh', () => {
    it('verifies a valid token and refuses garbage, expired, forged and alg:none tokens', async () => {
      const { access } = await login(t.app);
      expect((await post('/api/auth/jwt/verify/', { token: access })).statusCode).toBe(200);

      const claims = decodeClaims(access);
      const expired = createSigner({ key: t.secrets.jwtSecret })({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 });
      const forged = createSigner({ key: 'x'.repeat(64) })(claims);
      const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`;
      for (const token of ['garbage', expired, forged, none]) {
        const response = await post('/api/auth/jwt/verify/', { token });
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual({ detail: 'Token is invalid or expired', code: 'token_not_valid' });
      }
      expect((await post('/api/auth/jwt/verify/', {})).statusCode).toBe(400);
    });

    it('refreshes with a refresh token only', async () => {
      const { access, refresh } = await login(t.app);
      const refreshed = await post('/api/auth/jwt/refresh/', { refresh });
      expect(refreshed.statusCode).toBe(200);
      expect(decodeClaims(refreshed.json().access)).toMatchObject({ token_type: 'access' });
      expect((await post('/api/auth/jwt/refresh/', { refresh: access })).statusCode).toBe(401);
    });
  });

  describe('logout and the audit of logins', () => {
    const auditRows = async () => (await t.database.db.select().from(auditLog).orderBy(auditLog.id)).filter((r) => r.entity === 'session');

    it('revokes the refresh token: it refreshes no more, twice is fine, other sessions keep theirs', async () => {
      const mine = await login(t.app);
      const other = await login(t.app);
      expect((await post('/api/auth/jwt/logout/', { refresh: mine.refresh })).statusCode).toBe(204);
      const refused = await post('/api/auth/jwt/refresh/', { refresh: mine.refresh });
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toEqual({ detail: 'Token is invalid or expired', code: 'token_not_valid' });
      expect((await post('/api/auth/jwt/logout/', { refresh: mine.refresh })).statusCode).toBe(204);
      expect((await post('/api/auth/jwt/refresh/', { refresh: other.refresh })).statusCode).toBe(200);
      const claims = decodeClaims(mine.refresh) as { jti: string; exp: number };
      const [kept] = await t.database.db.select().from(revokedTokens).where(eq(revokedTokens.jti, claims.jti));
      // Kept exactly as long as the token would have lived.
      expect(kept!.expiresAt.getTime()).toBe(claims.exp * 1000);
    });

    it('refuses to log out an access token, garbage or nothing', async () => {
      const { access } = await login(t.app);
      for (const body of [{ refresh: access }, { refresh: 'garbage' }]) expect((await post('/api/auth/jwt/logout/', body)).statusCode).toBe(401);
      // Nothing in the body and no session cookie: nothing to end.
      const empty = await post('/api/auth/jwt/logout/', {});
      expect(empty.statusCode).toBe(401);
      expect(empty.json().detail).toMatch(/No refresh token was sent/);
    });

    it('audits each login, failed or not, and each logout, with the address from the trusted proxy', async () => {
      const before = (await auditRows()).length;
      const proxied = { 'x-forwarded-for': '10.9.8.7', 'x-ejdesk-proxy': proxySecret };
      const { refresh } = (await post('/api/auth/jwt/create/', operator, proxied)).json();
      await post('/api/auth/jwt/create/', { email: 'nobody@example.com', password: 'wrong' }, proxied);
      await post('/api/auth/jwt/logout/', { refresh }, proxied);
      const rows = (await auditRows()).slice(before);
      expect(rows.map((r) => [r.action, r.entityId, r.ip, r.userId !== null])).toEqual([
        ['login', operator.email, '10.9.8.7', true],
        ['login_failed', 'nobody@example.com', '10.9.8.7', false],
        ['logout', null, '10.9.8.7', true],
      ]);
    });
  });

  describe('/api/scrape/* requires a valid access token', () => {
    const list = '/api/scrape/ejs/read/email/';
    const get = (url: string, authorization?: string) => t.app.inject({ method: 'GET', url, headers: authorization ? { authorization } : {} });

    it('answers 401 without credentials, including on unknown paths', async () => {
      for (const url of [list, '/api/scrape/bank/msp/list/', '/api/scrape/no/such/thing/']) {
        const response = await get(url);
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual({ detail: 'Authentication credentials were not provided.' });
      }
    });

    it('accepts the JWT and Bearer schemes and refuses refresh, expired, forged and alg:none tokens', async () => {
      const { access, refresh } = await login(t.app);
      expect((await get(list, `JWT ${access}`)).statusCode).toBe(200);
      expect((await get(list, `Bearer ${access}`)).statusCode).toBe(200);
      expect((await get('/api/scrape/no/such/thing/', `JWT ${access}`)).statusCode).toBe(404);

      const claims = decodeClaims(access);
      const expired = createSigner({ key: t.secrets.jwtSecret })({ ...claims, exp: Math.floor(Date.now() / 1000) - 1 });
      const forged = createSigner({ key: 'y'.repeat(64) })(claims);
      const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`;
      for (const header of [`JWT ${refresh}`, `JWT ${expired}`, `JWT ${forged}`, `JWT ${none}`, `Basic abc`, 'JWT']) {
        const response = await get(list, header);
        expect(response.statusCode, header).toBe(401);
        expect(response.json()).toHaveProperty('detail');
      }
    });
  });
});
