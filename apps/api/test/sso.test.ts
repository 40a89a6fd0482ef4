// Single sign-on against a real OpenID provider (panva's oidc-provider on 127.0.0.1: discovery,
// JWKS, the code flow with PKCE, its own login page, userinfo, back-channel logout), driven as a
// browser drives it, on both backends: the group claim makes an admin or an operator or refuses;
// a replayed or altered state, a wrong nonce, an ID token for another client and an expired one
// are refused in words and audited; the provider's logout token ends the user's sessions at once;
// LOCAL_LOGIN=off leaves the password form to the break-glass account.
import { randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import { SignJWT, generateKeyPair } from 'jose';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { signInAtProvider, startSignInProvider, type SignInProvider } from '@ejdesk/mailbox/testing';
import { loadConfig } from '../src/config.ts';
import type { SsoFetch } from '../src/lib/sso.ts';
import { admin, backends, createTestApp, login, operator, type TestApp } from './helpers.ts';

const publicUrl = 'http://ejdesk.test';
const clientId = 'ejdesk';
const clientSecret = randomBytes(16).toString('hex');
const admins = 'ejdesk-admins';
const operators = 'ejdesk-operators';

describe.each(backends)('single sign-on on %s', (backend) => {
  let idp: SignInProvider;
  let t: TestApp;
  /** When set, the ID token the provider's token endpoint answers is replaced by this one. */
  let swapIdToken: string | undefined;
  /** When set, the token endpoint's answer reaches EJ Desk this much later (a slow network). */
  let tokenDelayMs = 0;

  // The provider reaches EJ Desk's back-channel logout URI in the test's own way: the app itself.
  const toApp = async (url: string, init: RequestInit): Promise<Response> => {
    const answer = await t.app.inject({
      method: (init.method ?? 'GET') as 'POST',
      url: new URL(url).pathname,
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      payload: init.body ? String(init.body) : undefined,
    });
    return new Response(answer.statusCode === 204 ? null : answer.body, { status: answer.statusCode });
  };
  // What EJ Desk's relying party fetches from the provider: real answers, but for the token swap.
  const ssoFetch: SsoFetch = async (url, options) => {
    const response = await fetch(url, options as RequestInit);
    if (!url.endsWith('/token')) return response;
    await new Promise((resolve) => setTimeout(resolve, tokenDelayMs));
    if (!swapIdToken) return response;
    const body = { ...(await response.json()), id_token: swapIdToken };
    return new Response(JSON.stringify(body), { status: response.status, headers: { 'content-type': 'application/json' } });
  };

  beforeAll(async () => {
    idp = await startSignInProvider({ caDir: process.env.EJDESK_TEST_CA_DIR!, fetch: toApp });
    idp.people.set('alice', { email: 'alice@bank.test', name: 'Alice Admin', groups: [admins, 'staff'] });
    idp.people.set('bob', { email: 'bob@bank.test', name: 'Bob Operator', groups: ['staff', operators] });
    idp.people.set('carol', { email: 'carol@bank.test', name: 'Carol Finance', groups: ['finance'] });
    idp.people.set('dave', { email: 'dave@bank.test', groups: [operators] });
    await idp.addClient({
      id: clientId,
      secret: clientSecret,
      redirectUri: `${publicUrl}/api/auth/oidc/callback/`,
      postLogoutRedirectUri: `${publicUrl}/login`,
      backchannelLogoutUri: `${publicUrl}/api/auth/oidc/backchannel-logout/`,
    });
    // Read through the settings, as the process reads them.
    const { oidc } = loadConfig({
      PUBLIC_URL: publicUrl,
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: clientId,
      OIDC_CLIENT_SECRET: clientSecret,
      OIDC_SCOPES: 'openid profile email groups',
      OIDC_DISPLAY_NAME: 'Bank SSO',
      OIDC_ADMIN_VALUES: admins,
      OIDC_OPERATOR_VALUES: operators,
    });
    // A clock tolerance of 1 s (the library's default is 30), so that a token can expire in a test.
    t = await createTestApp(backend, { oidc }, { sso: { fetch: ssoFetch, clockToleranceSeconds: 1 } });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await idp?.stop();
  });

  /** "Sign in with ...": to the provider, its login page, back to the callback; where the browser lands. */
  async function startSignIn() {
    const start = await t.app.inject({ method: 'GET', url: '/api/auth/oidc/login/' });
    expect(start.statusCode, start.body).toBe(302);
    const cookie = String(start.headers['set-cookie']).split(';')[0]!;
    return { location: String(start.headers.location), cookie };
  }
  async function callback(url: URL, cookie: string) {
    expect(url.origin).toBe(publicUrl);
    const answer = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}`, headers: { cookie } });
    expect(answer.statusCode).toBe(302);
    const landed = new URL(String(answer.headers.location), publicUrl);
    expect(landed.pathname).toBe('/login');
    const fragment = new URLSearchParams(landed.hash.slice(1));
    return { code: fragment.get('sso'), error: fragment.get('sso_error') };
  }
  async function exchange(code: string) {
    const answer = await t.app.inject({ method: 'POST', url: '/api/auth/oidc/session/', payload: { code } });
    return { status: answer.statusCode, body: answer.json() as { access: string; refresh: string; detail?: string } };
  }
  async function ssoSignIn(person: string, options: { abort?: boolean } = {}) {
    const { location, cookie } = await startSignIn();
    const back = await signInAtProvider(location, person, options);
    const landed = await callback(back, cookie);
    if (!landed.code) return { error: landed.error, tokens: undefined, back, cookie };
    const { status, body } = await exchange(landed.code);
    expect(status).toBe(200);
    return { error: null, tokens: body, back, cookie, code: landed.code };
  }
  const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
  const get = (url: string, access: string) => t.app.inject({ method: 'GET', url, headers: { authorization: `JWT ${access}` } });
  const refresh = (refreshToken: string) => t.app.inject({ method: 'POST', url: '/api/auth/jwt/refresh/', payload: { refresh: refreshToken } });
  const rows = async <T>(query: ReturnType<typeof sql>) => ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;
  const auditRows = (action: string) =>
    rows<{ entity_id: string | null; ip: string; detail: string | null; email: string | null }>(
      sql`select a.entity_id, a.ip, a.detail, u.email from audit_log a left join users u on u.id = a.user_id where a.action = ${action} order by a.id`,
    );
  const userRow = async (email: string) =>
    (
      await rows<{ id: number; role: string; oidc_subject: string; is_active: boolean }>(
        sql`select id, role, oidc_subject, is_active from users where email = ${email}`,
      )
    )[0];

  test('the login page learns what to offer', async () => {
    const info = await t.app.inject({ method: 'GET', url: '/api/auth/oidc/' });
    expect(info.json()).toEqual({ enabled: true, display_name: 'Bank SSO', local_login: true });
  });

  test('a user in the admins group becomes an admin, created on first sign-in and audited with the subject and address', async () => {
    const { tokens, error } = await ssoSignIn('alice');
    expect(error).toBeNull();
    expect(claimsOf(tokens!.access)).toMatchObject({ token_type: 'access', role: 'admin' });
    expect((await get('/api/admin/users/', tokens!.access)).statusCode).toBe(200);
    expect(await userRow('alice@bank.test')).toMatchObject({ role: 'admin', oidc_subject: 'alice', is_active: true });
    expect(await auditRows('sso_login')).toContainEqual({
      entity_id: 'alice@bank.test',
      ip: '127.0.0.1',
      detail: 'subject alice; account created as admin',
      email: 'alice@bank.test',
    });
  });

  test('a user in the operators group becomes an operator; a second sign-in after the group changed shows the new role', async () => {
    const first = await ssoSignIn('bob');
    expect(claimsOf(first.tokens!.access).role).toBe('operator');
    expect((await get('/api/scrape/ejs/total/email/?page_size=1', first.tokens!.access)).statusCode).toBe(200);
    expect((await get('/api/admin/users/', first.tokens!.access)).statusCode).toBe(403);

    idp.people.set('bob', { ...idp.people.get('bob')!, groups: [admins] });
    const second = await ssoSignIn('bob');
    expect(claimsOf(second.tokens!.access).role).toBe('admin');
    expect((await get('/api/admin/users/', second.tokens!.access)).statusCode).toBe(200);
    expect((await auditRows('sso_login')).at(-1)).toMatchObject({ detail: 'subject bob; role operator -> admin' });
    idp.people.set('bob', { ...idp.people.get('bob')!, groups: [operators] });
  });

  test('a user in neither group is refused, in words, and no account is made', async () => {
    const { error, tokens } = await ssoSignIn('carol');
    expect(tokens).toBeUndefined();
    expect(error).toBe('carol@bank.test is in neither the admins’ nor the operators’ group for EJ Desk. Ask your administrator for access.');
    expect(await userRow('carol@bank.test')).toBeUndefined();
    expect((await auditRows('sso_refused')).at(-1)).toMatchObject({ entity_id: 'subject carol', ip: '127.0.0.1', detail: error });
  });

  test('an account disabled in EJ Desk stays refused whatever the provider says', async () => {
    await ssoSignIn('dave');
    await t.database.db.execute(sql`update users set is_active = false where email = 'dave@bank.test'`);
    const { error } = await ssoSignIn('dave');
    expect(error).toBe('dave@bank.test cannot sign in: the account dave@bank.test is disabled in EJ Desk.');
  });

  test('the provider’s refusal (the person cancelled) is shown in words', async () => {
    const { error } = await ssoSignIn('alice', { abort: true });
    expect(error).toBe('The identity provider refused the sign-in: access_denied (End-User aborted interaction).');
  });

  test('a replayed callback, an altered state and a callback in another browser are refused', async () => {
    const { back, cookie } = await ssoSignIn('alice');
    // The same callback again (its code and state were used): nothing to find.
    expect((await callback(back, cookie)).error).toBe('The sign-in link is not valid: it was used already, has expired, or was altered. Sign in again.');

    const fresh = await startSignIn();
    const returned = await signInAtProvider(fresh.location, 'alice');
    const altered = new URL(returned);
    altered.searchParams.set('state', `${returned.searchParams.get('state')}x`);
    expect((await callback(altered, fresh.cookie)).error).toBe(
      'The sign-in link is not valid: it was used already, has expired, or was altered. Sign in again.',
    );

    const other = await startSignIn();
    const otherBack = await signInAtProvider(other.location, 'alice');
    expect((await callback(otherBack, 'ejdesk_sso=someone-elses')).error).toBe(
      'The sign-in was started in another browser (or its cookie was lost). Sign in again from this one.',
    );
  });

  test('a one-time code is good once', async () => {
    const { code } = await ssoSignIn('alice');
    expect(await exchange(code!)).toMatchObject({ status: 400, body: { detail: 'The sign-in code is not valid (used already, or expired). Sign in again.' } });
  });

  test('a wrong nonce is refused', async () => {
    const { location, cookie } = await startSignIn();
    // The nonce the callback will expect is not the one the provider put in the ID token.
    await t.database.db.execute(sql`update sso_requests set nonce = 'not-the-nonce-that-was-sent'`);
    const { error } = await callback(await signInAtProvider(location, 'alice'), cookie);
    expect(error).toMatch(/^The sign-in could not be completed: .*nonce/);
  });

  test('an ID token for another client is refused', async () => {
    // A real ID token the provider issued to another client of the same bank.
    const otherRedirect = 'https://other.test/callback';
    await idp.addClient({ id: 'other-app', secret: 'other-secret', redirectUri: otherRedirect });
    const other = await client.discovery(new URL(idp.issuer), 'other-app', undefined, client.ClientSecretBasic('other-secret'));
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(other, {
      redirect_uri: otherRedirect,
      scope: 'openid',
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const back = await signInAtProvider(url.href, 'alice');
    const tokens = await client.authorizationCodeGrant(other, back, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
    swapIdToken = tokens.id_token;
    try {
      const { error } = await ssoSignIn('alice');
      expect(error).toMatch(/^The sign-in could not be completed: .*"aud"/);
    } finally {
      swapIdToken = undefined;
    }
  });

  test('an expired ID token is refused', async () => {
    // A 1 s token that spends 3 s on the way: expired when it arrives, beyond the 1 s tolerance.
    idp.setIdTokenSeconds(1);
    tokenDelayMs = 3000;
    try {
      const { error } = await ssoSignIn('alice');
      expect(error).toMatch(/^The sign-in could not be completed: .*"exp"/);
    } finally {
      idp.setIdTokenSeconds(3600);
      tokenDelayMs = 0;
    }
    expect((await auditRows('sso_refused')).at(-1)?.detail).toMatch(/"exp"/);
  });

  test('the provider’s back-channel logout revokes the user’s refresh token and access at once', async () => {
    const { tokens } = await ssoSignIn('bob');
    expect((await refresh(tokens!.refresh)).statusCode).toBe(200);
    expect((await get('/api/scrape/ejs/total/email/?page_size=1', tokens!.access)).statusCode).toBe(200);

    await idp.backchannelLogout(clientId, 'bob');
    expect(idp.backchannelResults.at(-1)).toEqual({ clientId, subject: 'bob', ok: true });
    expect((await refresh(tokens!.refresh)).statusCode).toBe(401);
    expect((await get('/api/scrape/ejs/total/email/?page_size=1', tokens!.access)).statusCode).toBe(401);
    expect((await auditRows('sso_backchannel_logout')).at(-1)).toMatchObject({
      email: 'bob@bank.test',
      detail: expect.stringMatching(/^subject bob; \d+ single sign-on sessions? ended$/),
    });

    // Another user's session is untouched; bob signs in again at once, and that session works.
    const alice = await ssoSignIn('alice');
    expect((await refresh(alice.tokens!.refresh)).statusCode).toBe(200);
    const again = await ssoSignIn('bob');
    expect((await refresh(again.tokens!.refresh)).statusCode).toBe(200);
    expect((await get('/api/scrape/ejs/total/email/?page_size=1', again.tokens!.access)).statusCode).toBe(200);
  });

  test('a logout token replayed later ends nothing begun since', async () => {
    // The provider's own logout token, caught on its way and posted again.
    let caught = '';
    const { tokens } = await ssoSignIn('alice');
    await idp.backchannelLogout(clientId, 'alice', (token) => (caught = token));
    expect((await refresh(tokens!.refresh)).statusCode).toBe(401);
    const fresh = await ssoSignIn('alice');
    const replay = await t.app.inject({ method: 'POST', url: '/api/auth/oidc/backchannel-logout/', payload: { logout_token: caught } });
    expect(replay.statusCode).toBe(200);
    expect((await refresh(fresh.tokens!.refresh)).statusCode).toBe(200);
  });

  test('logout ends the session’s access tokens at once, not only its refresh token', async () => {
    const { access, refresh: refreshToken } = await login(t.app);
    expect((await get('/api/scrape/ejs/total/email/?page_size=1', access)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/jwt/logout/', payload: { refresh: refreshToken } })).statusCode).toBe(204);
    expect((await get('/api/scrape/ejs/total/email/?page_size=1', access)).statusCode).toBe(401);
  });

  test('a logout token the provider did not sign is refused, and ends nothing', async () => {
    const { tokens } = await ssoSignIn('alice');
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT({ events: { 'http://schemas.openid.net/event/backchannel-logout': {} }, jti: 'x' })
      .setProtectedHeader({ alg: 'RS256', kid: 'forged', typ: 'logout+jwt' })
      .setIssuer(idp.issuer)
      .setAudience(clientId)
      .setSubject('alice')
      .setIssuedAt()
      .sign(privateKey);
    const answer = await t.app.inject({ method: 'POST', url: '/api/auth/oidc/backchannel-logout/', payload: { logout_token: forged } });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().detail).toMatch(/^the logout token was refused/);
    expect((await refresh(tokens!.refresh)).statusCode).toBe(200);
  });

  test('logout revokes the refresh token and sends the browser through the provider’s logout', async () => {
    const { tokens } = await ssoSignIn('alice');
    expect(claimsOf(tokens!.refresh).sso).toBe(true);
    const answer = await t.app.inject({ method: 'POST', url: '/api/auth/oidc/logout/', payload: { refresh: tokens!.refresh } });
    expect(answer.statusCode).toBe(200);
    const redirect = new URL(answer.json().redirect);
    expect(`${redirect.origin}${redirect.pathname}`).toBe(`${idp.issuer}/session/end`);
    expect(redirect.searchParams.get('post_logout_redirect_uri')).toBe(`${publicUrl}/login`);
    expect(redirect.searchParams.get('id_token_hint')).toMatch(/^ey/);
    expect((await refresh(tokens!.refresh)).statusCode).toBe(401);
  });

  test('with LOCAL_LOGIN=off the password form is refused but for the break-glass account', async () => {
    const saved = t.config.localLogin;
    t.config.localLogin = { enabled: false, breakGlass: [admin.email] };
    try {
      const refused = await t.app.inject({ method: 'POST', url: '/api/auth/jwt/create/', payload: operator });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ detail: 'Sign-in with a password is turned off on this server. Use “Sign in with Bank SSO”.', code: 'local_login_off' });
      expect((await t.app.inject({ method: 'GET', url: '/api/auth/oidc/' })).json()).toMatchObject({ local_login: false });
      await login(t.app, { ...admin, email: admin.email.toUpperCase() });
    } finally {
      t.config.localLogin = saved;
    }
  });
});
