// The EJ counter rows against counting the records themselves, after inserts, updates and deletes.
import { count, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ejConditions, ejRecords, listEjRecords, openDatabase, type Database, type EjFilters } from '../src/index.ts';
import { seed } from '../src/seed.ts';

let database: Database;
beforeAll(async () => {
  database = await openDatabase();
  await database.migrate();
  await seed(database.db, { emails: 0, ej: 4000, filesPerKind: 0, now: new Date('2026-06-15T12:00:00Z') });
  await database.db.update(ejRecords).set({ bankName: 'Renamed Bank', transactionDate: null }).where(sql`${ejRecords.id} % 9 = 0`);
  await database.db.delete(ejRecords).where(sql`${ejRecords.id} % 13 = 0`);
});
afterAll(() => database.close());

const cases: EjFilters[] = [
  { kind: 'dispute' },
  { kind: 'overage' },
  { kind: 'dispute', bankName: 'HARBOR' },
  { kind: 'dispute', bankName: 'renamed' },
  { kind: 'succeeding', mailReceivedFrom: 'orbit' },
  { kind: 'dispute', startDate: '2026-01-01', endDate: '2026-03-31', bankName: 'bank', mailReceivedFrom: '.example' },
  { kind: 'dispute', atmId: 'APX' },
];

it.each(cases)('counts %o exactly', async (filters) => {
  const [truth] = await database.db.select({ n: count() }).from(ejRecords).where(ejConditions(filters));
  expect(truth!.n).toBeGreaterThan(0);
  expect((await listEjRecords(database.db, filters, { page: 1, pageSize: 10 })).count).toBe(truth!.n);
});
