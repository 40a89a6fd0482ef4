// Retention, on both backends: a closed month (of EJ records, journals, ignored mail) is archived
// to a sealed file and its partition dropped (its rows gone from the lists' derived tables too); a
// month with an open dispute is refused with nothing written; the archive restored brings back
// every row, with the same ids and values, and the derived counts with them.
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import { extract, pack } from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveMonth, BackupError, queryRows, restoreArchive, RetentionRefusal, type Database } from '../src/index.ts';
import { openSealed, sealed, sealedHeader } from '../src/backup-file.ts';
import { backends, migrated } from './backends.ts';

/** An archive's entries (its manifest and JSON batches), opened as an insider with the passphrase would. */
async function unsealEntries(file: string): Promise<Map<string, string>> {
  const content = await openSealed(file, sealedHeader(file)!, passphrase);
  const entries = new Map<string, string>();
  const reader = extract();
  Readable.from([content]).pipe(reader);
  for await (const entry of reader) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    entries.set(entry.header.name, Buffer.concat(chunks).toString('utf8'));
  }
  return entries;
}

/** Those entries sealed again into `file` with the passphrase: a file the restore cannot tell from its own. */
async function resealEntries(entries: Map<string, string>, file: string): Promise<void> {
  const tar = pack();
  for (const [name, text] of entries) tar.entry({ name }, text);
  tar.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of tar) chunks.push(chunk as Buffer);
  await pipeline(sealed(Readable.from([Buffer.concat(chunks)]), passphrase, scrypt), createWriteStream(file));
}

// A cheap scrypt for tests; the format and the check are the same.
const scrypt = { N: 2 ** 10, r: 8, p: 1 };
const passphrase = 'a long archive passphrase';

describe.each(backends)('retention on %s', (backend) => {
  let database: Database;
  let drop: () => Promise<void>;
  let folder: string;
  beforeAll(async () => {
    ({ database, drop } = await migrated(backend));
    folder = mkdtempSync(join(tmpdir(), 'ejdesk-archive-'));
    const db = database.db;
    // Three months received: January 2019 (two disputes, both resolved, one with a second record
    // received in February, and an overage), February 2019 (one open dispute), and this month.
    await db.execute(sql`select month_partition('ej_records', '2019-01-01'), month_partition('ej_records', '2019-02-01')`);
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
    await expect(archiveMonth(database.db, 'ej-records', '2019-02', { file, passphrase, scrypt, userId: null })).rejects.toThrow(RetentionRefusal);
    await expect(archiveMonth(database.db, 'ej-records', '2019-02', { file, passphrase, scrypt, userId: null })).rejects.toThrow(
      /2019-02 is kept: 1 dispute of its records is not resolved \(\d+\)/,
    );
    expect(existsSync(file)).toBe(false);
    expect(existsSync(`${file}.partial`)).toBe(false);
    expect(await count(sql`select count(*)::int as n from ej_records`)).toBe(before);
    expect(await count(sql`select count(*)::int as n from pg_class where relname = 'ej_records_2019_02'`)).toBe(1);
  });

  it('refuses a month that is not one', async () => {
    await expect(archiveMonth(database.db, 'ej-records', '2019-13', { file: join(folder, 'x'), passphrase, scrypt, userId: null })).rejects.toThrow(
      /"2019-13" is not a month/,
    );
  });

  it('archives and drops a closed month, then a restore brings every row back', async () => {
    const before = await snapshot();
    const file = join(folder, '2019-01.ejarchive');
    const archived = (await archiveMonth(database.db, 'ej-records', '2019-01', { file, passphrase, scrypt, userId: null }))!;
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
    await expect(restoreArchive(database.db, file, 'not the passphrase at all', null)).rejects.toThrow(BackupError);
    const restored = await restoreArchive(database.db, file, passphrase, null);
    expect(restored.month).toBe('2019-01');
    expect(await snapshot()).toEqual(before);
    expect(await count(sql`select count(*)::int as n from pg_inherits where inhrelid = 'ej_records_2019_01'::regclass`)).toBe(1);
    await expect(restoreArchive(database.db, file, passphrase, null)).rejects.toThrow(/in the database already/);
    expect(await snapshot()).toEqual(before);

    // The restored month is past its retention still: archived again, never over the first file,
    // and a second archiver (a worker beside another) finds nothing left and writes nothing.
    await expect(archiveMonth(database.db, 'ej-records', '2019-01', { file, passphrase, scrypt, userId: null })).rejects.toThrow(/is there already/);
    const again = join(folder, '2019-01-again.ejarchive');
    expect(await archiveMonth(database.db, 'ej-records', '2019-01', { file: again, passphrase, scrypt, userId: null })).not.toBeNull();
    const third = join(folder, '2019-01-third.ejarchive');
    expect(await archiveMonth(database.db, 'ej-records', '2019-01', { file: third, passphrase, scrypt, userId: null })).toBeNull();
    expect(existsSync(third)).toBe(false);
    await restoreArchive(database.db, again, passphrase, null);
    expect(await snapshot()).toEqual(before);
  });

  it('restores nothing from a file sealed with the passphrase whose manifest or rows were forged', async () => {
    const file = join(folder, '2019-01-forged-source.ejarchive');
    await archiveMonth(database.db, 'ej-records', '2019-01', { file, passphrase, scrypt, userId: null });
    const archived = await snapshot();
    const users = await queryRows<Record<string, unknown>>(database.db, sql`select * from users order by id`);
    const entries = await unsealEntries(file);
    const manifest = JSON.parse(entries.get('ejdesk-archive.json')!) as { tables: { name: string; rows: number }[] };

    // A table no archive of EJ records holds: an admin written in by a restore.
    const withUser = new Map(entries);
    withUser.set('users/000001.json', JSON.stringify([{ id: 999, email: 'forged@example.com', password_hash: 'x', role: 'admin', is_active: true }]));
    withUser.set('ejdesk-archive.json', JSON.stringify({ ...manifest, tables: [...manifest.tables, { name: 'users', rows: 1 }] }));
    const forgedUser = join(folder, '2019-01-forged-user.ejarchive');
    await resealEntries(withUser, forgedUser);
    await expect(restoreArchive(database.db, forgedUser, passphrase, null)).rejects.toThrow(/holds tables an archive of ej-records never holds \(users\)/);

    // A record more than its manifest counts: every row back or none.
    const [recordsEntry] = [...entries.keys()].filter((name) => name.startsWith('ej_records/'));
    const records = JSON.parse(entries.get(recordsEntry!)!) as Record<string, unknown>[];
    const extra = new Map(entries);
    extra.set(recordsEntry!, JSON.stringify([...records, { ...records[0], id: 987654, txt_no: 'FORGED' }]));
    const forgedRows = join(folder, '2019-01-forged-rows.ejarchive');
    await resealEntries(extra, forgedRows);
    await expect(restoreArchive(database.db, forgedRows, passphrase, null)).rejects.toThrow(BackupError);

    // Neither wrote anything: not a user, not a record, not a partition's month back.
    expect(await snapshot()).toEqual(archived);
    expect(await queryRows(database.db, sql`select * from users order by id`)).toEqual(users);
    expect(await count(sql`select count(*)::int as n from pg_class where relname = 'ej_records_2019_01'`)).toBe(0);
    // The file as it was written restores.
    await restoreArchive(database.db, file, passphrase, null);
    expect(await count(sql`select count(*)::int as n from ej_records where atm_id = 'ATM1'`)).toBe(4);
  });

  it('keeps a month whose dispute has a record received within the retention', async () => {
    await database.db.execute(sql`
      insert into ej_records (kind, atm_id, txt_no, create_at) values
        ('dispute', 'ATM6', 'T6', '2019-05-02T00:00:00Z'), ('dispute', 'ATM6', 'T6', now())`);
    await database.db.execute(sql`select dispute_records_link(null)`);
    await database.db.execute(sql`update disputes set status = 'resolved', outcome = 'other', stopped_on = current_date where atm_id = 'ATM6'`);
    const file = join(folder, '2019-05.ejarchive');
    await expect(archiveMonth(database.db, 'ej-records', '2019-05', { file, passphrase, scrypt, userId: null })).rejects.toThrow(
      /2019-05 is kept: one of its disputes has a record received \d{4}-\d\d-\d\d, within the retention/,
    );
    expect(existsSync(file)).toBe(false);
    expect(await count(sql`select count(*)::int as n from ej_records where atm_id = 'ATM6'`)).toBe(2);
  });

  it('keeps the cascade the foreign key gave: a record deleted takes its dispute link', async () => {
    const [record] = await queryRows<{ id: string }>(database.db, sql`select id::text from ej_records where atm_id = 'ATM3'`);
    expect(await count(sql`select count(*)::int as n from dispute_records where record_id = ${record!.id}::bigint`)).toBe(1);
    await database.db.execute(sql`delete from ej_records where id = ${record!.id}::bigint`);
    expect(await count(sql`select count(*)::int as n from dispute_records where record_id = ${record!.id}::bigint`)).toBe(0);
  });

  it('moves records kept in the default partition into their month when it is made', async () => {
    await database.db.execute(sql`insert into ej_records (kind, atm_id, txt_no, create_at) values ('overage', 'ATM5', 'T5', '2018-06-09T12:00:00Z')`);
    expect(await count(sql`select count(*)::int as n from ej_records_default where atm_id = 'ATM5'`)).toBe(1);
    const countsBefore = await count(sql`select coalesce(sum(n), 0)::int as n from ej_counts`);
    await database.db.execute(sql`select month_partition('ej_records', '2018-06-20')`);
    expect(await count(sql`select count(*)::int as n from ej_records_default where atm_id = 'ATM5'`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from ej_records_2018_06`)).toBe(1);
    // A move within the table: the derived tables count it once still.
    expect(await count(sql`select coalesce(sum(n), 0)::int as n from ej_counts`)).toBe(countsBefore);
  });

  it('archives a month of journals once the disputes resting on them are resolved, and restores their evidence links', async () => {
    const db = database.db;
    // A journal received in March 2019, its page and two transactions; an open dispute's evidence rests on the first.
    await db.execute(sql`select month_partition('journal_transactions', '2019-03-01')`);
    const [journal] = await queryRows<{ id: string }>(
      db,
      sql`insert into journals (sha256, file_name, atm_id, day, family, line_count, size_bytes, transactions, source, create_at)
          values ('ab12', 'EJ0301.txt', 'ATM8', '2019-03-01', 'ncr', 4, 120, 2, 'upload', '2019-03-02T09:00:00Z') returning id::text`,
    );
    await db.execute(
      sql`insert into journal_pages (journal_id, first_line, line_count, data) values (${journal!.id}::bigint, 1, 4, '\x789c0300000001'::bytea)`,
    );
    const transactions = await queryRows<{ id: string }>(
      db,
      sql`insert into journal_transactions (journal_id, seq, kind, atm_id, day, rrn, requested_amount, verdict, line_from, line_to, create_at) values
            (${journal!.id}::bigint, 1, 'withdrawal', 'ATM8', '2019-03-01', '000111', 500.00, 'not_dispensed', 1, 2, '2019-03-02T09:00:00Z'),
            (${journal!.id}::bigint, 2, 'withdrawal', 'ATM8', '2019-03-01', '000112', 100.00, 'dispensed', 3, 4, '2019-03-02T09:00:00Z')
          returning id::text`,
    );
    await db.execute(sql`insert into ej_records (kind, atm_id, txt_no) values ('dispute', 'ATM8', 'J1')`);
    await db.execute(sql`select dispute_records_link(null)`);
    const [dispute] = await queryRows<{ id: string }>(db, sql`select id::text from disputes where atm_id = 'ATM8'`);
    await db.execute(
      sql`insert into dispute_evidence (dispute_id, transaction_id, verdict, match) values (${dispute!.id}::bigint, ${transactions[0]!.id}::bigint, 'not_dispensed', 'rrn')`,
    );
    const file = join(folder, 'journals-2019-03.ejarchive');
    await expect(archiveMonth(db, 'journals', '2019-03', { file, passphrase, scrypt, userId: null })).rejects.toThrow(
      /2019-03 is kept: 1 dispute resting on its journals is not resolved/,
    );
    expect(existsSync(file)).toBe(false);

    await db.execute(sql`update disputes set status = 'resolved', outcome = 'credited', stopped_on = current_date where id = ${dispute!.id}::bigint`);
    const journalRows = async () => ({
      journals: await queryRows(db, sql`select * from journals where atm_id = 'ATM8'`),
      pages: await queryRows(db, sql`select journal_id, first_line, encode(data, 'hex') as data from journal_pages where journal_id = ${journal!.id}::bigint`),
      transactions: await queryRows(db, sql`select * from journal_transactions where journal_id = ${journal!.id}::bigint order by seq`),
      evidence: await queryRows(db, sql`select dispute_id, transaction_id, verdict from dispute_evidence where dispute_id = ${dispute!.id}::bigint`),
    });
    const before = await journalRows();
    const archived = (await archiveMonth(db, 'journals', '2019-03', { file, passphrase, scrypt, userId: null }))!;
    expect(archived.tables.filter((t) => t.rows > 0)).toEqual([
      { name: 'journals', rows: 1 },
      { name: 'journal_pages', rows: 1 },
      { name: 'journal_transactions', rows: 2 },
      { name: 'dispute_evidence', rows: 1 },
    ]);
    expect(archived.dropped).toBe(true);
    expect(await count(sql`select count(*)::int as n from pg_class where relname = 'journal_transactions_2019_03'`)).toBe(0);
    // The dispute keeps its verdict; its link to the transaction is cut with the journal.
    expect(await journalRows()).toEqual({ journals: [], pages: [], transactions: [], evidence: [{ ...(before.evidence[0] as object), transaction_id: null }] });

    await restoreArchive(db, file, passphrase, null);
    expect(await journalRows()).toEqual(before);
  });

  it('archives a month of ignored mail, and leaves processed mail', async () => {
    const db = database.db;
    await db.execute(sql`
      insert into emails (category, subject, received_at, create_at) values
        ('ignored', 'Newsletter', '2019-04-03T00:00:00Z', '2019-04-03T00:00:00Z'), ('ignored', 'Out of office', '2019-04-28T00:00:00Z', '2019-04-28T00:00:00Z'),
        ('processed', 'EJ complaints', '2019-04-10T00:00:00Z', '2019-04-10T00:00:00Z')`);
    const ignored = async () => queryRows(db, sql`select * from emails where create_at < '2019-05-01' and create_at >= '2019-04-01' order by id`);
    const before = await ignored();
    const file = join(folder, 'ignored-mail-2019-04.ejarchive');
    const archived = (await archiveMonth(db, 'ignored-mail', '2019-04', { file, passphrase, scrypt, userId: null }))!;
    expect(archived.tables[0]).toEqual({ name: 'emails', rows: 2 });
    expect((await ignored()).map((e) => (e as { subject: string }).subject)).toEqual(['EJ complaints']);
    await restoreArchive(db, file, passphrase, null);
    expect(await ignored()).toEqual(before);
  });

  it('lets no one make or drop a month of any other table', async () => {
    await expect(database.db.execute(sql`select month_partition('users', '2019-01-01')`)).rejects.toThrow();
    await expect(database.db.execute(sql`select month_partition_drop('audit_log', '2019-01-01')`)).rejects.toThrow();
  });
});
