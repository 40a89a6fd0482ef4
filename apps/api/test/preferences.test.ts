import { findUserByEmail, preferenceLimit, userPreferences } from '@ejdesk/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anotherOperator, backends, createTestApp, login, operator, type TestApp } from './helpers.ts';

describe.each(backends)('operator preferences on %s', (backend) => {
  let t: TestApp;
  let authorization: string;
  let other: string;
  beforeAll(async () => {
    t = await createTestApp(backend);
    authorization = `JWT ${(await login(t.app)).access}`;
    other = await anotherOperator(t, 'second@example.com');
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'PUT' | 'DELETE', key: string, payload?: unknown, auth = authorization) =>
    t.app.inject({
      method,
      url: `/api/preferences/${key}/`,
      headers: { authorization: auth },
      ...(payload === undefined ? {} : { payload: payload as string }),
    });
  const choice = { order: ['atm_id', 'Response Code', 'Mail Subject (ünïcode)', "O'Brien; drop table users"], hidden: ['Response Code'] };

  it('answers value null for a table the operator never arranged', async () => {
    const response = await call('GET', 'columns.email');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ key: 'columns.email', value: null, update_at: null });
  });

  it('keeps a column choice per operator: saved, read back, replaced, forgotten', async () => {
    const saved = await call('PUT', 'columns.email', choice);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ key: 'columns.email', value: choice });
    expect((await call('GET', 'columns.email')).json().value).toEqual(choice);
    // The other operator sees none of it, and their own choice leaves the first one alone.
    expect((await call('GET', 'columns.email', undefined, other)).json().value).toBeNull();
    expect((await call('PUT', 'columns.email', { order: ['id'], hidden: [] }, other)).statusCode).toBe(200);
    expect((await call('GET', 'columns.email')).json().value).toEqual(choice);

    // Dragged widths and pinned columns are kept with the columns.
    const sized = { ...choice, widths: { atm_id: 180, 'Mail Subject': 420 }, pinned: ['atm_id'] };
    expect((await call('PUT', 'columns.email', sized)).statusCode).toBe(200);
    expect((await call('GET', 'columns.email')).json().value).toEqual(sized);

    const replaced = { order: ['transaction_date', 'atm_id'], hidden: [] };
    expect((await call('PUT', 'columns.email', replaced)).statusCode).toBe(200);
    expect((await call('GET', 'columns.email')).json().value).toEqual(replaced);
    expect((await call('DELETE', 'columns.email')).statusCode).toBe(204);
    expect((await call('GET', 'columns.email')).json().value).toBeNull();
    expect((await call('GET', 'columns.email', undefined, other)).json().value).toEqual({ order: ['id'], hidden: [] });
  });

  it('refuses malformed keys and values with a 400 detail and keeps what was stored', async () => {
    await call('PUT', 'columns.overage', choice);
    const refused: [string, unknown][] = [
      ['columns.overage', { order: ['a'], hidden: [], extra: 1 }],
      ['columns.overage', { order: 'atm_id', hidden: [] }],
      ['columns.overage', { order: ['atm\u0000id'], hidden: [] }],
      ['columns.overage', { order: [''], hidden: [] }],
      ['columns.overage', { order: ['x'.repeat(201)], hidden: [] }],
      ['columns.overage', { order: ['a', 'a'], hidden: [] }],
      ['columns.overage', { order: Array.from({ length: 61 }, (_, i) => `c${i}`), hidden: [] }],
      ['columns.overage', { hidden: [] }],
      ['columns.overage', { order: ['a'], hidden: [], widths: { a: 39 } }],
      ['columns.overage', { order: ['a'], hidden: [], widths: { a: 1201 } }],
      ['columns.overage', { order: ['a'], hidden: [], widths: { a: 120.5 } }],
      ['columns.overage', { order: ['a'], hidden: [], widths: { a: '120' } }],
      ['columns.overage', { order: ['a'], hidden: [], widths: { 'a\u0000': 120 } }],
      ['columns.overage', { order: ['a'], hidden: [], widths: { ['x'.repeat(201)]: 120 } }],
      ['columns.overage', { order: ['a'], hidden: [], widths: Object.fromEntries(Array.from({ length: 61 }, (_, i) => [`c${i}`, 100])) }],
      ['columns.overage', { order: ['a'], hidden: [], widths: [120] }],
      ['columns.overage', { order: ['a'], hidden: [], pinned: 'a' }],
      ['columns.overage', { order: ['a'], hidden: [], pinned: ['a', 'a'] }],
      ['columns.overage', { order: ['a'], hidden: [], pinned: ['a\u0000'] }],
      ['columns.overage', '{"order": [,'],
      ['columns.overage', []],
      ['theme', choice],
      ['columns.', choice],
      ['columns.UPPER', choice],
      [`columns.${'x'.repeat(45)}`, choice],
      ['columns.email%00', choice],
    ];
    for (const [key, body] of refused) {
      const response = await t.app.inject({
        method: 'PUT',
        url: `/api/preferences/${key}/`,
        headers: { authorization, 'content-type': 'application/json' },
        payload: typeof body === 'string' ? body : JSON.stringify(body),
      });
      expect(response.statusCode, `${key} ${JSON.stringify(body)}`).toBe(400);
      expect(response.json().detail).toEqual(expect.any(String));
    }
    expect((await call('GET', 'columns.overage')).json().value).toEqual(choice);
    expect((await call('GET', 'columns.Bad')).statusCode).toBe(400);
  });

  it('asks for a token, and a token of no operator reads nothing', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/preferences/columns.email/' });
    expect(response.statusCode).toBe(401);
    expect(response.json().detail).toMatch(/credentials/);
    expect((await call('PUT', 'columns.email', choice, 'JWT forged.token.here')).statusCode).toBe(401);
  });

  it(`keeps at most ${preferenceLimit} keys per operator, even when new keys are saved in parallel`, async () => {
    const keys = Array.from({ length: preferenceLimit + 20 }, (_, i) => `columns.t${i}`);
    const answers = await Promise.all(keys.map((key) => call('PUT', key, choice, other)));
    const first = await findUserByEmail(t.database.db, operator.email);
    const stored = (await t.database.db.select().from(userPreferences)).filter((row) => row.userId !== first!.id).length;
    expect(stored).toBe(preferenceLimit);
    const full = answers.filter((a) => a.statusCode === 400);
    expect(full.length).toBe(keys.length + 1 - preferenceLimit); // 'columns.email' was already kept
    expect(full[0]!.json().detail).toMatch(new RegExp(`At most ${preferenceLimit}`));
    // A key already kept can still be changed when the operator is at the limit.
    expect((await call('PUT', 'columns.email', { order: [], hidden: [] }, other)).statusCode).toBe(200);
  });
});
