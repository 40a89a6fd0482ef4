// The shared client's session handling, over real HTTP against a small server that plays the API.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient, endSession, http, listBankMsps, loadFailure, sessionStore, startSession, storageKeys } from '../src/index.ts';

const token = (claims: object) => `h.${btoa(JSON.stringify(claims))}.s`;
const expiredAccess = token({ user_id: 7, token_type: 'access', n: 1 });
const freshAccess = token({ user_id: 7, token_type: 'access', n: 2 });
const goodRefresh = token({ user_id: 7, token_type: 'refresh' });
/** The session cookie the browser would send with the refresh (HttpOnly: the client never sees it). */
let sessionCookie: 'live' | 'ended' = 'live';

let server: Server;
let refreshCalls = 0;
let failWith: number | null = null;
let failBody = JSON.stringify({ detail: 'boom' });
const seenAuth: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      response.setHeader('content-type', 'application/json');
      if (request.url === '/api/auth/jwt/refresh/') {
        refreshCalls++;
        // The client sends no token of its own: the cookie is the session.
        const ok = sessionCookie === 'live' && (JSON.parse(body) as { refresh?: string }).refresh === undefined;
        response.statusCode = ok ? 200 : 401;
        return response.end(JSON.stringify(ok ? { access: freshAccess } : { detail: 'Token is invalid or expired' }));
      }
      seenAuth.push(request.headers.authorization ?? '');
      if (failWith) {
        response.statusCode = failWith;
        return response.end(failBody);
      }
      const authorised = request.headers.authorization === `JWT ${freshAccess}`;
      response.statusCode = authorised ? 200 : 401;
      response.end(JSON.stringify(authorised ? [{ id: 1, msp: 'Atlas', bank_name: 'Apex' }] : { detail: 'expired' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  http.defaults.adapter = 'http';
  http.defaults.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
  refreshCalls = 0;
  sessionCookie = 'live';
  failWith = null;
  failBody = JSON.stringify({ detail: 'boom' });
  seenAuth.length = 0;
  endSession();
});

describe('shared API client', () => {
  it('stores the session under the spec keys and reads the user id from the token; no refresh token where scripts read', () => {
    // An earlier console kept the refresh token in local storage: it goes.
    localStorage.setItem('refresh', goodRefresh);
    startSession(freshAccess);
    expect(localStorage.getItem('refresh')).toBeNull();
    expect(Object.values({ ...localStorage })).not.toContain(goodRefresh);
    expect(localStorage.getItem(storageKeys.token)).toBe(freshAccess);
    expect(localStorage.getItem('isAuthenticated')).toBe('true');
    expect(localStorage.getItem('currentUser_id')).toBe('7');
    expect(sessionStore.getState()).toMatchObject({ isAuthenticated: true, userId: 7 });
  });

  it('refreshes an expired access token once and retries the request', async () => {
    startSession(expiredAccess);
    const onUnauthorized = vi.fn();
    configureApiClient({ onUnauthorized });
    await expect(Promise.all([listBankMsps(), listBankMsps()])).resolves.toHaveLength(2);
    expect(refreshCalls).toBe(1);
    expect(seenAuth).toContain(`JWT ${expiredAccess}`);
    expect(seenAuth.at(-1)).toBe(`JWT ${freshAccess}`);
    expect(localStorage.getItem('token')).toBe(freshAccess);
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('ends the session and sends the operator to login when the refresh fails', async () => {
    startSession(expiredAccess);
    sessionCookie = 'ended';
    const onUnauthorized = vi.fn();
    configureApiClient({ onUnauthorized });
    await expect(listBankMsps()).rejects.toThrow();
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem('isAuthenticated')).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('says in words why a load failed: the server detail, else what kind of failure', async () => {
    startSession(freshAccess);
    const failure = () =>
      listBankMsps().then(
        () => 'loaded',
        (error: unknown) => loadFailure('list', error),
      );
    failWith = 500;
    failBody = JSON.stringify({ detail: 'Page 4 is past the end.' });
    expect(await failure()).toBe('The list could not be loaded: Page 4 is past the end.');
    failWith = 502;
    failBody = '<html>Bad Gateway</html>';
    expect(await failure()).toBe('The list could not be loaded: the server had a problem (HTTP 502).');
    failWith = 429;
    failBody = '';
    expect(await failure()).toBe('The list could not be loaded: the server refused the request (HTTP 429).');
    // Nobody listening: a closed port.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const base = http.defaults.baseURL;
    http.defaults.baseURL = `http://127.0.0.1:${port}/api`;
    try {
      expect(await failure()).toBe('The list could not be loaded: the server did not answer.');
    } finally {
      http.defaults.baseURL = base;
    }
  });
});
