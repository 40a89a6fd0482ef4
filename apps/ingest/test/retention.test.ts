// The night's retention as a bank runs it (PostgreSQL: workers are processes of their own): a worker
// started with a retention of 12 months archives the closed month of 2019 to its folder and drops
// it, keeps the month with an open dispute (audited, its rows untouched), and `pnpm archive
// restore` brings the archived month back. Without an archive folder, a worker removes nothing.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { queryRows } from '@ejdesk/db';
import { createTestApp, testDatabaseUrl, type TestApp } from '@ejdesk/api/test-helpers';
import { spawnIngester, until } from './support/workers.ts';

const passphrase = 'the archives passphrase';
/** The worker runs retention within RETENTION_HOUR only: this one. */
const thisHour = () => String(new Date().getUTCHours());
const root = new URL('../../..', import.meta.url).pathname;

describe.skipIf(!testDatabaseUrl)('the night’s retention, by a worker on PostgreSQL', () => {
  let t: TestApp;
  let folder: string;
  beforeAll(async () => {
    t = await createTestApp('postgres');
    folder = mkdtempSync(join(tmpdir(), 'ejdesk-retention-'));
    const db = t.database.db;
    await db.execute(sql`
      insert into ej_records (kind, atm_id, txt_no, bank_name, create_at) values
        ('dispute', 'ATM1', 'T1', 'Harbor Bank', '2019-01-03T10:00:00Z'),
        ('overage', 'ATM1', 'T3', 'Harbor Bank', '2019-01-15T00:00:00Z'),
        ('dispute', 'ATM2', 'T9', 'Harbor Bank', '2019-02-11T08:00:00Z'),
        ('dispute', 'ATM3', 'T7', 'Harbor Bank', now())`);
    await db.execute(sql`select dispute_records_link(null)`);
    await db.execute(sql`update disputes set status = 'resolved', outcome = 'rejected', stopped_on = '2019-01-20' where atm_id = 'ATM1'`);
  });
  afterAll(async () => {
    rmSync(folder, { recursive: true, force: true });
    await t.close();
  });

  const count = async (query: ReturnType<typeof sql>) => (await queryRows<{ n: number }>(t.database.db, query))[0]!.n;
  const entries = (action: string) =>
    queryRows<{ entity_id: string; detail: string }>(t.database.db, sql`select entity_id, detail from audit_log where action = ${action} order by id`);

  test('removes nothing without an archive folder', async () => {
    const worker = spawnIngester(['--watch'], t, {
      env: { RETENTION_RECORD_MONTHS: '12', RETENTION_HOUR: thisHour(), TAT_TIME_ZONE: 'UTC', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let logged = '';
    worker.stderr!.on('data', (chunk: Buffer) => (logged += chunk.toString()));
    try {
      await until('the night’s run', async () => logged.includes('retention: RETENTION_ARCHIVE_DIR and ARCHIVE_PASSPHRASE are not both set'), 60_000);
      expect(await count(sql`select count(*)::int as n from ej_records`)).toBe(4);
      expect(await entries('retention.archive')).toEqual([]);
    } finally {
      worker.kill('SIGTERM');
    }
  }, 120_000);

  test('archives the closed month, keeps the open one, and the archive restores', async () => {
    const before = await queryRows<Record<string, unknown>>(t.database.db, sql`select * from ej_records order by id`);
    const worker = spawnIngester(['--watch'], t, {
      env: {
        RETENTION_RECORD_MONTHS: '12',
        RETENTION_HOUR: thisHour(),
        TAT_TIME_ZONE: 'UTC',
        RETENTION_ARCHIVE_DIR: folder,
        ARCHIVE_PASSPHRASE: passphrase,
        LOG_LEVEL: 'error',
      },
    });
    try {
      await until('the night’s run', async () => (await entries('retention.kept')).length > 0, 60_000);
    } finally {
      worker.kill('SIGTERM');
    }
    expect((await entries('retention.archive')).map((e) => e.entity_id)).toEqual(['2019-01']);
    expect((await entries('retention.kept'))[0]).toMatchObject({ entity_id: '2019-02' });
    expect((await entries('retention.kept'))[0]!.detail).toMatch(/2019-02 is kept: 1 dispute of its records is not resolved/);
    expect(readdirSync(folder)).toEqual(['ej-records-2019-01.ejarchive']);
    expect(await count(sql`select count(*)::int as n from pg_class where relname = 'ej_records_2019_01'`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from ej_records where atm_id = 'ATM1'`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from ej_records where atm_id = 'ATM2'`)).toBe(1);

    const restore = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/cli/archive.ts', 'restore', join(folder, 'ej-records-2019-01.ejarchive')], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: t.config.databaseUrl, BANK_PASS_KEY: t.secrets.bankPassKey.toString('hex'), ARCHIVE_PASSPHRASE: passphrase },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let said = '';
    restore.stdout!.on('data', (chunk: Buffer) => (said += chunk.toString()));
    restore.stderr!.on('data', (chunk: Buffer) => (said += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => restore.on('exit', resolve));
    expect(said).toMatch(/ej-records of 2019-01: restored from the archive of .* \(2 ej_records, 1 disputes/);
    expect(code).toBe(0);
    expect(await queryRows<Record<string, unknown>>(t.database.db, sql`select * from ej_records order by id`)).toEqual(before);
    expect(existsSync(join(folder, 'ej-records-2019-01.ejarchive'))).toBe(true);
  }, 180_000);
});
