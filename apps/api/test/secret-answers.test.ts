// An answer that carries a secret (a login's or a refresh's tokens, a revealed bank password, a
// deploy token shown once, the embedded database's dump) says Cache-Control: no-store, so neither
// the browser's cache nor a proxy's keeps it. Routes mark themselves (`config: { secret: true }`,
// which covers their refusals too); other answers are left as they were.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupToken } from '../src/lib/backup-token.ts';
import { admin, backends, createTestApp, login, type TestApp } from './helpers.ts';

describe.each(backends)('answers that carry a secret on %s', (backend) => {
  let t: TestApp;
  let authorization: string;
  beforeAll(async () => {
    t = await createTestApp(backend);
    authorization = `JWT ${(await login(t.app, admin)).access}`;
  });
  afterAll(() => t.close());
  const ask = (method: 'GET' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, headers: { authorization }, payload });

  it('a login’s and a refresh’s tokens are not stored', async () => {
    const signedIn = await t.app.inject({ method: 'POST', url: '/api/auth/jwt/create/', payload: admin });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.headers['cache-control']).toBe('no-store');
    const refreshed = await t.app.inject({ method: 'POST', url: '/api/auth/jwt/refresh/', payload: { refresh: signedIn.json().refresh } });
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.json().access).toEqual(expect.any(String));
    expect(refreshed.headers['cache-control']).toBe('no-store');
  });

  it('a revealed bank password is not stored, nor is the refusal of an unknown one', async () => {
    const created = await ask('POST', '/api/scrape/store/password/create/', { bank_name: 'Harbor Bank', bank_pass: 'HRB@2025!' });
    expect(created.statusCode).toBe(201);
    const revealed = await ask('POST', `/api/scrape/store/password/${created.json().id}/reveal/`, { reason: 'Checking a statement' });
    expect(revealed.statusCode).toBe(200);
    expect(revealed.json().bank_pass).toBe('HRB@2025!');
    expect(revealed.headers['cache-control']).toBe('no-store');
    const unknown = await ask('POST', '/api/scrape/store/password/999999/reveal/', { reason: 'Checking a statement' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['cache-control']).toBe('no-store');
  });

  it('a new deploy token, shown once, is not stored', async () => {
    const made = await ask('POST', '/api/registry/tokens/', { remote: 'email', name: 'email team' });
    expect(made.statusCode).toBe(201);
    expect(made.json().token).toEqual(expect.any(String));
    expect(made.headers['cache-control']).toBe('no-store');
  });

  it.runIf(backend === 'pglite')('the embedded database’s dump is not stored', async () => {
    const dump = await t.app.inject({ method: 'POST', url: '/api/backup/', headers: { authorization: `Bearer ${backupToken(t.secrets.jwtSecret)}` } });
    expect(dump.statusCode).toBe(200);
    expect(dump.headers['cache-control']).toBe('no-store');
  });

  it('an answer without a secret is not marked', async () => {
    // The list masks every password.
    const list = await ask('GET', '/api/scrape/store/password/list/');
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain('HRB@2025!');
    expect(list.headers['cache-control']).toBeUndefined();
  });
});
