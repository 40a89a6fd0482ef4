// Four eyes on both backends: an admin holds resolutions with credit and bulk changes over 3 for a
// second person; the maker's change waits as a request and changes nothing; its maker cannot
// approve it; another operator sees what it would change and approves it (done, audited) or rejects
// it; a bulk request approved after some of its disputes changed says how many; bad input is a 4xx.
import { sql } from 'drizzle-orm';
import { ejRecords, queryRows } from '@ejdesk/db';
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
    expect(saved.json()).toEqual(settings);
    expect((await call('PUT', '/api/admin/four-eyes/', administrator, [{ action: 'delete_everything', enabled: true, threshold: 0 }])).statusCode).toBe(400);
    const [entry] = await queryRows<{ detail: string }>(t.database.db, sql`select detail from audit_log where entity = 'four_eyes' order by id desc limit 1`);
    expect(entry!.detail).toBe('resolve_credited on, resolve_rejected off, bulk_status on over 3');
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
