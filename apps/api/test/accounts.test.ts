// The users of EJ Desk as admins manage them: list, create, role, disable; each change
// audited; nobody can lock themselves out; an operator can do none of it.
import { auditLog } from '@ejdesk/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, backends, createTestApp, login, operator, type TestApp } from './helpers.ts';

describe.each(backends)('users on %s', (backend) => {
  let t: TestApp;
  let authorization: string;
  beforeAll(async () => {
    t = await createTestApp(backend);
    authorization = `JWT ${(await login(t.app, admin)).access}`;
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, auth = authorization) =>
    t.app.inject({
      method,
      url: `/api/admin/users/${url}`,
      headers: { authorization: auth },
      ...(payload === undefined ? {} : { payload: payload as string }),
    });
  const newcomer = { email: 'newcomer@bank.example', password: 'a long enough phrase', role: 'operator' };
  const newcomerLogin = { email: newcomer.email, password: newcomer.password };

  it('lists the accounts without their password hashes', async () => {
    const rows = (await call('GET', '')).json();
    expect(rows.map((r: { email: string; role: string }) => [r.email, r.role])).toEqual([
      [admin.email, 'admin'],
      [operator.email, 'operator'],
    ]);
    for (const row of rows) expect(Object.keys(row).sort()).toEqual(['create_at', 'email', 'id', 'is_active', 'last_login', 'must_change_password', 'role']);
  });

  it('creates an account that can log in, once, audited', async () => {
    const created = await call('POST', '', newcomer);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ email: newcomer.email, role: 'operator', is_active: true });
    expect((await login(t.app, newcomerLogin)).access).toMatch(/^ey/);
    const again = await call('POST', '', { ...newcomer, email: 'NEWCOMER@bank.example' });
    expect(again.statusCode).toBe(400);
    expect(again.json().detail).toMatch(/already exists/);
    const rows = await t.database.db.select().from(auditLog);
    expect(rows).toContainEqual(expect.objectContaining({ action: 'create', entity: 'user', entityId: newcomer.email, detail: 'role operator' }));
  });

  it('refuses malformed accounts and changes with a 400 detail', async () => {
    for (const body of [
      { ...newcomer, email: 'no-at-sign' },
      { ...newcomer, email: 'short@pass.example', password: 'short' },
      { ...newcomer, email: 'root@bank.example', role: 'root' },
      { ...newcomer, email: 'x@bank.example', extra: true },
      { email: 'y@bank.example' },
    ]) {
      const response = await call('POST', '', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().detail).toEqual(expect.any(String));
    }
    for (const body of [{}, { role: 'root' }, { is_active: 'no' }, { email: 'x@y.z' }]) {
      expect((await call('PATCH', '2/', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await call('PATCH', '999999/', { is_active: false })).statusCode).toBe(404);
    expect((await call('PATCH', 'abc/', { is_active: false })).statusCode).toBe(400);
    expect((await call('GET', '')).json()).toHaveLength(3);
  });

  it('disables an account: its token stops at once and it cannot log in; enabled again, it can', async () => {
    const { access } = await login(t.app, newcomerLogin);
    const id = (await call('GET', '')).json().find((r: { email: string }) => r.email === newcomer.email).id;
    const asNewcomer = () => t.app.inject({ method: 'GET', url: '/api/scrape/ejs/read/email/', headers: { authorization: `JWT ${access}` } });
    expect((await asNewcomer()).statusCode).toBe(200);
    expect((await call('PATCH', `${id}/`, { is_active: false })).json()).toMatchObject({ is_active: false });
    expect((await asNewcomer()).statusCode).toBe(401);
    await expect(login(t.app, newcomerLogin)).rejects.toThrow(/401/);
    expect((await call('PATCH', `${id}/`, { is_active: true, role: 'admin' })).json()).toMatchObject({ is_active: true, role: 'admin' });
    expect((await login(t.app, newcomerLogin)).access).toMatch(/^ey/);
    const rows = await t.database.db.select().from(auditLog);
    expect(rows.filter((r) => r.action === 'change' && r.entityId === newcomer.email).map((r) => r.detail)).toEqual(['disabled', 'role admin, enabled']);
  });

  it('lets no admin disable or demote themselves', async () => {
    const me = (await call('GET', '')).json().find((r: { email: string }) => r.email === admin.email).id;
    for (const body of [{ is_active: false }, { role: 'operator' }]) {
      const response = await call('PATCH', `${me}/`, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().detail).toMatch(/ask another admin/);
    }
    expect((await call('GET', '')).json().find((r: { id: number }) => r.id === me)).toMatchObject({ role: 'admin', is_active: true });
  });

  it('is for admins only', async () => {
    const asOperator = `JWT ${(await login(t.app, operator)).access}`;
    expect((await call('GET', '', undefined, asOperator)).statusCode).toBe(403);
    expect((await call('POST', '', { ...newcomer, email: 'sneaky@bank.example' }, asOperator)).statusCode).toBe(403);
    expect((await call('PATCH', '2/', { role: 'admin' }, asOperator)).statusCode).toBe(403);
    expect((await call('GET', '')).json().map((r: { email: string }) => r.email)).not.toContain('sneaky@bank.example');
  });

  it('a reset password lets the user in only to choose their own, which then works alone', async () => {
    const id = (await call('GET', '')).json().find((r: { email: string }) => r.email === operator.email).id;
    const reset = await call('POST', `${id}/reset-password/`, { password: 'given by the admin' });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toMatchObject({ must_change_password: true });
    await expect(login(t.app, operator)).rejects.toThrow(/401/); // the old password is gone

    const given = await login(t.app, { email: operator.email, password: 'given by the admin' });
    const claims = JSON.parse(Buffer.from(given.access.split('.')[1]!, 'base64url').toString());
    expect(claims.password_change_required).toBe(true);
    const auth = { authorization: `JWT ${given.access}` };
    const list = await t.app.inject({ method: 'GET', url: '/api/scrape/ejs/read/email/', headers: auth });
    expect(list.statusCode).toBe(403);
    expect(list.json()).toEqual({ detail: 'Choose a new password first.', code: 'password_change_required' });

    const change = (body: unknown, headers: Record<string, string> = auth) =>
      t.app.inject({ method: 'POST', url: '/api/auth/jwt/password/', headers, payload: body as string });
    expect((await change({ old_password: 'not it', new_password: 'my very own phrase' })).json().detail).toBe('The current password is not right.');
    expect((await change({ old_password: 'given by the admin', new_password: 'short' })).statusCode).toBe(400);
    expect((await change({ old_password: 'given by the admin', new_password: 'given by the admin' })).statusCode).toBe(400);
    expect((await change({ old_password: 'given by the admin', new_password: 'my very own phrase' }, {})).statusCode).toBe(401);
    expect((await change({ old_password: 'given by the admin', new_password: 'my very own phrase' })).statusCode).toBe(204);

    // The same token now works, and the new password is the one.
    expect((await t.app.inject({ method: 'GET', url: '/api/scrape/ejs/read/email/', headers: auth })).statusCode).toBe(200);
    expect((await login(t.app, { email: operator.email, password: 'my very own phrase' })).access).toMatch(/^ey/);
    const rows = await t.database.db.select().from(auditLog);
    expect(rows.map((r) => r.action)).toEqual(expect.arrayContaining(['reset_password', 'change_password']));
    expect((await call('POST', '999999/reset-password/', { password: 'long enough pw' })).statusCode).toBe(404);
    expect((await call('POST', `${id}/reset-password/`, { password: 'short' })).statusCode).toBe(400);
  });
});
