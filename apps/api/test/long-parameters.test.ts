// A path parameter of any length is the route's to judge: a long id is as malformed as any other
// (400 with a detail, after the route's credential), never the HTTP layer's 414, which the OpenAPI
// document lists for no route. Every route with a path parameter, on each backend.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, backends, createTestApp, login, type TestApp } from './helpers.ts';

type Operation = { security?: Record<string, string[]>[]; responses: Record<string, unknown> };

describe.each(backends)('long path parameters on %s', (backend) => {
  let t: TestApp;
  let doc: { paths: Record<string, Record<string, Operation>> };
  let asAdmin: string;
  beforeAll(async () => {
    t = await createTestApp(backend, { deployToken: 'the-deployers-token' });
    doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    asAdmin = `JWT ${(await login(t.app, admin)).access}`;
  });
  afterAll(() => t.close());

  const withParameters = () =>
    Object.entries(doc.paths)
      .filter(([path]) => /\{\w+\}/.test(path))
      .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method: method.toUpperCase() as 'GET', op })));

  it('answers 400 with a detail, as the document says, however long the parameter', async () => {
    const routes = withParameters();
    expect(routes.length).toBeGreaterThan(25);
    for (const { path, method, op } of routes) {
      expect(Object.keys(op.responses), `${method} ${path}`).toContain('400');
      const authorization = op.security?.some((s) => 'deployToken' in s) ? 'Bearer the-deployers-token' : asAdmin;
      for (const value of ['9'.repeat(101), '9'.repeat(150), 'x'.repeat(5000)]) {
        const url = path.replace(/\{\w+\}/g, value);
        const response = await t.app.inject({ method, url, headers: { authorization }, ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }) });
        expect(response.statusCode, `${method} ${path} with ${value.length} characters`).toBe(400);
        expect(response.json().detail, `${method} ${path}`).toMatch(/^path/);
      }
    }
  });

  it('the original client’s email data by a long id: 400, and 401 first without a token', async () => {
    const url = `/api/scrape/email/to/json/data/${'1'.repeat(120)}/`;
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const response = await t.app.inject({ method: 'GET', url, headers: { authorization: asAdmin } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: "path 'id': must be <= 2147483647." });
  });
});
