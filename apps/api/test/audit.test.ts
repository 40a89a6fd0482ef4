// The audit log: what admins read and export, filtered by who, what and when; rows are
// added by the actions they record and no route changes or deletes them.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { auditLog } from '@ejdesk/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, backends, createTestApp, login, operator, type TestApp } from './helpers.ts';

const run = promisify(execFile);
/** The auditor's own check (Python and openssl, no EJ Desk code): its exit code and words. */
async function auditorCheck(file: string, ...args: string[]): Promise<{ code: number; said: string }> {
  const checker = new URL('../../../tools/audit-chain/check.py', import.meta.url).pathname;
  try {
    const { stdout } = await run('python3', [checker, file, ...args]);
    return { code: 0, said: stdout };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, said: failed.stderr };
  }
}

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
    expect(lines[0]).toBe('"When (UTC)","Who","What","Entity","Entity ID","Detail","IP","Entry","Chain #","At (hashed)","User ID","Previous hash","Hash"');
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

  it('says the chain holds, then names the entry a database administrator edited', async () => {
    const verify = () => t.app.inject({ method: 'GET', url: '/api/admin/audit-log/verify/', headers: { authorization } });
    const holds = await verify();
    expect(holds.statusCode).toBe(200);
    expect(holds.json()).toMatchObject({ ok: true, first: null, problems: [] });
    expect(holds.json().entries).toBeGreaterThanOrEqual(5);
    const [reveal] = await t.database.db
      .select({ id: auditLog.id, detail: auditLog.detail })
      .from(auditLog)
      .where(sql`action = 'reveal'`);
    const edit = (detail: string | null) =>
      t.database.db.transaction(async (tx) => {
        await tx.execute(sql`set local session_replication_role = replica`);
        await tx.execute(sql`update audit_log set detail = ${detail} where id = ${reveal!.id}`);
      });
    await edit('Statement of April');
    try {
      const broken = (await verify()).json();
      expect(broken).toMatchObject({ ok: false, first: { kind: 'changed', id: reveal!.id } });
      expect(broken.first.detail).toBe(`Entry ${reveal!.id} was changed: its content no longer gives its hash.`);
    } finally {
      await edit(reveal!.detail);
    }
    expect((await verify()).json().ok).toBe(true);
  });

  // A second app on its own embedded database and three Python processes: on a busy machine, minutes.
  it('exports the chain in a signed file an auditor checks with Python and openssl alone', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/admin/audit-log/chain/', headers: { authorization } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="audit_log_chain.jsonl"');
    const lines = response.body.trimEnd().split('\n');
    const entries = lines.slice(0, -1).map((line) => JSON.parse(line));
    expect(entries.map((e) => e.action)).toEqual(['login_failed', 'login', 'login', 'create', 'reveal']);
    expect(entries[4]).toMatchObject({ user_email: admin.email, detail: expect.stringContaining('Statement of March') });
    const signature = JSON.parse(lines.at(-1)!).signature;
    expect(signature).toMatchObject({ algorithm: 'Ed25519', entries: 5, last_hash: entries[4].hash });

    const folder = mkdtempSync(join(tmpdir(), 'ejdesk-chain-'));
    const file = join(folder, 'chain.jsonl');
    writeFileSync(file, response.body);
    writeFileSync(join(folder, 'key.pem'), signature.public_key);
    expect(await auditorCheck(file, '--public-key', join(folder, 'key.pem'))).toEqual({
      code: 0,
      said: expect.stringContaining('The chain holds: 5 entries, signed'),
    });

    // A line edited after the export, or the whole file re-signed by another key: both refused.
    writeFileSync(file, response.body.replace('Statement of March', 'Statement of April'));
    expect(await auditorCheck(file)).toEqual({ code: 1, said: expect.stringContaining('do not match the signed digest') });
    const other = await createTestApp('pglite');
    try {
      await other.app.inject({ method: 'POST', url: '/api/auth/jwt/create/', payload: operator });
      const forged = await other.app.inject({
        method: 'GET',
        url: '/api/admin/audit-log/chain/',
        headers: { authorization: `JWT ${(await login(other.app, admin)).access}` },
      });
      writeFileSync(file, forged.body);
      expect(await auditorCheck(file, '--public-key', join(folder, 'key.pem'))).toEqual({
        code: 1,
        said: expect.stringContaining('signature does not verify'),
      });
    } finally {
      await other.close();
    }

    // A day's range starts where that day's first entry links.
    const today = new Date().toISOString().slice(0, 10);
    const ranged = await t.app.inject({ method: 'GET', url: `/api/admin/audit-log/chain/?from=${today}&to=${today}`, headers: { authorization } });
    expect(ranged.headers['content-disposition']).toBe(`attachment; filename="audit_log_chain_from_${today}_to_${today}.jsonl"`);
    const bad = await t.app.inject({ method: 'GET', url: '/api/admin/audit-log/chain/?from=yesterday', headers: { authorization } });
    expect(bad.statusCode).toBe(400);
  }, 120_000);

  it('exports the chain in the CSV too: each entry and its hashes', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/admin/audit-log/export/', headers: { authorization } });
    const newest = response.body.split('\r\n')[1]!;
    expect(newest).toMatch(/,"\d+","\d+","\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z","\d+","[0-9a-f]{64}","[0-9a-f]{64}"$/);
  });

  it('is for admins: an operator gets 403 and no rows', async () => {
    const asOperator = `JWT ${(await login(t.app, operator)).access}`;
    for (const url of ['/api/admin/audit-log/', '/api/admin/audit-log/export/', '/api/admin/audit-log/verify/', '/api/admin/audit-log/chain/']) {
      const response = await t.app.inject({ method: 'GET', url, headers: { authorization: asOperator } });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ detail: 'You do not have permission to perform this action.' });
    }
  });
});
