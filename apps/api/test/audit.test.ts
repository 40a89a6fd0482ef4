// The audit log: what admins read and export, filtered by who, what and when; rows are
// added by the actions they record and no route changes or deletes them.
import { auditLog } from '@ejdesk/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, backends, createTestApp, login, operator, type TestApp } from './helpers.ts';

describe.each(backends)('audit log on %s', (backend) => {
  let t: TestApp;
  let authorization: string;
  beforeAll(async () => {
    t = await createTestApp(backend, { proxySecret: 'proxy' });
    const proxied = { 'x-forwarded-for': '10.1.2.3', 'x-ejdesk-proxy': 'proxy' };
    // A failed and a good login of the operator, the admin's login, a stored password and its reveal.
    await t.app.inject({ method: 'POST', url: '/api/auth/jwt/create/', payload: { ...operator, password: 'wrong' }, headers: proxied });
    await t.app.inject({ method: 'POST', url: '/api/auth/jwt/create/', payload: operator, headers: proxied });
    authorization = `JWT ${(await login(t.app, admin)).access}`;
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/scrape/store/password/create/',
      headers: { authorization },
      payload: { bank_name: 'Harbor Bank', bank_pass: 'secret' },
    });
    await t.app.inject({
      method: 'POST',
      url: `/api/scrape/store/password/${created.json().id}/reveal/`,
      headers: { authorization },
      payload: { reason: 'Statement of March' },
    });
  });
  afterAll(() => t.close());

  const get = (query = '') => t.app.inject({ method: 'GET', url: `/api/admin/audit-log/?${query}`, headers: { authorization } });

  it('lists every audited action newest first, with who, what, the reason and the address', async () => {
    const body = (await get()).json();
    expect(body.count).toBe(5);
    expect(body.results.map((r: { action: string; user_email: string | null }) => [r.action, r.user_email])).toEqual([
      ['reveal', admin.email],
      ['create', admin.email],
      ['login', admin.email],
      ['login', operator.email],
      ['login_failed', operator.email],
    ]);
    expect(body.results[0]).toMatchObject({ entity: 'bank_password', detail: 'Statement of March' });
    expect(body.results[3]).toMatchObject({ ip: '10.1.2.3', entity: 'session' });
    expect(new Date(body.results[0].at).getTime()).not.toBeNaN();
  });

  it('filters by who, what and when, and pages', async () => {
    const count = async (query: string) => (await get(query)).json().count;
    expect(await count('who=OPERATOR@')).toBe(2);
    expect(await count('action=LOGIN')).toBe(3); // login twice, login_failed once
    expect(await count('action=login_failed')).toBe(1);
    expect(await count('action=reveal&who=admin')).toBe(1);
    const today = new Date().toISOString().slice(0, 10);
    expect(await count(`from=${today}&to=${today}`)).toBe(5);
    expect(await count('to=2020-01-01')).toBe(0);
    const second = (await get('page=2&page_size=2')).json();
    expect(second.results.map((r: { action: string }) => r.action)).toEqual(['login', 'login']);
    expect((await get('page=9&page_size=2')).statusCode).toBe(404);
  });

  it('refuses malformed filters with a 400 detail', async () => {
    for (const query of ['from=2026-13-01', "action=x';--", 'page_size=500', 'who=' + 'x'.repeat(201), 'unknown=1']) {
      const response = await get(query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().detail).toEqual(expect.any(String));
    }
  });

  it('exports the filtered rows as CSV', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/admin/audit-log/export/?action=login&who=example', headers: { authorization } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe('attachment; filename="audit_log.csv"');
    const lines = response.body.trim().split('\r\n');
    expect(lines[0]).toBe('"When (UTC)","Who","What","Entity","Entity ID","Detail","IP"');
    // Newest first: both logins and the failed one; every field quoted.
    expect(lines.slice(1).map((l) => l.split(',').slice(1, 3))).toEqual([
      [`"${admin.email}"`, '"login"'],
      [`"${operator.email}"`, '"login"'],
      [`"${operator.email}"`, '"login_failed"'],
    ]);
    expect(lines[2]).toContain('"10.1.2.3"');
  });

  it('has no route that changes or deletes a row, for anyone', async () => {
    const writes = t.app.ctx.routes.filter((r) => r.url.includes('audit') && r.method !== 'GET' && r.method !== 'HEAD');
    expect(writes).toEqual([]);
    const before = await t.database.db.select().from(auditLog);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const response = await t.app.inject({ method, url: '/api/admin/audit-log/', headers: { authorization } });
      expect(response.statusCode, method).toBe(404);
    }
    expect(await t.database.db.select().from(auditLog)).toHaveLength(before.length);
  });

  it('is for admins: an operator gets 403 and no rows', async () => {
    const asOperator = `JWT ${(await login(t.app, operator)).access}`;
    for (const url of ['/api/admin/audit-log/', '/api/admin/audit-log/export/']) {
      const response = await t.app.inject({ method: 'GET', url, headers: { authorization: asOperator } });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ detail: 'You do not have permission to perform this action.' });
    }
  });
});
