// The EJ counter rows (ej_counts, ej_values) against counting the records themselves, after
// inserts, updates and deletes, on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
import { count, desc, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ejConditions, ejRecords, listEjRecords, type Database, type EjFilters } from '../src/index.ts';
import { backends, migrated } from './backends.ts';
import { seed } from '../src/seed.ts';

describe.each(backends)('EJ counts on %s', (backend) => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await migrated(backend));
    await seed(database.db, { emails: 0, ej: 4000, filesPerKind: 0, now: new Date('2026-06-15T12:00:00Z') });
    await database.db
      .update(ejRecords)
      .set({ bankName: 'Renamed Bank', transactionDate: null })
      .where(sql`${ejRecords.id} % 9 = 0`);
    await database.db
      .update(ejRecords)
      .set({
        atmId: sql`'ZZ' || ${ejRecords.atmId}`,
        mailSubject: 'Moved subject',
        kind: sql`case when ${ejRecords.kind} = 'dispute' then 'overage' else 'dispute' end`,
      })
      .where(sql`${ejRecords.id} % 7 = 0`);
    await database.db.delete(ejRecords).where(sql`${ejRecords.id} % 13 = 0`);
  });
  afterAll(() => drop());

  const cases: EjFilters[] = [
    { kind: 'dispute' },
    { kind: 'overage' },
    { kind: 'dispute', bankName: 'HARBOR' },
    { kind: 'dispute', bankName: 'renamed' },
    { kind: 'succeeding', mailReceivedFrom: 'orbit' },
    { kind: 'dispute', startDate: '2026-01-01', endDate: '2026-03-31', bankName: 'bank', mailReceivedFrom: '.example' },
    { kind: 'dispute', atmId: 'APX' },
    { kind: 'dispute', atmId: 'zz' },
    { kind: 'overage', atmId: 'ZZAPX' },
    { kind: 'dispute', mailSubject: 'dispute' },
    { kind: 'dispute', mailSubject: 'moved SUBJECT' },
    { kind: 'overage', mailSubject: 'moved' },
    { kind: 'dispute', bankName: 'bank' },
    { kind: 'dispute', mailReceivedFrom: 'example' },
    { kind: 'dispute', cardNo: 'XXXX' },
    { kind: 'dispute', atmId: 'APX', mailSubject: 'dispute' },
    // Sparse (under 2% of the records: paged through the matching values), beside the dense ones above.
    { kind: 'dispute', atmId: 'apx0001' },
    { kind: 'dispute', cardNo: 'xxxxxx00' },
    { kind: 'overage', cardNo: '4' },
    // Three or more characters besides the mask: found through the unmasked card index.
    { kind: 'dispute', cardNo: '400' },
    { kind: 'dispute', cardNo: 'xX0' },
    { kind: 'dispute', cardNo: '0xxxxxx' },
    { kind: 'dispute', cardNo: '400', bankName: 'harbor', atmId: 'HRB' },
    // Mixed: the narrowest sparse filter finds the candidates, the others are checked on them.
    { kind: 'dispute', atmId: 'APX0001', mailSubject: 'dispute', bankName: 'bank' },
    { kind: 'dispute', cardNo: 'XXXXXX0', atmId: 'apx', startDate: '2026-01-01' },
    { kind: 'dispute', mailSubject: 'moved', atmId: 'ZZAPX00', mailReceivedFrom: 'example', endDate: '2026-12-31' },
    { kind: 'dispute', startDate: '2026-02-01', endDate: '2026-02-07' },
    {
      kind: 'dispute',
      startDate: '2026-01-01',
      endDate: '2026-06-30',
      atmId: 'HRB',
      bankName: 'harbor',
      cardNo: 'XXXXXX',
      mailSubject: 'dispute',
      mailReceivedFrom: 'example',
    },
  ];

  it('holds no value for a filter that matches nothing, and counts it as 0', async () => {
    expect((await listEjRecords(database.db, { kind: 'dispute', mailSubject: 'no such subject' }, { page: 1, pageSize: 10 })).count).toBe(0);
    expect((await listEjRecords(database.db, { kind: 'dispute', atmId: '100%_' }, { page: 1, pageSize: 10 })).count).toBe(0);
    expect((await listEjRecords(database.db, { kind: 'dispute', cardNo: '4%0_0' }, { page: 1, pageSize: 10 })).count).toBe(0);
    expect((await listEjRecords(database.db, { kind: 'dispute', cardNo: 'XXXXXX*1234' }, { page: 1, pageSize: 10 })).count).toBe(0);
  });

  it.each(cases)('counts %o exactly', async (filters) => {
    const [truth] = await database.db.select({ n: count() }).from(ejRecords).where(ejConditions(filters));
    expect(truth!.n).toBeGreaterThan(0);
    expect((await listEjRecords(database.db, filters, { page: 1, pageSize: 10 })).count).toBe(truth!.n);
  });

  it.each(cases)('pages %o as the plain query does, in the same order', async (filters) => {
    // Deep pages too (past 2,000 records the whole kind is paged from ej_id_blocks), the last
    // partial one and one past the end.
    const deep = [
      { page: 201, pageSize: 10 },
      { page: 97, pageSize: 25 },
      { page: 1, pageSize: 3000 },
      { page: 2, pageSize: 2500 },
      { page: 40, pageSize: 100 },
    ];
    for (const page of [{ page: 1, pageSize: 10 }, { page: 3, pageSize: 25 }, ...deep]) {
      const plain = await database.db
        .select({ id: ejRecords.id })
        .from(ejRecords)
        .where(ejConditions(filters))
        .orderBy(desc(ejRecords.id))
        .limit(page.pageSize)
        .offset((page.page - 1) * page.pageSize);
      if (page.page === 1) expect(plain.length).toBeGreaterThan(0);
      const listed = await listEjRecords(database.db, filters, page);
      expect(listed.rows.map((r) => r.id)).toEqual(plain.map((r) => r.id));
    }
  });

  // Last: it adds records. Writers racing on the same values (the ingester's lanes, several
  // processes) must leave every value's count exact: the triggers' upserts serialise per value.
  it('stays exact when many writers insert and delete the same values at once', async () => {
    const record = (i: number) => ({
      kind: 'dispute' as const,
      atmId: `RACE${i % 3}`,
      bankName: 'Race Bank',
      transactionDate: '2026-03-0' + (1 + (i % 9)),
      mailSubject: `race ${i % 2}`,
      mailReceivedFrom: 'race@example',
    });
    const asked = [
      { atmId: 'RACE' },
      { atmId: 'race0' },
      { mailSubject: 'race 1' },
      { bankName: 'race bank' },
      { startDate: '2026-01-01', bankName: 'bank' },
      { atmId: 'RACE', mailSubject: 'race 1' },
      {},
    ] as const;
    // Each asked before the writes too: a count kept from then must not answer after them.
    for (const filters of asked) await listEjRecords(database.db, { kind: 'dispute', ...filters }, { page: 1, pageSize: 10 });
    // ...and the deep page below, whose blocks of ids are kept the same way.
    await listEjRecords(database.db, { kind: 'dispute' }, { page: 301, pageSize: 7 });
    await Promise.all(
      Array.from({ length: 12 }, (_, w) =>
        database.db.transaction(async (tx) => {
          await tx.insert(ejRecords).values(Array.from({ length: 25 }, (_, i) => record(w * 25 + i)));
          if (w % 3 === 0) await tx.delete(ejRecords).where(sql`${ejRecords.atmId} = 'RACE0' and ${ejRecords.id} % 2 = 0`);
        }),
      ),
    );
    for (const filters of asked) {
      const f: EjFilters = { kind: 'dispute', ...filters };
      const [truth] = await database.db.select({ n: count() }).from(ejRecords).where(ejConditions(f));
      expect((await listEjRecords(database.db, f, { page: 1, pageSize: 10 })).count).toBe(truth!.n);
    }
    const plain = await database.db
      .select({ id: ejRecords.id })
      .from(ejRecords)
      .where(ejConditions({ kind: 'dispute' }))
      .orderBy(desc(ejRecords.id))
      .limit(7)
      .offset(2100);
    expect((await listEjRecords(database.db, { kind: 'dispute' }, { page: 301, pageSize: 7 })).rows.map((r) => r.id)).toEqual(plain.map((r) => r.id));
  });
});
