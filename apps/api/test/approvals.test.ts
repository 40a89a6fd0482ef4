// Four eyes on both backends: an admin holds resolutions with credit and bulk changes over 3 for a
// second person; the maker's change waits as a request and changes nothing; its maker cannot
// approve it; another operator sees what it would change and approves it (done, audited) or rejects
// it; a bulk request approved after some of its disputes changed says how many; bad input is a 4xx.
import { sql } from 'drizzle-orm';
import { createUser, ejRecords, queryRows } from '@ejdesk/db';
import { hashPassword } from '../src/lib/passwords.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, anotherOperator, backends, createTestApp, login, type TestApp } from './helpers.ts';

describe.each(backends)('four eyes on %s', (backend) => {
  let t: TestApp;
  let maker: string;
  let checker: string;
  let administrator: string;
  let ids: number[];
  beforeAll(async () => {
    t = await createTestApp(backend);
    maker = `JWT ${(await login(t.app)).access}`;
    checker = await anotherOperator(t, 'checker@bank.example');
    administrator = `JWT ${(await login(t.app, admin)).access}`;
    for (let n = 1; n <= 6; n += 1)
      await t.database.db
        .insert(ejRecords)
        .values({ kind: 'dispute', atmId: `ATM-${n}`, txtNo: `TXN-${n}`, transactionDate: '2026-11-20', bankName: 'Apex Bank' });
    await t.database.db.execute(sql`select dispute_records_link(null)`);
    ids = (await queryRows<{ id: number }>(t.database.db, sql`select id::float8 as id from disputes order by id`)).map((r) => r.id);
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, authorization: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: { authorization }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const statusOf = async (id: number) =>
    (await queryRows<{ status: string; status_by: string }>(t.database.db, sql`select status, status_by from disputes where id = ${id}`))[0];

  it('is switched per action by admins only, audited', async () => {
    expect((await call('GET', '/api/admin/four-eyes/', maker)).statusCode).toBe(403);
    const settings = [
      { action: 'resolve_credited', enabled: true, threshold: 0 },
      { action: 'resolve_rejected', enabled: false, threshold: 0 },
      { action: 'bulk_status', enabled: true, threshold: 3 },
    ];
    const saved = await call('PUT', '/api/admin/four-eyes/', administrator, settings);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual([
      ...settings,
      { action: 'tat_rule', enabled: false, threshold: 0 },
      { action: 'bank_password', enabled: false, threshold: 0 },
    ]);
    expect((await call('PUT', '/api/admin/four-eyes/', administrator, [{ action: 'delete_everything', enabled: true, threshold: 0 }])).statusCode).toBe(400);
    const [entry] = await queryRows<{ detail: string }>(t.database.db, sql`select detail from audit_log where entity = 'four_eyes' order by id desc limit 1`);
    expect(entry!.detail).toBe('resolve_credited on, resolve_rejected off, bulk_status on over 3, tat_rule off, bank_password off');
  });

  it('holds a resolution with credit for another person: its maker is refused, the checker approves', async () => {
    const held = await call('POST', `/api/disputes/${ids[0]}/status/`, maker, { status: 'resolved', outcome: 'credited', note: 'EJ shows no dispense' });
    expect(held.statusCode).toBe(202);
    const { request } = held.json();
    expect(request).toMatchObject({ action: 'resolve_credited', status: 'pending', matched_then: 1, maker: 'operator@example.com' });
    expect(held.json().detail).toBe(`Sent for approval: another person must approve it (request ${request.id}).`);
    expect(await statusOf(ids[0]!)).toMatchObject({ status: 'open' });
    // Rejected: resolve_rejected is off, so it is done at once.
    expect((await call('POST', `/api/disputes/${ids[1]}/status/`, maker, { status: 'resolved', outcome: 'rejected', note: 'Dispensed' })).statusCode).toBe(200);

    // Nor can the suggestion or the closing stage go around it.
    const around = await call('POST', `/api/disputes/${ids[0]}/apply-suggestion/`, maker);
    expect([around.statusCode, around.json().detail]).toEqual([409, 'Four eyes holds resolutions: set the status instead, and a second person approves it.']);
    const closing = await call('POST', `/api/disputes/${ids[0]}/stage/`, maker, { stage: 'closed', outcome: 'credited', cost_bearer: 'issuer', note: 'x' });
    expect(closing.statusCode).toBe(409);
    expect(await statusOf(ids[0]!)).toMatchObject({ status: 'open' });

    const own = await call('POST', `/api/approvals/${request.id}/approve/`, maker, { note: 'Looks right' });
    expect(own.statusCode).toBe(403);
    expect(own.json()).toEqual({ detail: 'You made this request: another person must approve or reject it (four eyes).' });

    const detail = (await call('GET', `/api/approvals/${request.id}/`, checker)).json();
    expect(detail).toMatchObject({ matched_now: 1, changed_since: 0, change: { status: 'resolved', outcome: 'credited', note: 'EJ shows no dispense' } });
    expect(detail.disputes).toEqual([{ id: ids[0], atm_id: 'ATM-1', txt_no: 'TXN-1', status: 'open', outcome: null, changed_since: false }]);

    const approved = await call('POST', `/api/approvals/${request.id}/approve/`, checker, { note: 'Checked the EJ' });
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'approved', checker: 'checker@bank.example', result: { updated: 1, changed_since: 0, matched_now: 1 } });
    expect(await statusOf(ids[0]!)).toEqual({ status: 'resolved', status_by: 'operator@example.com' });
    const [reason] = await queryRows<{ status_reason: string }>(t.database.db, sql`select status_reason from disputes where id = ${ids[0]}`);
    expect(reason!.status_reason).toBe('EJ shows no dispense (approved by checker@bank.example: Checked the EJ)');
    const again = await call('POST', `/api/approvals/${request.id}/approve/`, checker, { note: 'twice' });
    expect(again.statusCode).toBe(409);
    const audited = await queryRows<{ action: string }>(t.database.db, sql`select action from audit_log where entity = 'change_request' order by id`);
    expect(audited.map((a) => a.action)).toEqual(['request', 'approve']);
  });

  it('a rejected request changes nothing', async () => {
    const { request } = (await call('POST', `/api/disputes/${ids[2]}/status/`, maker, { status: 'resolved', outcome: 'credited', note: 'Refund' })).json();
    const rejected = await call('POST', `/api/approvals/${request.id}/reject/`, checker, { note: 'The EJ shows the cash taken' });
    expect(rejected.json()).toMatchObject({ status: 'rejected', result: null, decision_note: 'The EJ shows the cash taken' });
    expect(await statusOf(ids[2]!)).toMatchObject({ status: 'open' });
  });

  it('applies a bulk request to the disputes as they are when approved, and says how many changed since', async () => {
    const four = ids.slice(2, 6);
    const held = await call('POST', '/api/disputes/bulk-status/', maker, { ids: four, status: 'awaiting_msp', note: 'Asked Atlas for the EJ' });
    expect(held.statusCode).toBe(202);
    const { request } = held.json();
    expect(request).toMatchObject({ action: 'bulk_status', matched_then: 4, summary: 'Set 4 disputes to awaiting the MSP: Asked Atlas for the EJ' });
    // Three at once is not over the threshold: done.
    expect(
      (await call('POST', '/api/disputes/bulk-status/', maker, { ids: four.slice(0, 2), status: 'resolved', outcome: 'rejected', note: 'Dispensed' }))
        .statusCode,
    ).toBe(200);
    const detail = (await call('GET', `/api/approvals/${request.id}/`, checker)).json();
    expect(detail).toMatchObject({ matched_now: 4, changed_since: 2 });
    expect(detail.disputes.filter((d: { changed_since: boolean }) => d.changed_since).map((d: { id: number }) => d.id)).toEqual(four.slice(0, 2));
    const approved = (await call('POST', `/api/approvals/${request.id}/approve/`, checker, { note: 'Fine' })).json();
    expect(approved.result).toEqual({ updated: 4, changed_since: 2, matched_now: 4 });
    for (const id of four) expect(await statusOf(id)).toMatchObject({ status: 'awaiting_msp' });
    const pending = (await call('GET', '/api/approvals/?status=pending', checker)).json();
    expect(pending.count).toBe(0);
  });

  it('holds TAT rule and bank password changes for a second admin; an operator cannot decide them; no password is kept in clear', async () => {
    const settings = [
      { action: 'tat_rule', enabled: true, threshold: 0 },
      { action: 'bank_password', enabled: true, threshold: 0 },
    ];
    expect((await call('PUT', '/api/admin/four-eyes/', administrator, settings)).statusCode).toBe(200);
    await createUser(t.database.db, 'second-admin@bank.example', await hashPassword('a second admin password'), 'admin');
    const second = `JWT ${(await login(t.app, { email: 'second-admin@bank.example', password: 'a second admin password' })).access}`;

    const rule = {
      name: 'Fast track',
      scope: 'bank',
      scope_value: 'Apex Bank',
      clock_start: 'transaction_date',
      days: 1,
      day_kind: 'calendar',
      holidays: [],
      penalty_per_day: '250',
      currency: 'INR',
    };
    const held = await call('POST', '/api/admin/tat-rules/', administrator, rule);
    expect(held.statusCode).toBe(202);
    const { request } = held.json();
    expect(request).toMatchObject({ action: 'tat_rule', summary: 'Add "Fast track": 1 calendar days from the transaction date, 250 INR a day after' });
    expect((await queryRows(t.database.db, sql`select 1 from tat_rules where name = 'Fast track'`)).length).toBe(0);
    const detail = (await call('GET', `/api/approvals/${request.id}/`, second)).json();
    expect(detail.change).toBeNull();
    expect(detail.fields).toContainEqual({ field: 'penalty_per_day', now: '', would_be: '250' });
    for (const decision of ['approve', 'reject'])
      expect((await call('POST', `/api/approvals/${request.id}/${decision}/`, checker, { note: 'ok' })).json()).toEqual({
        detail: 'A change of an admin list is approved or rejected by an admin.',
      });
    expect((await call('POST', `/api/approvals/${request.id}/approve/`, administrator, { note: 'mine' })).statusCode).toBe(403);
    expect((await call('POST', `/api/approvals/${request.id}/approve/`, second, { note: 'Agreed with the bank' })).json()).toMatchObject({
      status: 'approved',
    });
    expect(await queryRows(t.database.db, sql`select days, penalty_per_day::text as p from tat_rules where name = 'Fast track'`)).toEqual([
      { days: 1, p: '250.00' },
    ]);

    const secret = 'HRB@2026-rotated';
    const stored = await call('POST', '/api/scrape/store/password/create/', administrator, { bank_name: 'Harbor Bank', bank_pass: secret });
    expect(stored.statusCode).toBe(202);
    const made = stored.json().request;
    const [payload] = await queryRows<{ p: string }>(t.database.db, sql`select payload::text as p from change_requests where id = ${made.id}`);
    expect(payload!.p).not.toContain(secret);
    expect((await call('GET', `/api/approvals/${made.id}/`, second)).json().fields).toContainEqual({
      field: 'password',
      now: '',
      would_be: 'a new one (not shown)',
    });
    expect((await call('POST', `/api/approvals/${made.id}/approve/`, second, { note: 'Rotation of November' })).statusCode).toBe(200);
    const [row] = (await call('GET', '/api/scrape/store/password/list/', administrator)).json();
    const revealed = await call('POST', `/api/scrape/store/password/${row.id}/reveal/`, administrator, { reason: 'check the rotation' });
    expect(revealed.json()).toMatchObject({ bank_name: 'Harbor Bank', bank_pass: secret });
    await call(
      'PUT',
      '/api/admin/four-eyes/',
      administrator,
      settings.map((s) => ({ ...s, enabled: false })),
    );
  });

  it('answers bad input with a 4xx detail', async () => {
    for (const [url, body, code] of [
      ['/api/approvals/1/approve/', {}, 400],
      ['/api/approvals/1/approve/', { note: '   ' }, 400],
      ['/api/approvals/999999/approve/', { note: 'x' }, 404],
      ['/api/approvals/abc/reject/', { note: 'x' }, 400],
    ] as const) {
      const response = await call('POST', url, checker, body);
      expect(response.statusCode, url).toBe(code);
      expect(response.json().detail).toEqual(expect.any(String));
    }
    expect((await call('GET', '/api/approvals/?status=maybe', checker)).statusCode).toBe(400);
  });
});
