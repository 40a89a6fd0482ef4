// Retention of EJ records, on both backends: a closed month is archived to a sealed file and its
// partition dropped (its rows gone from the lists' derived tables too); a month with an open
// dispute is refused with nothing written; the archive restored brings back every row, with the
// same ids and values, and the derived counts with them.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveRecordMonth, BackupError, queryRows, restoreRecordArchive, RetentionRefusal, type Database } from '../src/index.ts';
import { backends, migrated } from './backends.ts';

// A cheap scrypt for tests; the format and the check are the same.
const scrypt = { N: 2 ** 10, r: 8, p: 1 };
const passphrase = 'a long archive passphrase';

describe.each(backends)('retention of EJ records on %s', (backend) => {
  let database: Database;
  let drop: () => Promise<void>;
  let folder: string;
  beforeAll(async () => {
    ({ database, drop } = await migrated(backend));
    folder = mkdtempSync(join(tmpdir(), 'ejdesk-archive-'));
    const db = database.db;
    // Three months received: January 2019 (two disputes, both resolved, one with a second record
    // received in February, and an overage), February 2019 (one open dispute), and this month.
    await db.execute(sql`select ej_records_partition('2019-01-01'), ej_records_partition('2019-02-01')`);
    await db.execute(sql`
      insert into ej_records (kind, atm_id, txt_no, card_no, bank_name, mail_received_from, transaction_date, dispute_amt, create_at) values
        ('dispute', 'ATM1', 'T1', '4000xxxx0001', 'Harbor Bank', 'msp@example.com', '2019-01-02', 500.00, '2019-01-03T10:00:00Z'),
        ('dispute', 'ATM1', 'T2', '4000xxxx0002', 'Harbor Bank', 'msp@example.com', '2019-01-04', 1500.50, '2019-01-31T23:59:59Z'),
        ('overage', 'ATM1', 'T3', '', 'Harbor Bank', 'msp@example.com', '2019-01-05', null, '2019-01-15T00:00:00Z'),
        ('dispute', 'ATM1', 'T2', '4000xxxx0002', 'Harbor Bank', 'bank@example.com', '2019-01-04', 1500.50, '2019-02-01T00:00:00Z'),
        ('dispute', 'ATM2', 'T9', '4000xxxx0009', 'Harbor Bank', 'msp@example.com', '2019-02-10', 20.00, '2019-02-11T08:00:00Z'),
        ('dispute', 'ATM3', 'T7', '4000xxxx0007', 'Harbor Bank', 'msp@example.com', current_date, 70.00, now())`);
    await db.execute(sql`select dispute_records_link(null)`);
    await db.execute(sql`update disputes set status = 'resolved', outcome = 'credited', stopped_on = '2019-02-20' where atm_id = 'ATM1'`);
    await db.execute(
      sql`insert into dispute_stages (dispute_id, stage, entered_on) select id, 'chargeback_raised', '2019-01-10' from disputes where txt_no = 'T2'`,
    );
  });
  afterAll(async () => {
    rmSync(folder, { recursive: true, force: true });
    await drop();
  });

  const count = async (query: ReturnType<typeof sql>) => (await queryRows<{ n: number }>(database.db, query))[0]!.n;
  const snapshot = async () => ({
    records: await queryRows<Record<string, unknown>>(database.db, sql`select * from ej_records order by id`),
    disputes: await queryRows<Record<string, unknown>>(database.db, sql`select * from disputes order by id`),
    links: await queryRows<Record<string, unknown>>(database.db, sql`select * from dispute_records order by record_id`),
    stages: await queryRows<Record<string, unknown>>(database.db, sql`select * from dispute_stages order by dispute_id, stage`),
    counts: await queryRows<Record<string, unknown>>(database.db, sql`select * from ej_counts where n <> 0 order by 1, 2, 3, 4`),
    values: await queryRows<Record<string, unknown>>(database.db, sql`select kind, field, value, n from ej_values where n <> 0 order by 1, 2, 3`),
    disputeCounts: await queryRows<Record<string, unknown>>(database.db, sql`select * from dispute_counts where n <> 0 order by 1, 2, 3, 4, 5, 6, 7, 8`),
  });

  it('refuses a month one of whose disputes is open, writing nothing', async () => {
    const file = join(folder, '2019-02.ejarchive');
    const before = await count(sql`select count(*)::int as n from ej_records`);
    await expect(archiveRecordMonth(database.db, '2019-02', { file, passphrase, scrypt, userId: null })).rejects.toThrow(RetentionRefusal);
    await expect(archiveRecordMonth(database.db, '2019-02', { file, passphrase, scrypt, userId: null })).rejects.toThrow(
      /2019-02 is kept: 1 of its disputes is not resolved \(\d+\)/,
    );
    expect(existsSync(file)).toBe(false);
    expect(existsSync(`${file}.partial`)).toBe(false);
    expect(await count(sql`select count(*)::int as n from ej_records`)).toBe(before);
    expect(await count(sql`select count(*)::int as n from pg_class where relname = 'ej_records_2019_02'`)).toBe(1);
  });

  it('refuses a month that is not one', async () => {
    await expect(archiveRecordMonth(database.db, '2019-13', { file: join(folder, 'x'), passphrase, scrypt, userId: null })).rejects.toThrow(
      /"2019-13" is not a month/,
    );
  });

  it('archives and drops a closed month, then a restore brings every row back', async () => {
    const before = await snapshot();
    const file = join(folder, '2019-01.ejarchive');
    const archived = await archiveRecordMonth(database.db, '2019-01', { file, passphrase, scrypt, userId: null });
    expect(archived.dropped).toBe(true);
    expect(Object.fromEntries(archived.tables.map((t) => [t.name, t.rows]))).toMatchObject({
      // The month's three records and the February record of its T2 dispute; both disputes whole.
      ej_records: 4,
      disputes: 2,
      dispute_records: 3,
      dispute_stages: 1,
    });
    // Sealed: no row's text in clear.
    const bytes = readFileSync(file);
    expect(bytes.subarray(0, 14).toString()).toBe('EJDESK-BACKUP\n');
    expect(bytes.includes(Buffer.from('4000xxxx0001'))).toBe(false);

    expect(await count(sql`select count(*)::int as n from pg_class where relname = 'ej_records_2019_01'`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from ej_records where atm_id = 'ATM1'`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from disputes where atm_id = 'ATM1'`)).toBe(0);
    // The derived tables no longer count them.
    expect(await count(sql`select coalesce(sum(n), 0)::int as n from ej_counts`)).toBe(2);
    expect(await count(sql`select coalesce(sum(n), 0)::int as n from ej_values where field = 'atm_id' and value = 'ATM1'`)).toBe(0);
    const [entry] = await queryRows<{ action: string; entity_id: string; detail: string }>(
      database.db,
      sql`select action, entity_id, detail from audit_log where action = 'retention.archive' order by id desc limit 1`,
    );
    expect(entry).toMatchObject({ action: 'retention.archive', entity_id: '2019-01' });
    expect(entry!.detail).toContain('4 ej_records, 2 disputes');

    // A wrong passphrase opens nothing; the right one restores it all, and only once.
    await expect(restoreRecordArchive(database.db, file, 'not the passphrase at all', null)).rejects.toThrow(BackupError);
    const restored = await restoreRecordArchive(database.db, file, passphrase, null);
    expect(restored.month).toBe('2019-01');
    expect(await snapshot()).toEqual(before);
    expect(await count(sql`select count(*)::int as n from pg_inherits where inhrelid = 'ej_records_2019_01'::regclass`)).toBe(1);
    await expect(restoreRecordArchive(database.db, file, passphrase, null)).rejects.toThrow(/in the database already/);
    expect(await snapshot()).toEqual(before);
  });

  it('keeps the cascade the foreign key gave: a record deleted takes its dispute link', async () => {
    const [record] = await queryRows<{ id: string }>(database.db, sql`select id::text from ej_records where atm_id = 'ATM3'`);
    expect(await count(sql`select count(*)::int as n from dispute_records where record_id = ${record!.id}::bigint`)).toBe(1);
    await database.db.execute(sql`delete from ej_records where id = ${record!.id}::bigint`);
    expect(await count(sql`select count(*)::int as n from dispute_records where record_id = ${record!.id}::bigint`)).toBe(0);
  });

  it('moves records kept in the default partition into their month when it is made', async () => {
    await database.db.execute(sql`insert into ej_records (kind, atm_id, txt_no, create_at) values ('overage', 'ATM5', 'T5', '2018-06-09T12:00:00Z')`);
    expect(await count(sql`select count(*)::int as n from ej_records_default`)).toBe(1);
    const countsBefore = await count(sql`select coalesce(sum(n), 0)::int as n from ej_counts`);
    await database.db.execute(sql`select ej_records_partition('2018-06-20')`);
    expect(await count(sql`select count(*)::int as n from ej_records_default`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from ej_records_2018_06`)).toBe(1);
    // A move within the table: the derived tables count it once still.
    expect(await count(sql`select coalesce(sum(n), 0)::int as n from ej_counts`)).toBe(countsBefore);
  });
});
