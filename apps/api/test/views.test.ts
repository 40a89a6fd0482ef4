import { savedViewDefaults, savedViews, viewLimit } from '@ejdesk/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, anotherOperator, backends, createTestApp, login, type TestApp } from './helpers.ts';
import { viewLists } from '../src/routes/views/index.ts';

describe.each(backends)('saved views on %s', (backend) => {
  let t: TestApp;
  let operator: string;
  let other: string;
  let boss: string;
  beforeAll(async () => {
    t = await createTestApp(backend);
    operator = `JWT ${(await login(t.app)).access}`;
    other = await anotherOperator(t, 'second@example.com');
    boss = `JWT ${(await login(t.app, admin)).access}`;
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, auth: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/api/views${url}`,
      headers: { authorization: auth, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(payload === undefined ? {} : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
    });
  const names = async (list: string, auth: string) => ((await call('GET', `/?list=${list}`, auth)).json() as { name: string }[]).map((v) => v.name);
  const columns = { order: ['atm_id', 'bank_name', 'tat'], hidden: ['bank_name'] };

  it('keeps an operator their views of a list: saved, listed, replaced, renamed, deleted, and nobody else sees them', async () => {
    const saved = await call('POST', '/', operator, {
      list: 'email',
      name: 'Harbor breaches',
      query: 'bank_name=harbor&tat=breached&ordering=-penalty&page_size=50&page=4',
      columns,
    });
    expect(saved.statusCode).toBe(201);
    const view = saved.json();
    // The page is left out: a view opens on its first page.
    expect(view).toMatchObject({
      list: 'email',
      name: 'Harbor breaches',
      query: 'bank_name=harbor&tat=breached&ordering=-penalty&page_size=50',
      columns,
      shared: false,
      default: false,
      mine: true,
      owner: 'operator@example.com',
    });
    expect(await names('email', operator)).toEqual(['Harbor breaches']);
    expect(await names('email', other)).toEqual([]);
    expect(await names('overage', operator)).toEqual([]);

    // Another operator can neither change nor delete it, nor make it their default: it is not there for them.
    expect((await call('PUT', `/${view.id}/`, other, { name: 'Mine now', query: '' })).statusCode).toBe(404);
    expect((await call('DELETE', `/${view.id}/`, other)).statusCode).toBe(404);
    expect((await call('PUT', `/${view.id}/default/`, other)).statusCode).toBe(404);

    const replaced = await call('PUT', `/${view.id}/`, operator, { name: 'Harbor open', query: 'bank_name=harbor&tat=open' });
    expect(replaced.statusCode).toBe(200);
    // Columns not sent are kept; null forgets them.
    expect(replaced.json()).toMatchObject({ name: 'Harbor open', query: 'bank_name=harbor&tat=open', columns });
    expect((await call('PUT', `/${view.id}/`, operator, { name: 'Harbor open', query: 'bank_name=harbor&tat=open', columns: null })).json().columns).toBeNull();
    expect(new Date(replaced.json().update_at).getTime()).toBeGreaterThanOrEqual(new Date(view.update_at).getTime());

    expect((await call('DELETE', `/${view.id}/`, operator)).statusCode).toBe(204);
    expect(await names('email', operator)).toEqual([]);
    expect((await call('DELETE', `/${view.id}/`, operator)).statusCode).toBe(404);
  });

  it('one name per list and operator: a second is refused 409, another list or operator may use it', async () => {
    const body = { list: 'all-email', name: 'Unread today', query: 'subject=today' };
    expect((await call('POST', '/', operator, body)).statusCode).toBe(201);
    const again = await call('POST', '/', operator, body);
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toMatch(/already have a view of that name/);
    expect((await call('POST', '/', operator, { ...body, list: 'text-email-data' })).statusCode).toBe(201);
    expect((await call('POST', '/', other, body)).statusCode).toBe(201);
    // Renaming onto a taken name is refused too, and leaves the view as it was.
    const second = (await call('POST', '/', operator, { ...body, name: 'Unread yesterday' })).json();
    expect((await call('PUT', `/${second.id}/`, operator, { name: 'Unread today', query: '' })).statusCode).toBe(409);
    expect(await names('all-email', operator)).toEqual(['Unread today', 'Unread yesterday']);
  });

  it('only an admin shares; a shared view is listed for everyone after their own, and only its owner or an admin changes it', async () => {
    const refused = await call('POST', '/', operator, { list: 'overage', name: 'Team view', query: '', shared: true });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toMatch(/Only an admin may share/);
    const own = (await call('POST', '/', operator, { list: 'overage', name: 'Zeta', query: 'ordering=-transaction_amt' })).json();
    expect((await call('PUT', `/${own.id}/`, operator, { name: 'Zeta', query: '', shared: true })).statusCode).toBe(403);
    expect(await names('overage', other)).toEqual([]);

    const shared = await call('POST', '/', boss, { list: 'overage', name: 'Biggest first', query: 'ordering=-transaction_amt', shared: true });
    expect(shared.statusCode).toBe(201);
    const view = shared.json();
    // Own views first, then the shared ones; each says whose it is and whether the asker may change it.
    const listed = (await call('GET', '/?list=overage', operator)).json();
    expect(listed.map((v: { name: string; mine: boolean; owner: string }) => [v.name, v.mine, v.owner])).toEqual([
      ['Zeta', true, 'operator@example.com'],
      ['Biggest first', false, admin.email],
    ]);
    expect(await names('overage', other)).toEqual(['Biggest first']);
    expect((await call('PUT', `/${view.id}/`, operator, { name: 'Hijacked', query: '' })).statusCode).toBe(403);
    expect((await call('DELETE', `/${view.id}/`, operator)).statusCode).toBe(403);
    expect(await names('overage', other)).toEqual(['Biggest first']);
    await call('DELETE', `/${view.id}/`, boss);
    expect(await names('overage', other)).toEqual([]);
  });

  it('a default per operator and list, any view they can open; unsharing takes it off the others', async () => {
    const shared = (await call('POST', '/', boss, { list: 'successing', name: 'Shared start', query: 'ordering=atm_id', shared: true })).json();
    const mine = (await call('POST', '/', other, { list: 'successing', name: 'My start', query: 'ordering=-atm_id', default: true })).json();
    expect(mine.default).toBe(true);
    // Choosing the shared one moves the default: one per list.
    expect((await call('PUT', `/${shared.id}/default/`, other)).json().default).toBe(true);
    const listed = (await call('GET', '/?list=successing', other)).json() as { name: string; default: boolean }[];
    expect(listed.map((v) => [v.name, v.default])).toEqual([
      ['My start', false],
      ['Shared start', true],
    ]);
    // The admin's own default is theirs alone.
    expect(((await call('GET', '/?list=successing', boss)).json() as { default: boolean }[]).every((v) => !v.default)).toBe(true);
    // Unshared, it is gone for the other operator, default and all.
    expect((await call('PUT', `/${shared.id}/`, boss, { name: 'Shared start', query: 'ordering=atm_id', shared: false })).statusCode).toBe(200);
    expect(await names('successing', other)).toEqual(['My start']);
    const defaults = await t.database.db.select().from(savedViewDefaults);
    expect(defaults.filter((d) => d.viewId === shared.id)).toEqual([]);
    // And a default can be cleared.
    await call('PUT', `/${mine.id}/default/`, other);
    expect((await call('DELETE', `/${mine.id}/default/`, other)).json().default).toBe(false);
  });

  it('answers bad input 400 with a detail and changes nothing', async () => {
    const kept = (await call('POST', '/', operator, { list: 'missing-data', name: 'Kept', query: 'file_name=a' })).json();
    const before = await t.database.db.select().from(savedViews);
    const bad: unknown[] = [
      '{"list": "email", ',
      [],
      { list: 'email', name: 'x' },
      { list: 'Email', name: 'x', query: '' },
      { list: 'email/../admin', name: 'x', query: '' },
      { list: 'email', name: '', query: '' },
      { list: 'email', name: ' padded', query: '' },
      { list: 'email', name: 'bell\u0007', query: '' },
      { list: 'email', name: 'x'.repeat(81), query: '' },
      { list: 'email', name: 'x', query: '?atm_id=1' },
      { list: 'email', name: 'x', query: 'atm_id=1#top' },
      { list: 'email', name: 'x', query: 'atm id=1' },
      { list: 'email', name: 'x', query: 'atm_id=%E0%A4%A' },
      { list: 'email', name: 'x', query: 'ATM_ID=1' },
      { list: 'email', name: 'x', query: '=1' },
      { list: 'email', name: 'x', query: 'a=1&'.repeat(41).slice(0, -1) },
      { list: 'email', name: 'x', query: 'a='.padEnd(2001, 'b') },
      { list: 'email', name: 'x', query: '', shared: 'yes' },
      { list: 'email', name: 'x', query: '', columns: { order: 'atm_id', hidden: [] } },
      { list: 'email', name: 'x', query: '', owner: 'admin@example.com' },
    ];
    for (const body of bad) {
      const response = await call('POST', '/', operator, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().detail).toEqual(expect.any(String));
    }
    for (const body of [{ name: 'Kept', query: 'a=%' }, { name: 'Kept', query: '', list: 'email' }, { name: '' }]) {
      const response = await call('PUT', `/${kept.id}/`, operator, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    for (const url of ['/?list=', '/?list=EMAIL', '/', '/?list=email&extra=1']) expect((await call('GET', url, operator)).statusCode, url).toBe(400);
    for (const url of ['/0/', '/-1/', '/abc/', '/99999999999/']) expect((await call('PUT', url, operator, { name: 'x', query: '' })).statusCode, url).toBe(400);
    expect(await t.database.db.select().from(savedViews)).toEqual(before);
    expect((await call('GET', '/?list=email', 'JWT forged.token.here')).statusCode).toBe(401);
  });

  it('refuses a view of a list the console does not have, and keeps one of each list it has', async () => {
    const auth = await anotherOperator(t, 'lists@example.com');
    const before = await t.database.db.select().from(savedViews);
    for (const list of ['no-such-list', 'emails', 'users', 'columns']) {
      const response = await call('POST', '/', auth, { list, name: 'Nowhere', query: '' });
      expect(response.statusCode, list).toBe(400);
      expect(response.json().detail).toMatch(new RegExp(`^body 'list': '${list}' is not one of the console's lists`));
    }
    expect(await t.database.db.select().from(savedViews)).toEqual(before);
    for (const list of viewLists) expect((await call('POST', '/', auth, { list, name: 'Somewhere', query: '' })).statusCode, list).toBe(201);
  });

  it(`keeps at most ${viewLimit} views per operator, even when they are saved in parallel`, async () => {
    const auth = await anotherOperator(t, 'parallel@example.com');
    const answers = await Promise.all(
      Array.from({ length: viewLimit + 14 }, (_, i) =>
        call('POST', '/', auth, { list: i % 2 ? 'email' : 'overage', name: `View ${i}`, query: `atm_id=A${i}` }),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(viewLimit);
    const full = answers.filter((a) => a.statusCode === 400);
    expect(full).toHaveLength(14);
    expect(full[0]!.json().detail).toMatch(new RegExp(`At most ${viewLimit} views`));
    // Sixteen parallel saves of one name: one view.
    const auth16 = await anotherOperator(t, 'same-name@example.com');
    const same = await Promise.all(Array.from({ length: 16 }, () => call('POST', '/', auth16, { list: 'email', name: 'Same', query: '' })));
    expect(same.map((a) => a.statusCode).sort()).toEqual([201, ...Array(15).fill(409)]);
  });
});
