// The sender mapping and ignore rules as admin lists: list, add, change, delete, each
// audited; bad input is a 400 naming the field and changes nothing; a duplicate, in any case or
// raced by parallel requests, is one row and 400s, never a 500.
import { auditLog, loadIngestRules } from '@ejdesk/db';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, backends, createTestApp, login, type TestApp } from './helpers.ts';

const lists = [
  {
    path: '/api/admin/sender-mappings/',
    entity: 'sender_mapping',
    good: { sender: ' Disputes@Harbor.Example ', organisation: ' Harbor Bank ' },
    stored: { sender: 'disputes@harbor.example', organisation: 'Harbor Bank' },
    changed: { sender: '@harbor.example', organisation: 'Harbor Bank' },
    duplicateInAnyCase: { sender: 'DISPUTES@harbor.example', organisation: 'Apex Bank' },
    bad: [
      ['no body', undefined, /body/],
      ['a sender without @', { sender: 'harbor.example', organisation: 'Harbor Bank' }, /sender must be an address .* or a domain/],
      ['a sender with a space', { sender: 'a b@harbor.example', organisation: 'Harbor Bank' }, /sender/],
      ['two @', { sender: 'a@b@harbor.example', organisation: 'Harbor Bank' }, /sender/],
      ['a blank organisation', { sender: '@harbor.example', organisation: '   ' }, /organisation/],
      ['a missing organisation', { sender: '@harbor.example' }, /'organisation' is required/],
      ['a number', { sender: 42, organisation: 'x' }, /'sender'/],
      ['an extra field', { sender: '@x.example', organisation: 'x', id: 3 }, /unknown field 'id'/],
      ['an oversized organisation', { sender: '@x.example', organisation: 'o'.repeat(201) }, /organisation/],
    ],
  },
  {
    path: '/api/admin/ignore-rules/',
    entity: 'ignore_rule',
    good: { field: 'subject', pattern: ' Out of Office ' },
    stored: { field: 'subject', pattern: 'Out of Office' },
    changed: { field: 'sender', pattern: 'noreply@' },
    duplicateInAnyCase: { field: 'subject', pattern: 'OUT OF OFFICE' },
    bad: [
      ['no body', undefined, /body/],
      ['an unknown field', { field: 'body', pattern: 'x' }, /'field'/],
      ['a blank pattern', { field: 'subject', pattern: ' ' }, /pattern/],
      ['a missing pattern', { field: 'sender' }, /'pattern' is required/],
      ['an oversized pattern', { field: 'sender', pattern: 'p'.repeat(201) }, /pattern/],
      ['an extra field', { field: 'sender', pattern: 'x', note: 1 }, /unknown field 'note'/],
    ],
  },
] as const;

describe.each(backends)('sender mappings and ignore rules on %s', (backend) => {
  let t: TestApp;
  let authorization: string;
  beforeAll(async () => {
    t = await createTestApp(backend);
    authorization = `JWT ${(await login(t.app, admin)).access}`;
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: { authorization }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const audits = async (entity: string) => (await t.database.db.select().from(auditLog)).filter((r) => r.entity === entity);

  describe.each(lists)('$entity', (list) => {
    let id: number;

    it('adds an entry in its normal form, lists it, and audits the add', async () => {
      const created = await call('POST', list.path, list.good);
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json()).toMatchObject({ ...list.stored, id: expect.any(Number) });
      id = created.json().id;
      const rows = (await call('GET', list.path)).json();
      expect(rows).toEqual([expect.objectContaining({ id, ...list.stored })]);
      expect(Object.keys(rows[0]).sort()).toEqual(['create_at', 'id', 'update_at', ...Object.keys(list.stored)].sort());
      expect(await audits(list.entity)).toEqual([expect.objectContaining({ action: 'create', entityId: String(id), detail: expect.any(String) })]);
    });

    it.each(list.bad as unknown as [string, unknown, RegExp][])('refuses %s with a 400 naming the field, and changes nothing', async (_name, body, detail) => {
      const before = (await call('GET', list.path)).json();
      const auditsBefore = (await audits(list.entity)).length;
      for (const response of [await call('POST', list.path, body), await call('PUT', `${list.path}${id}/`, body)]) {
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json().detail).toMatch(detail);
      }
      expect((await call('GET', list.path)).json()).toEqual(before);
      expect(await audits(list.entity)).toHaveLength(auditsBefore);
    });

    it('refuses a duplicate in any case, also when parallel requests race to add it', async () => {
      const duplicate = await call('POST', list.path, list.duplicateInAnyCase);
      expect(duplicate.statusCode).toBe(400);
      expect(duplicate.json().detail).toMatch(/already/);
      const racing = await Promise.all(Array.from({ length: 8 }, () => call('POST', list.path, list.changed)));
      expect(racing.map((r) => r.statusCode).sort()).toEqual([201, 400, 400, 400, 400, 400, 400, 400]);
      const winner = racing.find((r) => r.statusCode === 201)!.json().id;
      // Changing the first into what the second is now is a duplicate too.
      const clash = await call('PUT', `${list.path}${id}/`, list.changed);
      expect(clash.statusCode).toBe(400);
      expect((await call('DELETE', `${list.path}${winner}/`)).statusCode).toBe(204);
    });

    it('changes an entry and deletes it, each audited; a missing or malformed id answers 404 or 400', async () => {
      const changed = await call('PUT', `${list.path}${id}/`, list.changed);
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json()).toMatchObject({ id, ...list.changed });
      expect(new Date(changed.json().update_at).getTime()).toBeGreaterThanOrEqual(new Date(changed.json().create_at).getTime());
      expect((await call('PUT', `${list.path}999999/`, list.changed)).statusCode).toBe(404);
      expect((await call('DELETE', `${list.path}999999/`)).statusCode).toBe(404);
      expect((await call('DELETE', `${list.path}abc/`)).json().detail).toMatch(/path 'id'/);
      expect((await call('DELETE', `${list.path}${id}/`)).statusCode).toBe(204);
      expect((await call('GET', list.path)).json()).toEqual([]);
      const actions = (await audits(list.entity)).filter((r) => r.entityId === String(id)).map((r) => r.action);
      expect(actions).toEqual(['create', 'change', 'delete']);
    });
  });

  it('the ingester reads the lists as they are now', async () => {
    await call('POST', '/api/admin/sender-mappings/', { sender: '@orbit.example', organisation: 'Orbit MSP' });
    await call('POST', '/api/admin/ignore-rules/', { field: 'sender', pattern: 'Mailer-Daemon@' });
    const rules = await loadIngestRules(t.database.db, randomBytes(32));
    expect([...rules.senders]).toEqual([['@orbit.example', 'Orbit MSP']]);
    expect(rules.ignore).toEqual({ sender: ['mailer-daemon@'], subject: [] });
  });
});
