// The turnaround clock on both backends: calendar and working days across weekends, holidays and
// month ends, either clock start, the penalty on the due day and the day after, a resolved
// dispute's clock stopped, the most specific rule winning, a changed rule moving the open disputes
// (not the resolved ones), records grouped into disputes by transaction and card, the mail's word
// on a status, 16 parallel status changes of one dispute leaving one consistent history, and the
// list's clock filters, orders and counts and the ageing card (read from copies of the clocks and
// from dispute_counts, kept by triggers) agreeing with the disputes themselves after every change.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  clockFields,
  clockOn,
  createUser,
  disputeAgeing,
  listEjRecords,
  tatCondition,
  tatFilters,
  queryRows,
  setDisputeStatus,
  tatRuleList,
  verdictOfRow,
  type Database,
  type Operator,
  type EjFilters,
  type EjOrder,
  type TatRuleInput,
} from '../src/index.ts';
import { backends, migrated } from './backends.ts';

const rbi: TatRuleInput = {
  name: 'RBI harmonised TAT (failed ATM withdrawal)',
  scope: 'all',
  scopeValue: '',
  clockStart: 'transaction_date',
  days: 5,
  dayKind: 'calendar',
  holidays: [],
  penaltyPerDay: '100',
  currency: 'INR',
};

interface Row {
  atm?: string;
  txn?: string;
  card?: string;
  bank?: string;
  transactionDate?: string | null;
  complaintDate?: string | null;
  remarks?: string;
}

describe.each(backends)('the turnaround clock on %s', (backend) => {
  let database: Database;
  let drop: () => Promise<void>;
  let operator: Operator;
  let counter = 0;
  beforeAll(async () => {
    ({ database, drop } = await migrated(backend));
    const user = await createUser(database.db, 'desk@example.com', 'x');
    operator = { id: user!.id, email: 'desk@example.com' };
  }, 60_000);
  afterAll(() => drop());
  beforeEach(async () => {
    for (const table of ['ej_records', 'disputes', 'bank_msps']) await database.db.execute(sql`delete from ${sql.identifier(table)}`);
    await database.db.execute(sql`delete from tat_rules where scope <> 'all'`);
    await changeDefault({});
  });

  /** Dispute records as the ingester writes them, linked as it links them; their dispute ids. */
  const addRecords = async (...rows: Row[]): Promise<number[]> => {
    const ids: number[] = [];
    for (const r of rows) {
      const [row] = await queryRows<{ id: string }>(
        database.db,
        sql`insert into ej_records (kind, atm_id, txt_no, card_no, bank_name, transaction_date, complaint_date, msp_remarks)
            values ('dispute', ${r.atm ?? 'ATM1'}, ${r.txn ?? `T${++counter}`}, ${r.card ?? ''}, ${r.bank ?? 'Harbor Bank'},
                    ${r.transactionDate === undefined ? '2026-01-10' : r.transactionDate}::date, ${r.complaintDate ?? null}::date, ${r.remarks ?? ''})
            returning id`,
      );
      await database.db.execute(sql`select dispute_records_link(null)`);
      const [link] = await queryRows<{ dispute_id: string }>(database.db, sql`select dispute_id from dispute_records where record_id = ${row!.id}`);
      ids.push(Number(link!.dispute_id));
    }
    return ids;
  };
  const clock = async (id: number, today: string) => {
    const [row] = await queryRows<Record<string, unknown>>(
      database.db,
      sql`select ${clockFields(today)}, disputes.clock_started_on::text as started, disputes.rule_id from disputes where disputes.id = ${id}`,
    );
    return row!;
  };
  const defaultRule = async () => (await tatRuleList.list(database.db)).find((r) => r.scope === 'all')!;
  const changeDefault = async (change: Partial<TatRuleInput>) => {
    const rule = await defaultRule();
    const written = await tatRuleList.change(database.db, operator.id, rule.id, { ...rbi, ...change });
    expect(written).toMatchObject({ id: rule.id });
  };

  it('seeds the RBI rule: T+5 calendar days, Rs 100 a day after, across a month end and a leap day', async () => {
    expect(await defaultRule()).toMatchObject({
      scope: 'all',
      clock_start: 'transaction_date',
      days: 5,
      day_kind: 'calendar',
      penalty_per_day: '100.00',
      currency: 'INR',
    });
    const [jan, leap, yearEnd] = await addRecords({ transactionDate: '2026-01-29' }, { transactionDate: '2028-02-27' }, { transactionDate: '2026-12-29' });
    expect(await clock(jan!, '2026-01-29')).toMatchObject({ due_date: '2026-02-03', age_days: 0, overdue_days: 0, penalty: '0.00', status: 'open' });
    expect(await clock(leap!, '2028-02-27')).toMatchObject({ due_date: '2028-03-03' });
    expect(await clock(yearEnd!, '2027-01-05')).toMatchObject({ due_date: '2027-01-03', age_days: 7, overdue_days: 2, penalty: '200.00' });
  });

  it('charges nothing on the due day and a day’s penalty the day after', async () => {
    const [id] = await addRecords({ transactionDate: '2026-03-02' });
    expect(await clock(id!, '2026-03-07')).toMatchObject({ due_date: '2026-03-07', overdue_days: 0, penalty: '0.00', age_days: 5 });
    expect(await clock(id!, '2026-03-08')).toMatchObject({ overdue_days: 1, penalty: '100.00', age_days: 6 });
    expect(await clock(id!, '2026-03-20')).toMatchObject({ overdue_days: 13, penalty: '1300.00' });
  });

  it('counts working days past weekends and holidays, across month and year ends', async () => {
    await changeDefault({ dayKind: 'working', holidays: ['2026-11-04', '2026-12-31', '2027-01-01'] });
    // Friday 30 October: Mon 2, Tue 3, (Wed 4 a holiday), Thu 5, Fri 6, (weekend), Mon 9.
    const [october, december, saturday] = await addRecords(
      { transactionDate: '2026-10-30' },
      { transactionDate: '2026-12-28' },
      { transactionDate: '2026-11-07' },
    );
    expect(await clock(october!, '2026-11-09')).toMatchObject({ due_date: '2026-11-09', overdue_days: 0 });
    // Monday 28 December: Tue 29, Wed 30, (31 and 1 holidays, weekend), Mon 4, Tue 5, Wed 6.
    expect(await clock(december!, '2027-01-08')).toMatchObject({ due_date: '2027-01-06', overdue_days: 2, penalty: '200.00' });
    // A clock started on a Saturday counts from Monday: Mon 9 ... Fri 13.
    expect(await clock(saturday!, '2026-11-13')).toMatchObject({ due_date: '2026-11-13' });
  });

  it('starts the clock on the complaint date when the rule says so; no date, no due date', async () => {
    await changeDefault({ clockStart: 'complaint_date', days: 3 });
    const [both, none] = await addRecords(
      { transactionDate: '2026-05-01', complaintDate: '2026-05-10' },
      { transactionDate: '2026-05-01', complaintDate: null },
    );
    expect(await clock(both!, '2026-05-12')).toMatchObject({ started: '2026-05-10', due_date: '2026-05-13', age_days: 2 });
    expect(await clock(none!, '2026-05-12')).toMatchObject({ started: null, due_date: null, age_days: null, overdue_days: 0, penalty: '0.00' });
  });

  it('applies the most specific rule: the bank’s, then its MSP’s, then the one for all', async () => {
    await database.db.execute(sql`insert into bank_msps (msp, bank_name) values ('Acme MSP', 'Harbor Bank'), ('Acme MSP', 'Apex Bank')`);
    const msp = await tatRuleList.create(database.db, operator.id, {
      ...rbi,
      name: 'Acme',
      scope: 'msp',
      scopeValue: 'acme msp',
      days: 7,
      penaltyPerDay: '50',
    });
    const bank = await tatRuleList.create(database.db, operator.id, {
      ...rbi,
      name: 'Harbor',
      scope: 'bank',
      scopeValue: 'Harbor Bank',
      days: 2,
      penaltyPerDay: '10',
    });
    const [harbor, apex, other] = await addRecords({ bank: 'HARBOR BANK' }, { bank: 'Apex Bank' }, { bank: 'Lone Bank' });
    expect(await clock(harbor!, '2026-01-10')).toMatchObject({ rule_id: (bank as { id: number }).id, due_date: '2026-01-12' });
    expect(await clock(apex!, '2026-01-10')).toMatchObject({ rule_id: (msp as { id: number }).id, due_date: '2026-01-17' });
    expect(await clock(other!, '2026-01-10')).toMatchObject({ rule_id: (await defaultRule()).id, due_date: '2026-01-15' });
    // One rule per scope, in any case.
    expect(await tatRuleList.create(database.db, operator.id, { ...rbi, name: 'Harbor again', scope: 'bank', scopeValue: 'harbor bank' })).toBe('conflict');
    // The bank's rule goes: its disputes fall to the MSP's at once.
    await tatRuleList.remove(database.db, operator.id, (bank as { id: number }).id);
    expect(await clock(harbor!, '2026-01-10')).toMatchObject({ rule_id: (msp as { id: number }).id, due_date: '2026-01-17' });
  });

  it('moves open disputes when a rule changes, and keeps a resolved dispute’s clock stopped', async () => {
    const [open, resolved] = await addRecords({ transactionDate: '2026-02-01' }, { transactionDate: '2026-02-01' });
    await setDisputeStatus(database.db, { ids: [resolved!] }, { status: 'resolved', outcome: 'credited', note: 'credited on the 9th' }, operator, '2026-02-09');
    expect(await clock(resolved!, '2026-03-01')).toMatchObject({ status: 'resolved', outcome: 'credited', age_days: 8, overdue_days: 3, penalty: '300.00' });
    await changeDefault({ days: 10, penaltyPerDay: '25' });
    expect(await clock(open!, '2026-02-20')).toMatchObject({ due_date: '2026-02-11', overdue_days: 9, penalty: '225.00' });
    expect(await clock(resolved!, '2026-03-01')).toMatchObject({ due_date: '2026-02-06', penalty: '300.00' });
    // Opened again, it takes the rule as it is now and its clock runs on.
    await setDisputeStatus(database.db, { ids: [resolved!] }, { status: 'open', outcome: null, note: 'customer says not received' }, operator, '2026-03-01');
    expect(await clock(resolved!, '2026-03-01')).toMatchObject({ status: 'open', due_date: '2026-02-11', overdue_days: 18, penalty: '450.00' });
  });

  it('groups records of one transaction into one dispute: the same card, or a card on one side only', async () => {
    const [first, same, noCard, otherCard, otherAtm] = await addRecords(
      { atm: 'HRB001', txn: '4711', card: '4111xxxxxxxx1111' },
      { atm: 'HRB001', txn: '4711', card: '4111xxxxxxxx1111' },
      { atm: 'HRB001', txn: '4711', card: '' },
      { atm: 'HRB001', txn: '4711', card: '5500xxxxxxxx0004' },
      { atm: 'HRB002', txn: '4711', card: '4111xxxxxxxx1111' },
    );
    expect([same, noCard]).toEqual([first, first]);
    expect(new Set([first, otherCard, otherAtm]).size).toBe(3);
    // Without an ATM ID or a transaction number a record is its own dispute.
    const [a, b] = await addRecords({ atm: '', txn: '1' }, { atm: '', txn: '1' });
    expect(a).not.toBe(b);
  });

  it('reads the mail’s word on a status from the remarks, and an MSP’s result as its answer', () => {
    const bank = { msp: null, fileName: 'complaints.xlsx' };
    const msp = { msp: 'Acme MSP', fileName: 'results.xlsx' };
    const said = (remarks: string, from: typeof bank | typeof msp = bank) => verdictOfRow({ mspRemarks: remarks, shortDescription: '' }, from);
    expect(said('Customer credited')).toMatchObject({ status: 'resolved', outcome: 'credited' });
    expect(said('Amount reversed to customer on 12/01')).toMatchObject({ status: 'resolved', outcome: 'credited' });
    expect(said('Txn successful as per EJ', msp)).toMatchObject({ status: 'resolved', outcome: 'rejected' });
    expect(said('Unsuccessful transaction, cash retracted')).toBeNull();
    expect(said('Not yet credited')).toBeNull();
    expect(said('Under investigation')).toMatchObject({ status: 'awaiting_msp', outcome: null });
    expect(said('Checked, see attached', msp)).toMatchObject({ status: 'resolved', outcome: 'other' });
    expect(said('Customer credited', msp)!.reason).toBe('Remark says credited: "Customer credited" in Acme MSP\'s result (results.xlsx)');
    expect(said('')).toBeNull();
  });

  it('lists, counts and orders by the clock as the disputes themselves say, after links, rule and status changes and deletions', async () => {
    await database.db.execute(sql`insert into bank_msps (msp, bank_name) values ('Acme MSP', 'Apex Bank')`);
    await tatRuleList.create(database.db, operator.id, {
      ...rbi,
      name: 'Harbor',
      scope: 'bank',
      scopeValue: 'Harbor Bank',
      days: 3,
      dayKind: 'working',
      penaltyPerDay: '50',
    });
    await tatRuleList.create(database.db, operator.id, {
      ...rbi,
      name: 'Acme',
      scope: 'msp',
      scopeValue: 'Acme MSP',
      penaltyPerDay: '0',
      clockStart: 'complaint_date',
    });
    const banks = ['Harbor Bank', 'Apex Bank', 'Lone Bank'];
    const senders = ['disputes@harbor.example', 'ops@acme.example'];
    // 90 records over three weeks of January: some of one transaction, some without a date.
    const values = Array.from({ length: 90 }, (_, i) => {
      const day = String(1 + (i % 24)).padStart(2, '0');
      return sql`('dispute', ${`ATM${i % 7}`}, ${`T${Math.floor(i / 3) * (i % 4 === 0 ? 1 : 7) + i}`}, ${banks[i % 3]}, ${senders[i % 2]},
        ${i % 11 === 0 ? null : `2026-01-${day}`}::date, ${`2026-01-${String(Math.min(28, 2 + (i % 24))).padStart(2, '0')}`}::date)`;
    });
    await database.db.execute(sql`insert into ej_records (kind, atm_id, txt_no, bank_name, mail_received_from, transaction_date, complaint_date)
      values ${sql.join(values, sql`, `)}`);
    await database.db.execute(sql`select dispute_records_link(null)`);

    const today = '2026-01-20';
    /** The records the disputes themselves select, in the order asked, with their penalty. */
    const reference = async (f: EjFilters, order: EjOrder) => {
      const clock = clockOn(today);
      // The nearest open deadline, computed when read: the TAT due date and each running rule-set clock.
      const nearest = sql`case when d.status <> 'resolved'
        then least(d.due_date, (select min(c.due_on) from dispute_rule_clocks(d.id) c where c.stopped_on is null)) end`;
      const key =
        order.field === 'due_date' ? sql`d.due_date` : order.field === 'next_deadline' ? nearest : order.field === 'penalty' ? clock.penalty : sql`r.id`;
      const way = order.descending ? sql`desc` : sql`asc`;
      const rows = await queryRows<{ id: string }>(
        database.db,
        sql`select r.id from ej_records r join dispute_records l on l.record_id = r.id join disputes on disputes.id = l.dispute_id, disputes d
            where d.id = disputes.id and r.kind = 'dispute'
              and ${tatCondition(f.tat, today, { from: f.ageFrom, to: f.ageTo }) ?? sql`true`}
              and (${f.bankName ?? null}::text is null or r.bank_name ilike '%' || ${f.bankName ?? ''} || '%')
              and (${f.atmId ?? null}::text is null or r.atm_id ilike '%' || ${f.atmId ?? ''} || '%')
              and (${f.startDate ?? null}::date is null or r.transaction_date >= ${f.startDate ?? null}::date)
              and (${f.endDate ?? null}::date is null or r.transaction_date <= ${f.endDate ?? null}::date)
            order by ${key} ${way} nulls last, r.id ${way}`,
      );
      return rows.map((r) => Number(r.id));
    };
    const orders: EjOrder[] = (['id', 'due_date', 'next_deadline', 'penalty'] as const).flatMap((field) => [
      { field, descending: false },
      { field, descending: true },
    ]);
    const shapes: Omit<EjFilters, 'kind' | 'today'>[] = [
      {},
      ...tatFilters.map((tat) => ({ tat })),
      { tat: 'open', ageFrom: 3, ageTo: 10 },
      { tat: 'breached', bankName: 'harbor' },
      { tat: 'open', atmId: 'ATM3' },
      { atmId: 'atm5' },
      { tat: 'resolved', ageFrom: 2 },
      { ageTo: 5 },
      { tat: 'open', startDate: '2026-01-10' },
      // Clock and dates alone: picked from dispute_records' own copies.
      { tat: 'breached', startDate: '2026-01-05', endDate: '2026-01-15' },
      { tat: 'resolved', endDate: '2026-01-12' },
      { tat: 'due_soon', startDate: '2026-01-12', endDate: '2026-01-20' },
    ];
    const agree = async (step: string) => {
      for (const shape of shapes) {
        const filters: EjFilters = { kind: 'dispute', today, ...shape };
        for (const order of orders) {
          const expected = await reference(filters, order);
          const all = await listEjRecords(database.db, filters, { page: 1, pageSize: 500 }, order);
          const what = `${step}: ${JSON.stringify(shape)} by ${order.descending ? '-' : ''}${order.field}`;
          expect(all.count, what).toBe(expected.length);
          expect(
            all.rows.map((r) => r.id),
            what,
          ).toEqual(expected);
          // A first page in a screen's size (a kept plan, asked at every step) and a later page are the same slices.
          const first = await listEjRecords(database.db, filters, { page: 1, pageSize: 10 }, order);
          expect(
            first.rows.map((r) => r.id),
            `${what}, first page of 10`,
          ).toEqual(expected.slice(0, 10));
          const second = await listEjRecords(database.db, filters, { page: 2, pageSize: 7 }, order);
          expect(
            second.rows.map((r) => r.id),
            `${what}, page 2`,
          ).toEqual(expected.slice(7, 14));
        }
      }
      const [card] = await queryRows<Record<string, string | number>>(
        database.db,
        sql`select count(*) filter (where ${clockOn(today).age} between 0 and 2)::int as days_0_2,
              count(*) filter (where ${clockOn(today).age} between 3 and 5)::int as days_3_5,
              count(*) filter (where ${clockOn(today).age} between 6 and 10)::int as days_6_10,
              count(*) filter (where ${clockOn(today).age} >= 11)::int as over_10,
              count(*) filter (where disputes.due_date < ${today}::date)::int as breached,
              coalesce(sum(${clockOn(today).penalty}), 0)::text as penalty_exposure
            from ej_records r join dispute_records l on l.record_id = r.id join disputes on disputes.id = l.dispute_id
            where r.kind = 'dispute' and r.transaction_date between '2026-01-01' and '2026-01-31' and disputes.status <> 'resolved'`,
      );
      const ageing = await disputeAgeing(database.db, '2026-01-01', '2026-01-31', today);
      expect({ ...ageing, penalty_exposure: Number(ageing.penalty_exposure) }, `${step}: the ageing card`).toMatchObject({
        ...card,
        penalty_exposure: Number(card!.penalty_exposure),
      });
    };

    await agree('linked');
    const disputeIds = (await queryRows<{ id: string }>(database.db, sql`select id from disputes order by id`)).map((r) => Number(r.id));
    await setDisputeStatus(
      database.db,
      { ids: disputeIds.filter((_, i) => i % 3 === 0) },
      { status: 'resolved', outcome: 'credited', note: 'paid' },
      operator,
      '2026-01-12',
    );
    await setDisputeStatus(
      database.db,
      { ids: disputeIds.filter((_, i) => i % 5 === 1) },
      { status: 'awaiting_msp', outcome: null, note: 'asked' },
      operator,
      '2026-01-14',
    );
    await setDisputeStatus(
      database.db,
      { ids: disputeIds.filter((_, i) => i % 6 === 0) },
      { status: 'resolved', outcome: 'rejected', note: 'late' },
      operator,
      today,
    );
    await agree('statuses set');
    // Networks and stages: NFS and Visa disputes run their rule sets' clocks, some nearer than the TAT
    // rule's; Regulation E on runs its clocks on every dispute.
    await database.db.execute(sql`update disputes set network = case when id % 4 = 0 then 'NFS' when id % 4 = 1 then 'Visa' else '' end`);
    await database.db.execute(sql`insert into dispute_stages (dispute_id, stage, entered_on)
      select id, 'chargeback_raised', date '2026-01-10' + (id % 5)::int from disputes where id % 3 = 1`);
    await agree('networks and stages');
    await database.db.execute(sql`update rule_sets set active = true where name = 'Regulation E'`);
    await agree('a rule set on');
    await database.db.execute(sql`update rule_sets set active = false where name = 'Regulation E'`);
    await changeDefault({ days: 2, penaltyPerDay: '75' });
    await tatRuleList.create(database.db, operator.id, { ...rbi, name: 'Lone', scope: 'bank', scopeValue: 'Lone Bank', days: 1, penaltyPerDay: '75' });
    await agree('rules changed');
    await setDisputeStatus(
      database.db,
      { ids: disputeIds.filter((_, i) => i % 9 === 0) },
      { status: 'open', outcome: null, note: 'reopened' },
      operator,
      today,
    );
    await database.db.execute(sql`delete from ej_records where id in (select id from ej_records order by id limit 10)`);
    // As a reprocessed message goes: its records, then the disputes left without one.
    await database.db.execute(sql`delete from ej_records where id in (select record_id from dispute_records where dispute_id = ${disputeIds.at(-1)!})`);
    await database.db.execute(sql`delete from disputes where id = ${disputeIds.at(-1)!}`);
    await agree('reopened and deleted');
  }, 120_000);

  // A part of an ATM ID held by few records under a clock filter: a shallow page in id order merges
  // each matching ATM's own walk (valueMergedIds), a deeper one reads them all, and each must still
  // be the disputes' own page, both ways.
  it('pages a few ATMs under each clock filter in id order as the disputes themselves say', async () => {
    const today = '2026-01-20';
    const values = Array.from(
      { length: 8000 },
      (_, i) => sql`('dispute', ${`M${String(i % 1000).padStart(4, '0')}`}, ${`MT${i}`}, ${`2026-01-${String(1 + (i % 24)).padStart(2, '0')}`}::date)`,
    );
    await database.db.execute(sql`insert into ej_records (kind, atm_id, txt_no, transaction_date) values ${sql.join(values, sql`, `)}`);
    await database.db.execute(sql`select dispute_records_link(null)`);
    const few = await queryRows<{ id: string }>(
      database.db,
      sql`select distinct l.dispute_id as id from dispute_records l join ej_records r on r.id = l.record_id where r.atm_id like 'M001%'`,
    );
    const ids = few.map((r) => Number(r.id));
    await setDisputeStatus(
      database.db,
      { ids: ids.filter((_, i) => i % 3 === 0) },
      { status: 'resolved', outcome: 'credited', note: 'paid' },
      operator,
      '2026-01-15',
    );
    for (const tat of tatFilters) {
      for (const descending of [false, true]) {
        const filters: EjFilters = { kind: 'dispute', today, tat, atmId: 'm001' };
        const way = descending ? sql`desc` : sql`asc`;
        const expected = (
          await queryRows<{ id: string }>(
            database.db,
            sql`select r.id from ej_records r join dispute_records l on l.record_id = r.id join disputes on disputes.id = l.dispute_id
                where r.kind = 'dispute' and r.atm_id ilike '%m001%' and ${tatCondition(tat, today) ?? sql`true`} order by r.id ${way}`,
          )
        ).map((r) => Number(r.id));
        const order: EjOrder = { field: 'id', descending };
        const what = `tat=${tat} by ${descending ? '-' : ''}id`;
        for (const page of [1, 2, 3]) {
          const listed = await listEjRecords(database.db, filters, { page, pageSize: 1 }, order);
          expect(listed.count, what).toBe(expected.length);
          expect(
            listed.rows.map((r) => r.id),
            `${what}, page ${page}`,
          ).toEqual(expected.slice(page - 1, page));
        }
        const all = await listEjRecords(database.db, filters, { page: 1, pageSize: 500 }, order);
        expect(
          all.rows.map((r) => r.id),
          what,
        ).toEqual(expected);
      }
    }
  });

  it.runIf(backend === 'postgres')('keeps one consistent history under 16 parallel status changes of one dispute', async () => {
    const [id] = await addRecords({});
    const changes = Array.from({ length: 16 }, (_, i) =>
      i % 2 === 0
        ? ({ status: 'resolved', outcome: 'credited', note: `change ${i}` } as const)
        : ({ status: 'awaiting_msp', outcome: null, note: `change ${i}` } as const),
    );
    const results = await Promise.all(changes.map((c) => setDisputeStatus(database.db, { ids: [id!] }, c, operator, '2026-01-20')));
    expect(results.every((r) => r.ids.length === 1 && r.ids[0] === id)).toBe(true);
    const history = await queryRows<{ status: string; outcome: string | null; note: string }>(
      database.db,
      sql`select status, outcome, note from dispute_events where dispute_id = ${id} order by id`,
    );
    expect(history).toHaveLength(16);
    expect(new Set(history.map((h) => h.note)).size).toBe(16);
    const [now] = await queryRows<{ status: string; outcome: string | null; status_reason: string; stopped_on: string | null }>(
      database.db,
      sql`select status, outcome, status_reason, stopped_on::text from disputes where id = ${id}`,
    );
    const last = history.at(-1)!;
    expect(now).toMatchObject({ status: last.status, outcome: last.outcome, status_reason: last.note });
    expect(now!.stopped_on).toBe(last.status === 'resolved' ? '2026-01-20' : null);
    const audits = await queryRows<{ n: string }>(database.db, sql`select count(*) as n from audit_log where entity = 'dispute' and entity_id = ${String(id)}`);
    expect(Number(audits[0]!.n)).toBe(16);
  });
});
