import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';

describe('HTTP hardening', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', { corsOrigins: ['http://localhost:3000'] });
  });
  afterAll(() => t.close());

  it('sends a strict CSP and the helmet headers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health/' });
    expect(response.headers['content-security-policy']).toContain("default-src 'none'");
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['strict-transport-security']).toBeDefined();
    expect(response.headers['permissions-policy']).toContain('camera=()');
  });

  it('allows CORS only for the configured origins', async () => {
    const preflight = (origin: string) =>
      t.app.inject({
        method: 'OPTIONS',
        url: '/api/scrape/bank/msp/list/',
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
      });
    const allowed = await preflight('http://localhost:3000');
    expect(allowed.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    const refused = await preflight('https://evil.example');
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers unknown paths and methods with 404 and a detail', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/nothing/here/' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Not found.' });
    expect((await t.app.inject({ method: 'DELETE', url: '/api/auth/jwt/create/' })).statusCode).toBe(404);
  });
});
