// GET /api/openapi.json: the API as OpenAPI 3.1, generated from the contract's schemas, valid by a
// validator nobody here wrote, and covering every route the API registered with its credential.
import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';

describe('the OpenAPI document', () => {
  let t: TestApp;
  let doc: { openapi: string; paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, unknown> }>> };
  beforeAll(async () => {
    t = await createTestApp('pglite');
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    doc = response.json();
  });
  afterAll(() => t.close());

  it('validates as OpenAPI 3.1', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
  });

  it('covers every route, each with its answers and its credential', () => {
    const documented = new Set(Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)));
    const registered = t.app.ctx.routes
      .filter((r) => !['HEAD', 'OPTIONS'].includes(r.method) && r.url !== '*' && r.url !== '/api/openapi.json')
      .map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`);
    expect(registered.length).toBeGreaterThan(70);
    // A prefix's root answers with and without its slash (Fastify registers both; documented once).
    expect([...new Set(registered)].filter((r) => !documented.has(r) && !documented.has(`${r}/`))).toEqual([]);
    const op = (path: string, method: string) => doc.paths[path]![method]!;
    expect(op('/api/scrape/bank/msp/list/', 'get').security).toEqual([{ jwt: [] }]);
    expect(op('/api/auth/jwt/create/', 'post').security).toEqual([]);
    expect(op('/api/registry/{name}/rollback/', 'post').security).toEqual([{ deployToken: [] }]);
    expect(Object.keys(op('/api/admin/users/', 'post').responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403']));
  });
});
