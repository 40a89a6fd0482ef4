import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase, queryRows } from '../src/index.ts';
import { seed, seedDemoJournals } from '../src/seed.ts';

const now = new Date('2026-03-15T12:00:00Z');

async function seeded() {
  const database = await openDatabase();
  await database.migrate();
  await seed(database.db, { emails: 400, ej: 600, filesPerKind: 4, now, bankPassKey: Buffer.alloc(32, 7) });
  return database;
}

const snapshot = (database: Awaited<ReturnType<typeof seeded>>) =>
  queryRows<Record<string, unknown>>(
    database.db,
    sql`select (select md5(string_agg(subject || received_at::text || category, ',' order by id)) from emails) as emails,
               (select md5(string_agg(atm_id || card_no || coalesce(transaction_amt::text, ''), ',' order by id)) from ej_records) as ej,
               (select md5(string_agg(name, ',' order by id)) from data_files) as files`,
  );

describe('seed', () => {
  it('leaves the planner statistics current, as migrations do', async () => {
    const database = await openDatabase();
    await database.migrate();
    const analysed = () =>
      queryRows<{ relname: string; analysed: boolean }>(
        database.db,
        sql`select relname, (last_analyze is not null or last_autoanalyze is not null) as analysed
            from pg_stat_user_tables where relname in ('emails', 'ej_records', 'data_files') order by relname`,
      );
    expect((await analysed()).every((t) => t.analysed)).toBe(true); // the migrations ran: analysed once
    await seed(database.db, { emails: 200, ej: 300, filesPerKind: 2, now, bankPassKey: Buffer.alloc(32, 7) });
    const [stats] = await queryRows<{ estimated: number; counted: number }>(
      database.db,
      sql`select reltuples::int as estimated, (select count(*)::int from ej_records) as counted from pg_class where relname = 'ej_records'`,
    );
    expect(stats!.counted).toBeGreaterThanOrEqual(300);
    expect(stats!.estimated).toBe(stats!.counted); // the seed's rows are in the statistics, not the empty table's
    await database.close();
  });

  it('is deterministic and fills every category, record kind and file kind', async () => {
    const a = await seeded();
    const b = await seeded();
    expect(await snapshot(a)).toEqual(await snapshot(b));

    const categories = await queryRows<{ category: string }>(a.db, sql`select distinct category from emails order by 1`);
    expect(categories.map((r) => r.category)).toEqual(['ej_not_found', 'ignored', 'processed', 'same_subject', 'same_subject_processing']);
    const kinds = await queryRows<{ kind: string }>(a.db, sql`select distinct kind from ej_records order by 1`);
    expect(kinds.map((r) => r.kind)).toEqual(['dispute', 'overage', 'succeeding']);
    const files = await queryRows<{ kind: string; n: number; rows: number }>(
      a.db,
      sql`select f.kind, count(distinct f.id)::int as n, count(r.id)::int as rows from data_files f join data_file_rows r on r.data_file_id = f.id group by f.kind`,
    );
    expect(files).toHaveLength(7);
    for (const kind of files) expect(kind.n).toBe(4);

    const [range] = await queryRows<{ oldest: Date; newest: Date; this_month: number }>(
      a.db,
      sql`select min(received_at) as oldest, max(received_at) as newest,
                 count(*) filter (where received_at >= ${'2026-03-01T00:00:00Z'}::timestamptz)::int as this_month from emails`,
    );
    expect(new Date(range!.oldest).getTime()).toBeGreaterThan(now.getTime() - 366 * 86_400_000);
    expect(new Date(range!.newest).getTime()).toBeLessThanOrEqual(now.getTime());
    expect(range!.this_month).toBeGreaterThan(0);
    await Promise.all([a.close(), b.close()]);
  });
});

describe('seeding again', () => {
  it('adds to a database that already holds data, keeping one row per bank in the admin lists', async () => {
    const database = await openDatabase();
    await database.migrate();
    const key = Buffer.alloc(32, 7);
    await seed(database.db, { emails: 50, ej: 50, filesPerKind: 1, now, bankPassKey: key });
    await seed(database.db, { emails: 50, ej: 50, filesPerKind: 1, now, bankPassKey: key, seed: 2 });
    const [counts] = await queryRows<{ emails: number; passwords: number; msps: number }>(
      database.db,
      sql`select (select count(*) from emails)::int as emails, (select count(*) from bank_passwords)::int as passwords, (select count(*) from bank_msps)::int as msps`,
    );
    expect(counts).toEqual({ emails: 102, passwords: 8, msps: 11 });
    await database.close();
  });
});

describe('the demo journals', () => {
  it('receive one journal of each family after their complaints, giving every verdict, once', async () => {
    const database = await openDatabase();
    await database.migrate();
    const first = await seedDemoJournals(database.db);
    expect(first.journals).toBe(3);
    const found = () =>
      queryRows<{ family: string; verdict: string | null; n: number }>(
        database.db,
        sql`select j.family, e.verdict, count(*)::int as n from dispute_evidence e
            join journal_transactions t on t.id = e.transaction_id join journals j on j.id = t.journal_id
            group by 1, 2 order by 1, 2`,
      );
    const verdicts = await found();
    // Every complaint found its withdrawal by its number, and each family shows every verdict.
    expect(verdicts.reduce((sum, row) => sum + row.n, 0)).toBe(first.disputes);
    for (const family of ['diebold', 'hyosung', 'ncr'])
      expect(verdicts.filter((row) => row.family === family).map((row) => row.verdict)).toEqual([
        'dispensed',
        'indeterminate',
        'not_dispensed',
        'partial',
        'retracted',
        'reversed',
      ]);
    const [{ matches } = { matches: [] }] = await queryRows<{ matches: string[] }>(
      database.db,
      sql`select array_agg(distinct match) as matches from dispute_evidence`,
    );
    expect(matches.every((how) => ['rrn', 'stan', 'serial'].includes(how))).toBe(true);
    // Prepared again (a restart of the demo): nothing more.
    expect(await seedDemoJournals(database.db)).toEqual({ journals: 0, disputes: 0 });
    expect(await found()).toEqual(verdicts);
    await database.close();
  });
});
