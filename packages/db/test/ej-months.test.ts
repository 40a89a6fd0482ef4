// A range of transaction dates over records stored by the month they were received: the page reads
// only the months holding the range (orders.ts, receivedBound), and must still be the plain query's
// page whatever months hold it: months with a partition, gaps between them and the years before
// and after them (the default partition), complaints received months after their transaction.
import { and, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ejConditions, ejRecords, listEjRecords, queryRows, type Database, type EjFilters } from '../src/index.ts';
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
    for (const order of orders) {
      for (const page of [
        { page: 1, pageSize: 10 },
        { page: 4, pageSize: 25 },
        { page: 1, pageSize: 3000 },
      ]) {
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
      }
    }
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
});
