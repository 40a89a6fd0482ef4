// Each route declares its credential once (plugins/credentials.ts): the API refuses to start with a
// route that declares none, and what the OpenAPI document says each route takes is what a request
// gets: without a token, with an operator's, with an admin's.
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireDeclaredCredentials } from '../src/plugins/credentials.ts';
import { admin, createTestApp, login, operator, type TestApp } from './helpers.ts';

describe('a route without a declared credential', () => {
  it('stops the API at start-up, naming the route', async () => {
    const app = Fastify();
    requireDeclaredCredentials(app);
    app.get('/api/declared/', { config: { credential: 'user' } }, async () => ({}));
    app.register(async (scope) => {
      scope.get('/api/forgotten/', async () => ({}));
    });
    await expect(app.ready()).rejects.toThrow(/GET \/api\/forgotten\/ declares no credential/);
  });
});

const notProvided = { detail: 'Authentication credentials were not provided.' };
type Operation = { security?: Record<string, string[]>[]; 'x-required-role'?: string };

describe('the credential each route declares', () => {
  let t: TestApp;
  let doc: { paths: Record<string, Record<string, Operation>> };
  beforeAll(async () => {
    // Every token the document names is configured, so each route has one to refuse.
    t = await createTestApp('pglite', { deployToken: 'the-deployers-token', metricsToken: 'the-metrics-token' });
    doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  });
  afterAll(() => t.close());

  /** Each documented operation, its parameters filled in. */
  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({
        method: method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
        url: path.replace('{id}', '1').replace('{name}', 'email').replace('{key}', 'columns.credentials-test'),
        op,
      })),
    );
  const ask = (route: { method: string; url: string }, authorization?: string) =>
    t.app.inject({
      method: route.method as 'GET',
      url: route.url,
      headers: authorization ? { authorization } : {},
      ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
    });

  it('is the security the document states, and a request without it is refused', async () => {
    const seen = new Set<string>();
    for (const route of operations()) {
      const scheme = Object.keys(route.op.security?.[0] ?? {})[0] ?? 'none';
      seen.add(`${scheme}${route.op['x-required-role'] ? ':admin' : ''}`);
      const anonymous = await ask(route);
      const where = `${route.method} ${route.url} (${scheme})`;
      // A public route may answer 401 for its own reason (a refresh token not valid), never for a missing credential.
      if (scheme === 'none') expect(anonymous.json(), where).not.toEqual(notProvided);
      else expect(anonymous.statusCode, where).toBe(401);
      if (scheme === 'jwt') expect(anonymous.json(), where).toEqual(notProvided);
    }
    expect([...seen].sort()).toEqual(['backupToken', 'deployToken', 'jwt', 'jwt:admin', 'metricsToken', 'none']);
  });

  it('lets an operator use every access-token route but the admins’, and an admin all of them', async () => {
    const asOperator = `JWT ${(await login(t.app, operator)).access}`;
    const asAdmin = `JWT ${(await login(t.app, admin)).access}`;
    // The routes that take another token refuse an access token.
    for (const route of operations().filter((r) => r.op.security?.length && !r.op.security.some((s) => 'jwt' in s))) {
      expect((await ask(route, asAdmin)).statusCode, `${route.method} ${route.url}`).toBe(401);
    }
    // The live events' stream never ends: it was asked without a token only.
    const takesAccessToken = operations().filter((r) => r.op.security?.some((s) => 'jwt' in s) && r.url !== '/api/events/');
    expect(takesAccessToken.length).toBeGreaterThan(60);
    for (const route of takesAccessToken) {
      const where = `${route.method} ${route.url}`;
      const byOperator = await ask(route, asOperator);
      if (route.op['x-required-role'] === 'admin') {
        expect(byOperator.statusCode, where).toBe(403);
        expect(byOperator.json(), where).toEqual({ detail: 'You do not have permission to perform this action.' });
      } else {
        expect([401, 403], where).not.toContain(byOperator.statusCode);
      }
      expect([401, 403], where).not.toContain((await ask(route, asAdmin)).statusCode);
    }
  });
});
