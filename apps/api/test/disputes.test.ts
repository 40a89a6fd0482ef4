// The dispute desk over HTTP on both backends: the clock on each row of the EJ table, the quick
// filters and the clock's orders, a dispute's story, a status set with a note (one, by ids, by the
// table's filters), the ageing card, and the TAT rules as an admin list whose changes move the open
// disputes. Bad input to every new endpoint is a 400 naming the field, and changes nothing.
import { dayIn, ejRecords, queryRows } from '@ejdesk/db';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, anotherOperator, backends, createTestApp, login, type TestApp } from './helpers.ts';

const today = dayIn('Asia/Kolkata');
const daysAgo = (n: number) => new Date(Date.parse(today) - n * 86_400_000).toISOString().slice(0, 10);
const table = '/api/scrape/extract/email/data/pagination/';

/** The desk's cases: how many days ago each transaction was (the RBI rule: due 5 days after). */
const cases = { fresh: 1, dueTomorrow: 4, dueToday: 5, breached: 8, longBreached: 20, settled: 30 } as const;
type Case = keyof typeof cases;

describe.each(backends)('the dispute desk on %s', (backend) => {
  let t: TestApp;
  let operator: string;
  let administrator: string;
  const disputeOf: Partial<Record<Case, number>> = {};
  beforeAll(async () => {
    t = await createTestApp(backend);
    operator = `JWT ${(await login(t.app)).access}`;
    administrator = `JWT ${(await login(t.app, admin)).access}`;
    for (const [name, ago] of Object.entries(cases)) {
      await t.database.db.insert(ejRecords).values({
        kind: 'dispute',
        atmId: `ATM-${name}`,
        txtNo: `TXN-${ago}`,
        cardNo: '4111XXXXXXXX1111',
        transactionDate: daysAgo(ago),
        bankName: 'Apex Bank',
        mspRemarks: 'Customer complaint',
      });
    }
    await t.database.db.execute(sql`select dispute_records_link(null)`);
    const rows = await queryRows<{ atm_id: string; id: string }>(t.database.db, sql`select atm_id, id from disputes`);
    for (const r of rows) disputeOf[r.atm_id.slice(4) as Case] = Number(r.id);
    // A result file that names the long-breached transaction, mailed later.
    const [email] = await queryRows<{ id: string }>(
      t.database.db,
      sql`insert into emails (subject, email_from, received_at) values ('Missing txn report', 'results@atlas-atm.example', now()) returning id`,
    );
    const [file] = await queryRows<{ id: string }>(
      t.database.db,
      sql`insert into data_files (kind, name, email_id) values ('missing_txn', 'missing_txn_report.xlsx', ${email!.id}) returning id`,
    );
    await t.database.db.execute(
      sql`insert into data_file_rows (data_file_id, position, atm_id, txt_no, card_no, msp_remarks) values (${file!.id}, 1, 'ATM-longBreached', 'TXN-20', '', 'EJ shows shortage')`,
    );
    const settled = await status(disputeOf.settled!, { status: 'resolved', outcome: 'credited', note: 'credited by the bank' });
    expect(settled.statusCode).toBe(200);
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, authorization = operator) =>
    t.app.inject({ method, url, headers: { authorization }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const status = (id: number, body: unknown) => call('POST', `/api/disputes/${id}/status/`, body);
  const atms = async (query: string) =>
    ((await call('GET', `${table}?page_size=100&${query}`)).json().results as { atm_id: string }[]).map((r) => r.atm_id.slice(4));
  const history = async () => Number((await queryRows<{ n: string }>(t.database.db, sql`select count(*) as n from dispute_events`))[0]!.n);

  it('gives each row its dispute’s clock: due date, age, days overdue and the penalty so far', async () => {
    const rows = (await call('GET', `${table}?page_size=100`)).json().results as Record<string, unknown>[];
    const row = (name: Case) => rows.find((r) => r.atm_id === `ATM-${name}`)!;
    expect(row('fresh')).toMatchObject({ status: 'open', due_date: daysAgo(-4), age_days: 1, overdue_days: 0, penalty: '0.00', currency: 'INR' });
    expect(row('dueToday')).toMatchObject({ due_date: today, overdue_days: 0, penalty: '0.00', due_today: true });
    expect(rows.filter((r) => r.due_today).map((r) => r.atm_id)).toEqual(['ATM-dueToday']);
    expect(row('breached')).toMatchObject({ age_days: 8, overdue_days: 3, penalty: '300.00', dispute_id: disputeOf.breached });
    // Resolved today: the clock stopped at 30 days, 25 of them overdue.
    expect(row('settled')).toMatchObject({ status: 'resolved', outcome: 'credited', age_days: 30, overdue_days: 25, penalty: '2500.00' });
  });

  it.each([
    ['tat=open', ['longBreached', 'breached', 'dueToday', 'dueTomorrow', 'fresh']],
    ['tat=breached', ['longBreached', 'breached']],
    ['tat=due_today', ['dueToday']],
    ['tat=due_soon', ['dueToday', 'dueTomorrow']],
    ['tat=resolved', ['settled']],
    ['tat=open&age_from=3&age_to=10', ['breached', 'dueToday', 'dueTomorrow']],
    ['tat=breached&atm_id=ATM-long', ['longBreached']],
    ['tat=open&ordering=due_date', ['longBreached', 'breached', 'dueToday', 'dueTomorrow', 'fresh']],
    ['tat=open&ordering=-due_date', ['fresh', 'dueTomorrow', 'dueToday', 'breached', 'longBreached']],
    ['ordering=-penalty', ['settled', 'longBreached', 'breached', 'dueToday', 'dueTomorrow', 'fresh']],
    // Breached by days late: the latest first (the due date read the other way).
    ['tat=breached&ordering=-days_late', ['longBreached', 'breached']],
    ['tat=breached&ordering=days_late', ['breached', 'longBreached']],
  ])('filters and orders by the clock: %s', async (query, expected) => {
    const page = (await call('GET', `${table}?page_size=100&${query}`)).json();
    expect(page.results.map((r: { atm_id: string }) => r.atm_id.slice(4))).toEqual(expected);
    expect(page.count).toBe(expected.length);
  });

  it('exports only the ticked rows’ disputes, with their clock, the count in the file’s name', async () => {
    const ticked = [disputeOf.breached!, disputeOf.fresh!, disputeOf.breached!];
    const answer = await call('GET', `/api/scrape/extract/export/?format=csv&tat=open&disputes=${ticked.join(',')}`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-disposition']).toBe('attachment; filename="ej_error_2_ticked_open.csv"');
    const lines = answer.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 4).join(','))).toEqual([
      `"ATM-breached","Open","${daysAgo(3)}","3"`,
      `"ATM-fresh","Open","${daysAgo(-4)}","0"`,
    ]);
    // Ticked and filtered: only the ticked rows the filters match.
    const resolvedOnly = await call('GET', `/api/scrape/extract/export/?format=csv&tat=resolved&disputes=${disputeOf.fresh}`);
    expect(
      resolvedOnly.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n'),
    ).toHaveLength(1);
    for (const bad of ['x', '1,,2', '-1', Array.from({ length: 1001 }, (_, i) => i + 1).join(',')]) {
      const refused = await call('GET', `/api/scrape/extract/export/?format=csv&disputes=${bad}`);
      expect(refused.statusCode, bad.slice(0, 20)).toBe(400);
      expect(refused.json().detail).toMatch(/disputes/);
    }
    const overage = await call('GET', `/api/scrape/extract/export/?format=csv&kind=overage&disputes=1`);
    expect(overage.statusCode).toBe(400);
    expect(overage.json().detail).toMatch(/only dispute records/);
  });

  it('gives disputes an owner and a follow-up day, one or many, filters by them, and refuses bad ones whole', async () => {
    const accountId = async (email: string) =>
      Number((await queryRows<{ id: number }>(t.database.db, sql`select id from users where email = ${email}`))[0]!.id);
    const me = await accountId('operator@example.com');
    const colleague = await anotherOperator(t, `owner-${backend}@example.com`);
    const colleagueId = await accountId(`owner-${backend}@example.com`);
    const followUp = (body: unknown, authorization = operator) => call('POST', '/api/disputes/follow-up/', body, authorization);
    const owners = (await call('GET', '/api/disputes/owners/')).json() as { id: number; email: string }[];
    expect(owners).toEqual(
      expect.arrayContaining([
        { id: me, email: 'operator@example.com' },
        { id: colleagueId, email: `owner-${backend}@example.com` },
      ]),
    );

    // One dispute: mine, to follow up today; two more by the table's filter: the colleague's.
    expect((await followUp({ ids: [disputeOf.breached], owner_id: me, follow_up_on: today })).json()).toEqual({ updated: 1 });
    expect((await followUp({ filters: { tat: 'due_soon' }, owner_id: colleagueId })).json()).toEqual({ updated: 2 });
    const story = (await call('GET', `/api/disputes/${disputeOf.breached}/`)).json();
    expect(story).toMatchObject({ owner_id: me, owner: 'operator@example.com', follow_up_on: today });
    const rows = (await call('GET', `${table}?page_size=100`)).json().results as Record<string, unknown>[];
    expect(rows.find((r) => r.atm_id === 'ATM-dueToday')).toMatchObject({ owner: `owner-${backend}@example.com`, follow_up_on: null });
    // "Mine" is the caller's own; an account's id names another's; "follow up" by the day.
    expect(await atms('owner=me')).toEqual(['breached']);
    expect((await call('GET', `${table}?owner=me`, undefined, colleague)).json().results.map((r: { atm_id: string }) => r.atm_id)).toEqual([
      'ATM-dueToday',
      'ATM-dueTomorrow',
    ]);
    expect(await atms(`owner=${colleagueId}&ordering=due_date`)).toEqual(['dueToday', 'dueTomorrow']);
    expect(await atms('follow_up=today')).toEqual(['breached']);
    expect(await atms('follow_up=due&tat=breached')).toEqual(['breached']);
    expect(await atms('follow_up=today&tat=resolved')).toEqual([]);
    expect((await call('GET', `${table}?owner=me`)).json().count).toBe(1);
    const [audit] = await queryRows<{ action: string; detail: string }>(t.database.db, sql`select action, detail from audit_log order by id desc limit 1`);
    expect(audit).toEqual({ action: 'follow_up', detail: `2 disputes: owner owner-${backend}@example.com` });

    // A resolved dispute is not to be followed up, whatever its day said.
    expect((await followUp({ ids: [disputeOf.settled], follow_up_on: today })).json()).toEqual({ updated: 1 });
    expect(await atms('follow_up=today')).toEqual(['breached']);
    expect((await followUp({ ids: [disputeOf.settled], follow_up_on: null })).json()).toEqual({ updated: 1 });

    // Bad input: a 400 naming what is wrong, and nothing changes.
    const before = await queryRows(t.database.db, sql`select id, owner_id, follow_up_on::text from disputes order by id`);
    await t.database.db.execute(sql`insert into users (email, password_hash, is_active) values (${`gone-${backend}@example.com`}, 'x', false)`);
    const gone = await accountId(`gone-${backend}@example.com`);
    const refused: [unknown, RegExp][] = [
      [{ ids: [disputeOf.fresh] }, /owner_id, follow_up_on, or both/],
      [{ ids: [disputeOf.fresh], owner_id: 999999 }, /no active account has the id 999999/],
      [{ ids: [disputeOf.fresh], owner_id: gone }, new RegExp(`no active account has the id ${gone}`)],
      [{ ids: [disputeOf.fresh], owner_id: 'me' }, /owner_id/],
      [{ ids: [disputeOf.fresh], follow_up_on: '2026-02-30' }, /follow_up_on/],
      [{ ids: [disputeOf.fresh], follow_up_on: 'tomorrow' }, /follow_up_on/],
      [{ owner_id: me }, /either ids or filters/],
      [{ ids: [disputeOf.fresh], filters: {}, owner_id: me }, /either ids or filters/],
      [{ ids: [], owner_id: me }, /ids/],
      [{ filters: { owner: 'everyone' }, owner_id: me }, /owner/],
      [{ ids: [disputeOf.fresh], owner_id: me, extra: 1 }, /extra|additional/],
    ];
    for (const [body, detail] of refused) {
      const answer = await followUp(body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      expect(answer.json().detail, JSON.stringify(body)).toMatch(detail);
    }
    for (const query of ['owner=abc', 'owner=0', 'owner=none', 'follow_up=tomorrow'])
      expect((await call('GET', `${table}?${query}`)).statusCode, query).toBe(400);
    expect((await call('GET', '/api/scrape/extract/export/?format=csv&kind=overage&owner=me')).json().detail).toMatch(/dispute records only/);
    expect(await queryRows(t.database.db, sql`select id, owner_id, follow_up_on::text from disputes order by id`)).toEqual(before);
    // Nobody and no day: cleared.
    expect((await followUp({ ids: [disputeOf.breached], owner_id: null, follow_up_on: null })).json()).toEqual({ updated: 1 });
    expect(await atms('owner=me')).toEqual([]);
  });

  it('refuses a quick filter it does not know, and the clock’s filters on records without one', async () => {
    // Days late orders open disputes only: a resolved one's stopped with its clock.
    for (const query of ['tat=late', 'age_from=-1', 'age_to=x', 'ordering=due', 'ordering=days_late', 'tat=resolved&ordering=-days_late']) {
      const answer = await call('GET', `${table}?${query}`);
      expect(answer.statusCode, query).toBe(400);
      expect(answer.json().detail, query).toMatch(/tat|age_from|age_to|ordering/);
    }
    const overage = await call('GET', '/api/scrape/extract/export/?format=csv&kind=overage&tat=open');
    expect(overage.statusCode).toBe(400);
    expect(overage.json().detail).toMatch(/dispute records only/);
  });

  it('tells a dispute’s story: each row that names it, in time order, with its email or file, and the history', async () => {
    const story = (await call('GET', `/api/disputes/${disputeOf.longBreached}/`)).json();
    expect(story).toMatchObject({
      id: disputeOf.longBreached,
      atm_id: 'ATM-longBreached',
      status: 'open',
      rule_name: 'RBI harmonised TAT (failed ATM withdrawal)',
    });
    expect(story.rows.map((r: { source: string }) => r.source)).toEqual(['record', 'file_row']);
    expect(story.rows[1]).toMatchObject({
      file_name: 'missing_txn_report.xlsx',
      file_kind: 'missing_txn',
      email_subject: 'Missing txn report',
      msp_remarks: 'EJ shows shortage',
    });
    const settled = (await call('GET', `/api/disputes/${disputeOf.settled}/`)).json();
    expect(settled.history).toEqual([
      expect.objectContaining({ source: 'operator', actor: 'operator@example.com', status: 'resolved', outcome: 'credited', note: 'credited by the bank' }),
    ]);
    expect(settled).toMatchObject({ status_source: 'operator', status_by: 'operator@example.com', status_reason: 'credited by the bank', stopped_on: today });
    expect((await call('GET', '/api/disputes/999999/')).statusCode).toBe(404);
  });

  it('refuses a bad status change with a 400 naming the field, and changes nothing', async () => {
    const id = disputeOf.fresh!;
    const before = { events: await history(), story: (await call('GET', `/api/disputes/${id}/`)).json() };
    const bad: [unknown, RegExp][] = [
      [undefined, /body/],
      [{ status: 'resolved', note: 'x' }, /outcome must be one of/],
      [{ status: 'open', outcome: 'credited', note: 'x' }, /outcome is given only when the status is resolved/],
      [{ status: 'closed', note: 'x' }, /status/],
      [{ status: 'open' }, /note/],
      [{ status: 'open', note: '   ' }, /note/],
      [{ status: 'open', note: 'n'.repeat(2001) }, /note/],
      [{ status: 'open', note: 'x', by: 'someone' }, /unknown field 'by'/],
    ];
    for (const [body, detail] of bad) {
      const answer = await status(id, body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      expect(answer.json().detail).toMatch(detail);
    }
    expect((await status(0, { status: 'open', note: 'x' })).statusCode).toBe(400);
    expect((await status(999999, { status: 'open', note: 'x' })).statusCode).toBe(404);
    expect(await history()).toBe(before.events);
    expect((await call('GET', `/api/disputes/${id}/`)).json()).toEqual(before.story);
  });

  it('sets the status of many disputes, by ids or by the table’s filters, with one note and one audit entry', async () => {
    const events = await history();
    for (const body of [
      { status: 'awaiting_msp', note: 'x' },
      { status: 'awaiting_msp', note: 'x', ids: [1], filters: { tat: 'open' } },
      { status: 'awaiting_msp', note: 'x', ids: [] },
      { status: 'awaiting_msp', note: 'x', filters: { tat: 'soon' } },
      { status: 'awaiting_msp', note: 'x', filters: { page: 2 } },
    ]) {
      const answer = await call('POST', '/api/disputes/bulk-status/', body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      expect(answer.json()).toHaveProperty('detail');
    }
    expect(await history()).toBe(events);

    const byIds = await call('POST', '/api/disputes/bulk-status/', {
      status: 'awaiting_msp',
      note: 'sent to Atlas',
      ids: [disputeOf.fresh, disputeOf.dueTomorrow],
    });
    expect(byIds.json()).toEqual({ updated: 2, change_id: expect.any(Number) });
    expect(await atms('tat=open&ordering=-due_date')).toEqual(['fresh', 'dueTomorrow', 'dueToday', 'breached', 'longBreached']);
    // "All matching" is the server's reading of the filters: the breached ones, whatever page a browser holds.
    const byFilters = await call('POST', '/api/disputes/bulk-status/', {
      status: 'resolved',
      outcome: 'rejected',
      note: 'EJ shows the cash taken',
      filters: { tat: 'breached' },
    });
    expect(byFilters.json()).toEqual({ updated: 2, change_id: expect.any(Number) });
    expect(await atms('tat=breached')).toEqual([]);
    expect(await atms('tat=resolved')).toEqual(['settled', 'longBreached', 'breached']);
    const audits = await queryRows<{ detail: string }>(t.database.db, sql`select detail from audit_log where entity = 'dispute' order by id desc limit 1`);
    expect(audits[0]!.detail).toBe('2 disputes set to resolved (rejected): EJ shows the cash taken');
    // Opened again, their clocks run on from the rule.
    await call('POST', '/api/disputes/bulk-status/', {
      status: 'open',
      note: 'reopened: customer disputes the EJ',
      filters: { tat: 'resolved', atm_id: 'ATM-breached' },
    });
    expect(await atms('tat=breached')).toEqual(['breached']);
  });

  it('undoes a status change for its maker, and refuses once another operator changed one of its disputes', async () => {
    const undo = (id: unknown, authorization = operator) => call('POST', `/api/disputes/status-changes/${id}/undo/`, undefined, authorization);
    const statusOf = async () =>
      Object.fromEntries((await queryRows<{ id: string; status: string }>(t.database.db, sql`select id, status from disputes`)).map((r) => [r.id, r.status]));
    const before = await statusOf();
    const made = await call('POST', '/api/disputes/bulk-status/', {
      status: 'resolved',
      outcome: 'credited',
      note: 'credited in bulk',
      ids: [disputeOf.fresh, disputeOf.dueToday],
    });
    const changeId = made.json().change_id as number;
    expect(made.json().updated).toBe(2);
    expect(await statusOf()).not.toEqual(before);

    // Another operator may not undo it; a malformed or unknown change is a 400 or a 404; nothing moves.
    const other = await anotherOperator(t, `undo-${backend}@example.com`);
    expect((await undo(changeId, other)).statusCode).toBe(403);
    for (const bad of ['abc', 0, -1, '1.5']) expect((await undo(bad)).statusCode, String(bad)).toBe(400);
    const unknown = await undo(999999);
    expect([unknown.statusCode, unknown.json()]).toEqual([404, { detail: expect.stringMatching(/^No status change 999999 to undo/) }]);
    const events = await history();

    const undone = await undo(changeId);
    expect(undone.statusCode).toBe(200);
    expect(undone.json()).toEqual({ restored: 2 });
    expect(await statusOf()).toEqual(before);
    expect(await history()).toBe(events + 2);
    expect(await atms('tat=due_today')).toEqual(['dueToday']);
    const [audit] = await queryRows<{ action: string; detail: string }>(t.database.db, sql`select action, detail from audit_log order by id desc limit 1`);
    expect(audit).toEqual({ action: 'status_undo', detail: '2 disputes: status change undone (credited in bulk)' });
    expect((await undo(changeId)).json()).toEqual({ detail: 'This change has been undone already.' });

    // Changed since by another operator: the undo is refused whole, with who changed it.
    const again = (
      await call('POST', '/api/disputes/bulk-status/', { status: 'awaiting_msp', note: 'asked Atlas', ids: [disputeOf.fresh, disputeOf.dueToday] })
    ).json();
    expect((await call('POST', `/api/disputes/${disputeOf.fresh}/status/`, { status: 'open', note: 'not yet' }, other)).statusCode).toBe(200);
    const afterOther = await statusOf();
    const refused = await undo(again.change_id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ detail: `1 of these 2 disputes changed since (by undo-${backend}@example.com): nothing was undone.` });
    expect(await statusOf()).toEqual(afterOther);

    // A resolved dispute keeps the clock it was resolved under (here an older rule's due date);
    // reopened, it follows today's rule; undone, it has its own clock and penalty back.
    await t.database.db.execute(sql`update disputes set due_date = due_date + 3 where id = ${disputeOf.settled}`);
    const clock = async () => {
      const rows = (await call('GET', `${table}?page_size=100`)).json().results as Record<string, unknown>[];
      const { status, due_date, overdue_days, penalty } = rows.find((r) => r.atm_id === 'ATM-settled')!;
      return { status, due_date, overdue_days, penalty };
    };
    const resolvedClock = await clock();
    const reopened = (await call('POST', '/api/disputes/bulk-status/', { status: 'open', note: 'customer writes again', ids: [disputeOf.settled] })).json();
    expect(await clock()).toMatchObject({ status: 'open', due_date: daysAgo(25) });
    expect((await undo(reopened.change_id)).json()).toEqual({ restored: 1 });
    expect(await clock()).toEqual(resolvedClock);
  });

  it('counts the month’s open disputes by age, the breached ones and the penalty they have run up', async () => {
    const month = `${today.slice(0, 4)}-${new Date(`${today}T00:00:00Z`).toLocaleString('en', { month: 'short', timeZone: 'UTC' })}`;
    const answer = await call('GET', `/api/disputes/ageing/?date=${month}`);
    expect(answer.statusCode).toBe(200);
    const open = (await call('GET', `${table}?page_size=100&tat=open&start_date=${today.slice(0, 8)}01&end_date=${today}`)).json().results as {
      age_days: number;
      overdue_days: number;
      penalty: string;
      due_today: boolean;
    }[];
    const within = (from: number, to = Infinity) => open.filter((r) => r.age_days >= from && r.age_days <= to).length;
    expect(answer.json()).toEqual({
      days_0_2: within(0, 2),
      days_3_5: within(3, 5),
      days_6_10: within(6, 10),
      over_10: within(11),
      breached: open.filter((r) => r.overdue_days > 0).length,
      due_today: open.filter((r) => r.due_today).length,
      penalty_exposure: open.reduce((sum, r) => sum + Number(r.penalty), 0).toFixed(2),
      currency: open.length ? 'INR' : '',
    });
    for (const bad of ['', '2026-13', 'Nov-2026', '2026-Foo']) expect((await call('GET', `/api/disputes/ageing/?date=${bad}`)).statusCode).toBe(400);
  });

  describe('TAT rules', () => {
    const path = '/api/admin/tat-rules/';
    const harbor = {
      name: 'Apex fast track',
      scope: 'bank',
      scope_value: 'Apex Bank',
      clock_start: 'transaction_date',
      days: 2,
      day_kind: 'calendar',
      penalty_per_day: 50,
      currency: 'inr',
    };

    it('are an admin’s list: operators are refused', async () => {
      expect((await call('GET', path, undefined, operator)).statusCode).toBe(403);
      const rules = (await call('GET', path, undefined, administrator)).json();
      expect(rules).toEqual([
        expect.objectContaining({ scope: 'all', days: 5, day_kind: 'calendar', penalty_per_day: '100.00', currency: 'INR', holidays: [] }),
      ]);
    });

    it('refuse bad input with a 400 naming the field, and change nothing', async () => {
      const before = (await call('GET', path, undefined, administrator)).json();
      const bad: [unknown, RegExp][] = [
        [undefined, /body/],
        [{ ...harbor, scope: 'region' }, /scope/],
        [{ ...harbor, scope: 'all' }, /scope_value must be empty/],
        [{ ...harbor, scope_value: ' ' }, /scope_value must name the bank/],
        [{ ...harbor, days: -1 }, /days/],
        [{ ...harbor, days: 2.5 }, /days/],
        [{ ...harbor, day_kind: 'business' }, /day_kind/],
        [{ ...harbor, clock_start: 'received' }, /clock_start/],
        [{ ...harbor, holidays: ['2026-02-30'] }, /holidays/],
        [{ ...harbor, holidays: 'none' }, /holidays/],
        [{ ...harbor, penalty_per_day: -5 }, /penalty_per_day/],
        [{ ...harbor, penalty_per_day: '1.005' }, /penalty_per_day/],
        [{ ...harbor, currency: 'RUPEE' }, /currency/],
        [{ ...harbor, name: '' }, /name/],
        [{ ...harbor, extra: 1 }, /unknown field 'extra'/],
      ];
      for (const [body, detail] of bad) {
        const answer = await call('POST', path, body, administrator);
        expect(answer.statusCode, JSON.stringify(body)).toBe(400);
        expect(answer.json().detail).toMatch(detail);
      }
      expect((await call('PUT', `${path}999/`, harbor, administrator)).statusCode).toBe(404);
      expect((await call('GET', path, undefined, administrator)).json()).toEqual(before);
    });

    it('move the open disputes at once, and leave the resolved ones as they were resolved', async () => {
      const settledBefore = (await call('GET', `/api/disputes/${disputeOf.settled}/`)).json();
      const created = await call('POST', path, { ...harbor, holidays: ['2026-01-26', '2026-01-26'] }, administrator);
      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({ scope: 'bank', scope_value: 'Apex Bank', currency: 'INR', penalty_per_day: '50.00', holidays: ['2026-01-26'] });
      const fresh = (await call('GET', `/api/disputes/${disputeOf.fresh}/`)).json();
      expect(fresh).toMatchObject({ rule_name: 'Apex fast track', due_date: daysAgo(-1), penalty_per_day: '50.00' });
      expect((await call('GET', `/api/disputes/${disputeOf.settled}/`)).json()).toMatchObject({
        due_date: settledBefore.due_date,
        penalty: settledBefore.penalty,
      });
      const duplicate = await call('POST', path, { ...harbor, name: 'Another', scope_value: 'APEX BANK' }, administrator);
      expect(duplicate.statusCode).toBe(400);
      expect(duplicate.json().detail).toMatch(/already exists/);
      // Gone: the open disputes fall back to the rule for all.
      expect((await call('DELETE', `${path}${created.json().id}/`, undefined, administrator)).statusCode).toBe(204);
      expect((await call('GET', `/api/disputes/${disputeOf.fresh}/`)).json()).toMatchObject({
        rule_name: 'RBI harmonised TAT (failed ATM withdrawal)',
        due_date: daysAgo(-4),
      });
      const audits = await queryRows<{ action: string }>(t.database.db, sql`select action from audit_log where entity = 'tat_rule' order by id`);
      expect(audits.map((a) => a.action)).toEqual(['create', 'delete']);
    });

    it('give way in the list to a nearer deadline of the network’s rules: the clock the list sorts by', async () => {
      // A slow TAT rule (30 days): every TAT deadline is weeks off, in the transactions' order.
      const slow = await call('POST', path, { ...harbor, name: 'Apex slow', days: 30 }, administrator);
      expect(slow.statusCode).toBe(201);
      try {
        const byDueDate = await atms('tat=open&ordering=due_date');
        expect(byDueDate.at(-1)).toBe('fresh');
        // The fresh dispute is an NFS one whose chargeback is raised today: the acquirer's
        // representment is due in 5 days, nearer than any TAT deadline.
        expect((await call('POST', `/api/disputes/${disputeOf.fresh}/network/`, { network: 'NFS' })).statusCode).toBe(200);
        const staged = await call('POST', `/api/disputes/${disputeOf.fresh}/stage/`, { stage: 'chargeback_raised', note: 'Raised with NPCI' });
        expect(staged.statusCode).toBe(200);
        const others = byDueDate.slice(0, -1);
        expect(await atms('tat=open&ordering=next_deadline')).toEqual(['fresh', ...others]);
        expect(await atms('tat=open&ordering=-next_deadline')).toEqual([...others].reverse().concat('fresh'));
        // The TAT due date's own order is unchanged; a resolved dispute has no open deadline: last either way.
        expect(await atms('tat=open&ordering=due_date')).toEqual(byDueDate);
        const resolved = (await atms('tat=resolved')).sort();
        expect(resolved.length).toBeGreaterThan(0);
        for (const way of ['next_deadline', '-next_deadline']) expect((await atms(`ordering=${way}`)).slice(-resolved.length).sort(), way).toEqual(resolved);
        const rows = (await call('GET', `${table}?page_size=100&tat=open&ordering=next_deadline`)).json().results as Record<string, unknown>[];
        expect(rows[0]).toMatchObject({ atm_id: 'ATM-fresh', due_date: daysAgo(-29), next_deadline: daysAgo(-5), next_clock: 'Representment or acceptance' });
        expect(rows[1]).toMatchObject({ next_deadline: rows[1]!.due_date, next_clock: 'Apex slow' });
        const settled = (await call('GET', `${table}?page_size=100&tat=resolved&ordering=next_deadline`)).json().results as Record<string, unknown>[];
        expect(settled.map((r) => [r.next_deadline, r.next_clock])).toEqual(settled.map(() => [null, null]));
      } finally {
        expect((await call('DELETE', `${path}${slow.json().id}/`, undefined, administrator)).statusCode).toBe(204);
      }
    });
  });
});
