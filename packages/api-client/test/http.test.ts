// The shared client's session handling and its writes' idempotency keys, over real HTTP against a
// small server that plays the API.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AxiosError, isCancel } from 'axios';
import { configureApiClient, endSession, http, listBankMsps, loadFailure, retryWaitMs, sessionStore, startSession, storageKeys } from '../src/index.ts';

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
/** Every request but the refresh, as the API received it. */
const seen: { method: string; url: string; key: string | undefined; body: string }[] = [];
/** What the next requests get before the usual answer: a status (with Retry-After), or no answer at all. */
type Planned = { status: number; retryAfter?: string; body?: object } | 'drop';
let plan: Planned[] = [];
let answered: () => void = () => {};
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

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
      const key = request.headers['idempotency-key'];
      seen.push({ method: request.method!, url: request.url!, key: Array.isArray(key) ? key.join() : key, body });
      const next = plan.shift();
      if (next === 'drop') return request.socket.destroy();
      if (next) {
        response.statusCode = next.status;
        if (next.retryAfter !== undefined) response.setHeader('retry-after', next.retryAfter);
        response.end(JSON.stringify(next.body ?? { id: seen.length }));
        return answered();
      }
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
  seen.length = 0;
  plan = [];
  answered = () => {};
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

describe('idempotent writes', () => {
  const unavailable = { detail: 'The database is unavailable; try again.' };
  beforeEach(() => startSession(freshAccess));

  it('sends each write with a key of its own, and a load with none', async () => {
    await http.post('/things/', { a: 1 });
    await http.post('/things/', { a: 1 });
    await http.put('/things/1/', { a: 2 });
    await http.patch('/things/1/', { a: 3 });
    await http.delete('/things/1/');
    await listBankMsps();
    const keys = seen.map((request) => request.key);
    expect(keys.slice(0, 5)).toEqual(Array(5).fill(expect.stringMatching(uuid)));
    expect(new Set(keys.slice(0, 5)).size).toBe(5);
    expect(seen[5]).toMatchObject({ method: 'GET', key: undefined });
  });

  it('sends a write answered 503 again with the same key and body after Retry-After, and resolves with the answer', async () => {
    plan = [
      { status: 503, retryAfter: '1', body: unavailable },
      { status: 201, body: { id: 9 } },
    ];
    const started = Date.now();
    const response = await http.post('/things/', { name: 'Atlas' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect([response.status, response.data]).toEqual([201, { id: 9 }]);
    expect(seen).toHaveLength(2);
    expect(seen[1]).toEqual(seen[0]);
    expect(seen[0]!.key).toMatch(uuid);
  });

  it('sends a write again with the same key after no answer at all, a 502 or a 504', async () => {
    plan = ['drop', { status: 502, retryAfter: '0' }, { status: 504, retryAfter: '0' }, { status: 201 }];
    expect((await http.delete('/things/1/')).status).toBe(201);
    expect(seen).toHaveLength(4);
    expect(new Set(seen.map((request) => request.key)).size).toBe(1);
  });

  it('keeps the key through the 401, refresh and retry', async () => {
    startSession(expiredAccess);
    const response = await http.post('/things/', { a: 1 });
    expect(response.status).toBe(200);
    expect(refreshCalls).toBe(1);
    expect(seen.map((request) => request.key)).toEqual([expect.stringMatching(uuid), seen[0]!.key]);
    expect(seenAuth).toEqual([`JWT ${expiredAccess}`, `JWT ${freshAccess}`]);
  });

  it("gives up after 3 retries with the 503's error", async () => {
    plan = Array.from({ length: 5 }, () => ({ status: 503, retryAfter: '0', body: unavailable }));
    const error = await http.post('/things/', { a: 1 }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(AxiosError);
    expect([(error as AxiosError).response?.status, (error as AxiosError).response?.data]).toEqual([503, unavailable]);
    expect(seen).toHaveLength(4);
    expect(new Set(seen.map((request) => request.key)).size).toBe(1);
  });

  it('leaves a load answered 503 to the query client, and an auth call to its caller', async () => {
    plan = [{ status: 503, retryAfter: '0', body: unavailable }];
    await expect(listBankMsps()).rejects.toThrow(/503/);
    expect(seen).toHaveLength(1);
    plan = [{ status: 503, retryAfter: '0', body: unavailable }];
    await expect(http.post('/auth/jwt/create/', {}, { skipSessionHandling: true })).rejects.toThrow(/503/);
    expect(seen).toHaveLength(2);
    expect(seen[1]!.key).toMatch(uuid);
  });

  it("keeps a caller's own key, on every call that passes it and on retries", async () => {
    plan = [{ status: 503, retryAfter: '0' }, { status: 201 }];
    await http.post('/things/', { a: 1 }, { headers: { 'Idempotency-Key': 'import-42' } });
    await http.patch('/things/1/', { a: 2 }, { headers: { 'Idempotency-Key': 'import-42' } });
    expect(seen.map((request) => request.key)).toEqual(['import-42', 'import-42', 'import-42']);
  });

  it('does not send a cancelled write again while it waits for Retry-After', async () => {
    plan = [{ status: 503, retryAfter: '3' }, { status: 201 }];
    const controller = new AbortController();
    answered = () => setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    const error = await http.post('/things/', { a: 1 }, { signal: controller.signal }).catch((thrown: unknown) => thrown);
    expect(isCancel(error)).toBe(true);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(seen).toHaveLength(1);
  });

  it('waits what Retry-After says, seconds or a date, at most 5 s and 1 s when it says nothing usable', () => {
    const now = Date.parse('2026-11-20T09:30:00Z');
    expect(retryWaitMs('2', now)).toBe(2000);
    expect(retryWaitMs('0', now)).toBe(0);
    expect(retryWaitMs('3600', now)).toBe(5000);
    expect(retryWaitMs('Fri, 20 Nov 2026 09:30:03 GMT', now)).toBe(3000);
    expect(retryWaitMs('Fri, 20 Nov 2026 09:29:00 GMT', now)).toBe(0);
    expect(retryWaitMs(undefined, now)).toBe(1000);
    expect(retryWaitMs('soon', now)).toBe(1000);
  });
});
