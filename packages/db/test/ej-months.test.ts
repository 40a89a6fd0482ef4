// A range of transaction dates over records stored by the month they were received: the page reads
// only the months holding the range (orders.ts, receivedBound), and must still be the plain query's
// page whatever months hold it: months with a partition, gaps between them and the years before
// and after them (the default partition), complaints received months after their transaction.
import { and, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ejConditions, ejOrderFields, ejRecords, listEjRecords, queryRows, type Database, type EjFilters } from '../src/index.ts';
import { type EjOrder, orderTerms } from '../src/ej-records/orders.ts';
import { seed } from '../src/seed.ts';
import { backends, migrated } from './backends.ts';

describe.each(backends)('EJ pages of a date range across months on %s', (backend) => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await migrated(backend));
    await seed(database.db, { emails: 0, ej: 3000, filesPerKind: 0, now: new Date('2026-06-15T12:00:00Z') });
    // Months of their own with gaps between (February, May and June stay in the default partition).
    for (const month of ['2026-01-01', '2026-03-01', '2026-04-01', '2026-07-01']) {
      await database.db.execute(sql`select month_partition('ej_records', ${month}::date)`);
    }
    // A busy day: more of the range's records than a page on one day.
    await database.db.execute(sql`update ej_records set transaction_date = '2026-02-03' where id % 5 = 1`);
    // Received up to 80 days after the transaction; some years before every month, some after.
    await database.db.execute(sql`
      update ej_records set create_at = case
        when id % 17 = 0 then timestamptz '2019-05-01 10:00:00+00' + id * interval '1 minute'
        when id % 19 = 0 then timestamptz '2031-02-01 10:00:00+00' + id * interval '1 minute'
        else coalesce(transaction_date, date '2026-03-10') + (id % 80) * interval '1 day' + interval '9 hours'
      end`);
  });
  afterAll(() => drop());

  const ranges: Pick<EjFilters, 'startDate' | 'endDate'>[] = [
    { startDate: '2026-02-01', endDate: '2026-02-07' },
    { startDate: '2026-01-01', endDate: '2026-05-31' },
    { startDate: '2026-04-20' },
    { endDate: '2026-01-15' },
    { startDate: '2026-06-01', endDate: '2026-06-14' },
  ];
  const orders: EjOrder[] = [
    { field: 'id', descending: true },
    { field: 'id', descending: false },
    { field: 'transaction_date', descending: true },
    { field: 'complaint_date', descending: false },
    { field: 'complaint_date', descending: true },
  ];
  const cases = ranges.flatMap((range) => [
    { kind: 'dispute' as const, ...range },
    { kind: 'overage' as const, ...range },
    { kind: 'dispute' as const, ...range, bankName: 'bank', mailSubject: 'dispute' },
  ]);

  type Paging = { page: number; pageSize: number };
  /** Each page of the filters in each order is the plain query's page (and the count its count, when `counted`). */
  const pagesAsPlain = async (filters: EjFilters, inOrders: EjOrder[], pages: Paging[], counted = false) => {
    for (const order of inOrders) {
      for (const page of pages) {
        const plain = await database.db
          .select({ id: ejRecords.id })
          .from(ejRecords)
          .where(ejConditions(filters))
          .orderBy(...orderTerms(order))
          .limit(page.pageSize)
          .offset((page.page - 1) * page.pageSize);
        if (page.page === 1) expect(plain.length).toBeGreaterThan(0);
        const listed = await listEjRecords(database.db, filters, page, order);
        expect(listed.rows.map((r) => r.id)).toEqual(plain.map((r) => r.id));
        if (!counted) continue;
        const [all] = await queryRows<{ n: string }>(database.db, sql`select count(*) as n from ej_records where ${ejConditions(filters)}`);
        expect(listed.count).toBe(Number(all!.n));
      }
    }
  };

  it('holds records of each range in months with a partition, in gaps and before and after them', async () => {
    const [held] = await queryRows<{ partitioned: number; outside: number; late: number }>(
      database.db,
      sql`select count(*) filter (where tableoid <> 'ej_records_default'::regclass)::int as partitioned,
                 count(*) filter (where tableoid = 'ej_records_default'::regclass)::int as outside,
                 count(*) filter (where create_at >= transaction_date + interval '31 days')::int as late
          from ej_records where ${ejConditions({ kind: 'dispute', startDate: '2026-01-01', endDate: '2026-05-31' })}`,
    );
    expect(held!.partitioned).toBeGreaterThan(0);
    expect(held!.outside).toBeGreaterThan(0);
    expect(held!.late).toBeGreaterThan(0);
  });

  it.each(cases)('pages %o as the plain query does, in each order', async (filters) => {
    await pagesAsPlain(filters, orders, [
      { page: 1, pageSize: 10 },
      { page: 4, pageSize: 25 },
      { page: 1, pageSize: 3000 },
    ]);
  });

  // The whole kind's first page is one named statement per order and size, whose plan PostgreSQL
  // keeps after its first five uses on a connection: asked seven times, each answer is the plain
  // query's, before and after records are added and deleted, in every order both ways.
  it('pages the whole kind from its first page in every order, as the plain query does, after writes too', async () => {
    const everyOrder = ejOrderFields.flatMap((field) => [
      { field, descending: true },
      { field, descending: false },
    ]);
    const firstPages = async () => {
      for (let time = 0; time < 7; time++) {
        for (const kind of ['dispute', 'overage'] as const) {
          await pagesAsPlain({ kind }, everyOrder, [
            { page: 1, pageSize: 10 },
            { page: 1, pageSize: 100 },
          ]);
        }
      }
    };
    await firstPages();
    const [newest] = await queryRows<{ id: string }>(database.db, sql`select max(id)::text as id from ej_records`);
    await database.db.execute(sql`insert into ej_records (kind, atm_id, card_no, txt_no, transaction_amt, transaction_date, create_at)
      select kind, atm_id, card_no, txt_no || 'n', transaction_amt * 3, transaction_date, now() from ej_records where id % 7 = 2`);
    await database.db.execute(sql`delete from ej_records where id % 13 = 6 and id <= ${newest!.id}::bigint`);
    await firstPages();
  });

  // A card, ATM or subject filter held by few records: each value is looked up only in the months
  // ej_values bounds it to (first_at, last_at), so those bounds must hold every record of the value
  // whatever has been written since; a value whose bounds are unknown is looked up everywhere.
  describe('a sparse text filter across months', () => {
    const sparse = async () => {
      // Two cards held by records received months and years apart, and the rest of the filters'
      // values as the seed made them.
      await database.db.execute(sql`update ej_records set card_no = '412345XXXXXX9001' where kind = 'dispute' and id % 97 = 3`);
      await database.db.execute(sql`update ej_records set card_no = '498765XXXXXX9002' where kind = 'dispute' and id % 89 = 5`);
      const [atm] = await queryRows<{ atm_id: string }>(database.db, sql`select atm_id from ej_records where kind = 'dispute' order by id limit 1`);
      return [{ cardNo: '9001' }, { cardNo: 'XXXXXX900' }, { cardNo: '498765' }, { atmId: atm!.atm_id }] satisfies Partial<EjFilters>[];
    };
    const boundsHold = async () => {
      const [broken] = await queryRows<{ n: number }>(
        database.db,
        sql`select count(*)::int as n from ej_records r join ej_values v on v.kind = r.kind and v.field = 'card_no' and v.value = r.card_no
            where v.first_at is not null and (r.create_at < v.first_at or r.create_at > v.last_at)`,
      );
      expect(broken!.n).toBe(0);
    };
    const sparsePages = (filters: EjFilters) =>
      pagesAsPlain(
        filters,
        orders,
        [
          { page: 1, pageSize: 10 },
          { page: 2, pageSize: 7 },
          { page: 1, pageSize: 3000 },
        ],
        true,
      );

    it('pages each as the plain query does, in each order, while records move, leave and come', async () => {
      const filters = await sparse();
      const [spread] = await queryRows<{ months: number }>(
        database.db,
        sql`select count(distinct date_trunc('month', create_at))::int as months from ej_records where card_no = '412345XXXXXX9001'`,
      );
      expect(spread!.months).toBeGreaterThan(3);
      await boundsHold();
      for (const f of filters) await sparsePages({ kind: 'dispute', ...f });
      // Received again years later, some deleted, one card's records all gone and then back in
      // another month: the bounds widen, hold, and start again.
      await database.db.execute(
        sql`update ej_records set create_at = timestamptz '2032-03-03 03:00:00+00' + id * interval '1 minute' where card_no = '412345XXXXXX9001' and id % 3 = 0`,
      );
      await database.db.execute(sql`delete from ej_records where card_no = '412345XXXXXX9001' and id % 3 = 1`);
      await database.db.execute(sql`update ej_records set card_no = '400000XXXXXX0000' where card_no = '498765XXXXXX9002'`);
      await database.db.execute(
        sql`update ej_records set card_no = '498765XXXXXX9002', create_at = timestamptz '2018-01-01 00:00:00+00' + id * interval '1 minute' where id in (select id from ej_records where kind = 'dispute' order by id limit 4)`,
      );
      await boundsHold();
      const [again] = await queryRows<{ first_at: string; last_at: string }>(
        database.db,
        sql`select first_at::text, last_at::text from ej_values where kind = 'dispute' and field = 'card_no' and value = '498765XXXXXX9002'`,
      );
      expect(again!.first_at.slice(0, 4)).toBe('2018');
      expect(again!.last_at.slice(0, 4)).toBe('2018');
      for (const f of filters) await sparsePages({ kind: 'dispute', ...f });
    });

    it('looks a value up in every month while its bounds are not known (counted before they were kept)', async () => {
      await database.db.execute(sql`update ej_values set first_at = null, last_at = null where field = 'card_no' and value like '412345%'`);
      await sparsePages({ kind: 'dispute', cardNo: '9001' });
      // A record received while the bounds are unknown leaves them unknown.
      await database.db.execute(
        sql`update ej_records set create_at = timestamptz '2033-01-01 00:00:00+00' where id = (select min(id) from ej_records where card_no = '412345XXXXXX9001')`,
      );
      const [kept] = await queryRows<{ unknown: boolean }>(
        database.db,
        sql`select first_at is null as unknown from ej_values where kind = 'dispute' and field = 'card_no' and value = '412345XXXXXX9001'`,
      );
      expect(kept!.unknown).toBe(true);
      await sparsePages({ kind: 'dispute', cardNo: '9001' });
    });
  });

  // The complaint order's bound comes from ej_counts' rows (their records' earliest and latest
  // complaint, and whether one had none), which must bound the records whatever has been written.
  it('bounds the complaint order from the counted days while complaints move, leave and go missing', async () => {
    const complaintOrders = orders.filter((o) => o.field === 'complaint_date');
    const boundsHold = async () => {
      const [broken] = await queryRows<{ n: number }>(
        database.db,
        sql`select count(*)::int as n from ej_records r join ej_counts c on c.kind = r.kind and c.bank_name = r.bank_name
              and c.mail_received_from = r.mail_received_from and c.transaction_day = coalesce(r.transaction_date, '-infinity'::date)
            where c.complaint_missing is not null
              and (r.complaint_date < c.complaint_first or r.complaint_date > c.complaint_last or (r.complaint_date is null and not c.complaint_missing))`,
      );
      expect(broken!.n).toBe(0);
    };
    const complaintPages = async () => {
      for (const range of ranges) await pagesAsPlain({ kind: 'dispute', ...range }, complaintOrders, [{ page: 2, pageSize: 10 }]);
    };
    await boundsHold();
    await complaintPages();
    // Complaints received far earlier and later than the rest, some records gone, then some with
    // no complaint date at all.
    await database.db.execute(sql`update ej_records set complaint_date = date '2020-01-01' + (id % 7)::int where id % 23 = 4`);
    await database.db.execute(sql`update ej_records set complaint_date = date '2029-12-01' + (id % 7)::int where id % 29 = 6`);
    await database.db.execute(sql`delete from ej_records where id % 31 = 2`);
    await boundsHold();
    await complaintPages();
    await database.db.execute(sql`update ej_records set complaint_date = null where id % 37 = 8`);
    await boundsHold();
    await complaintPages();
    // Rows counted before the bounds were kept: the records are read instead.
    // beside rows whose bounds are known but would be wrong, were they read.
    await database.db.execute(sql`update ej_records set complaint_date = coalesce(complaint_date, date '2026-02-10')`);
    await database.db.execute(
      sql`update ej_counts set complaint_first = date '2026-06-01', complaint_last = date '2026-06-02',
            complaint_missing = case when extract(day from transaction_day)::int % 2 = 1 then null else false end`,
    );
    await complaintPages();
  });

  it('finds the records a month received long after every partition, and none for a range no record is in', async () => {
    const [latest] = await database.db
      .select({ id: ejRecords.id })
      .from(ejRecords)
      .where(and(ejConditions({ kind: 'dispute', startDate: '2026-01-01' }), sql`${ejRecords.createAt} >= '2031-01-01'`))
      .orderBy(...orderTerms({ field: 'id', descending: true }))
      .limit(1);
    expect(latest).toBeDefined();
    const listed = await listEjRecords(database.db, { kind: 'dispute', startDate: '2026-01-01' }, { page: 1, pageSize: 3000 });
    expect(listed.rows.map((r) => r.id)).toContain(latest!.id);
    const none = await listEjRecords(database.db, { kind: 'dispute', startDate: '2010-01-01', endDate: '2010-12-31' }, { page: 1, pageSize: 10 });
    expect(none).toMatchObject({ count: 0, rows: [] });
  });

  // Past 2,000 records the whole kind's page starts from its block of ids and is planned over the
  // months holding those ids alone (idsReceived, each month's ids kept with the write version):
  // still the plain query's page when records of those ids move to other months, leave or come.
  // Last: the records are received in id order first (each month holds a run of ids, as mail does).
  it('pages the whole kind deep down as the plain query does, while records move between months', async () => {
    await database.db.execute(sql`update ej_records set create_at = timestamptz '2026-01-01 00:00:00+00' + id * interval '1 hour'`);
    const deepPages = async () => {
      const [all] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from ej_records where kind = 'dispute'`);
      expect(all!.n).toBeGreaterThan(2100);
      const last = (size: number) => ({ page: Math.ceil(all!.n / size), pageSize: size });
      await pagesAsPlain(
        { kind: 'dispute' },
        [{ field: 'id', descending: true }],
        [{ page: 201, pageSize: 10 }, { page: 210, pageSize: 10 }, { page: 2, pageSize: 2050 }, { page: 300, pageSize: 7 }, last(10), last(7)],
      );
    };
    await deepPages();
    const [spread] = await queryRows<{ months: number }>(
      database.db,
      sql`select count(distinct date_trunc('month', create_at))::int as months from ej_records where kind = 'dispute'`,
    );
    expect(spread!.months).toBeGreaterThan(3);
    // The oldest ids (the deep pages') received again in the newest month and years before all,
    // some gone, and new records received in the oldest month.
    await database.db.execute(sql`update ej_records set create_at = (select max(create_at) from ej_records) where kind = 'dispute' and id % 3 = 0
      and id < (select min(id) + 600 from ej_records)`);
    await database.db.execute(sql`update ej_records set create_at = timestamptz '2017-03-01 08:00:00+00' where id % 7 = 1`);
    await database.db.execute(sql`delete from ej_records where kind = 'dispute' and id % 11 = 4`);
    await database.db.execute(sql`insert into ej_records (kind, atm_id, transaction_date, create_at)
      select kind, atm_id, transaction_date, timestamptz '2026-01-02 00:00:00+00' from ej_records where id % 9 = 2`);
    await deepPages();
  });
});
