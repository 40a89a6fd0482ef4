// The CLIs as an operator runs them, as child processes against a throwaway PostgreSQL database.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveMonth, audit, openDatabase, queryRows, restoreArchive, type Db } from '@ejdesk/db';
import { verifyPassword } from '../src/lib/passwords.ts';
import { testDatabaseUrl, throwawayDatabase } from './helpers.ts';

const run = promisify(execFile);
const cli = (script: string, args: string[], env: Record<string, string>) =>
  run(process.execPath, ['--import', 'tsx', `src/cli/${script}.ts`, ...args], {
    cwd: new URL('..', import.meta.url).pathname,
    env: { ...process.env, ...env },
  });

// Each test starts the CLIs as processes (each compiles its TypeScript and hashes with argon2): on a
// machine busy with other suites that alone takes tens of seconds.
describe.runIf(testDatabaseUrl)('CLIs on a real PostgreSQL server', { timeout: 180_000 }, () => {
  let scratch: Awaited<ReturnType<typeof throwawayDatabase>>;
  beforeAll(async () => {
    scratch = await throwawayDatabase();
  });
  afterAll(() => scratch.drop());

  const users = async () => {
    const database = await openDatabase({ url: scratch.url });
    const rows = await queryRows<{ email: string; password_hash: string; role: string }>(
      database.db,
      sql`select email, password_hash, role from users order by id`,
    );
    await database.close();
    return rows;
  };

  it('prepare:demo migrates but never creates an account or demo data there', async () => {
    await cli('prepare-demo', [], { DATABASE_URL: scratch.url });
    expect(await users()).toEqual([]);
  });

  it('user:create makes an operator with an argon2id hash, once', async () => {
    const { stdout } = await cli('user-create', ['--email', 'Ops@Bank.example'], {
      DATABASE_URL: scratch.url,
      EJDESK_PASSWORD: 'a long enough password',
    });
    expect(stdout).toMatch(/created operator \d+ <Ops@Bank.example>/);
    const [user] = await users();
    expect(user!.role).toBe('operator');
    expect(user!.password_hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(user!.password_hash, 'a long enough password')).toBe(true);

    const again = cli('user-create', ['--email', 'ops@bank.example'], { DATABASE_URL: scratch.url, EJDESK_PASSWORD: 'another password!' });
    await expect(again).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/already exists/) });
    await expect(cli('user-create', ['--email', 'x@y.example'], { DATABASE_URL: scratch.url, EJDESK_PASSWORD: 'short' })).rejects.toMatchObject({
      code: 2,
    });
    expect(await users()).toHaveLength(1);
  });

  it('user:create --role admin makes an admin; any other role is refused and nothing is made', async () => {
    const env = { DATABASE_URL: scratch.url, EJDESK_PASSWORD: 'a long enough password' };
    const { stdout } = await cli('user-create', ['--email', 'boss@bank.example', '--role', 'admin'], env);
    expect(stdout).toMatch(/created admin \d+ <boss@bank.example>/);
    await expect(cli('user-create', ['--email', 'root@bank.example', '--role', 'root'], env)).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--role is one of operator, admin/),
    });
    expect((await users()).map((u) => [u.email, u.role])).toEqual([
      ['Ops@Bank.example', 'operator'],
      ['boss@bank.example', 'admin'],
    ]);
  });

  it('audit-log verify says the chain holds, and names an entry edited, one deleted and one inserted behind its back', async () => {
    const own = await throwawayDatabase();
    const database = await openDatabase({ url: own.url });
    try {
      await database.migrate();
      for (let i = 1; i <= 6; i += 1)
        await audit(database.db, { userId: null, action: 'change', entity: 'tat_rule', entityId: String(i), detail: `days ${i}` });
      await database.db.execute(sql`select audit_chain_extend(null, true)`);
      const ids = (await queryRows<{ id: number }>(database.db, sql`select id::float8 as id from audit_log order by id`)).map((r) => r.id);
      const verify = async () => {
        try {
          const { stdout } = await cli('audit-log', ['verify'], { DATABASE_URL: own.url });
          return { code: 0, said: stdout };
        } catch (error) {
          return { code: (error as { code: number }).code, said: (error as { stderr: string }).stderr };
        }
      };
      // As a database administrator would: the triggers off, the table written directly.
      const behindItsBack = (statement: ReturnType<typeof sql>) =>
        database.db.transaction(async (tx) => {
          await tx.execute(sql`set local session_replication_role = replica`);
          await tx.execute(statement);
        });

      expect(await verify()).toEqual({ code: 0, said: expect.stringMatching(/the chain holds: 6 entries/) });

      await behindItsBack(sql`update audit_log set detail = 'days 30' where id = ${ids[1]}`);
      expect(await verify()).toEqual({ code: 1, said: expect.stringContaining(`Entry ${ids[1]} was changed`) });
      await behindItsBack(sql`update audit_log set detail = 'days 2' where id = ${ids[1]}`);

      const [third] = await queryRows<Record<string, unknown>>(database.db, sql`select * from audit_log where id = ${ids[2]}`);
      await behindItsBack(sql`delete from audit_log where id = ${ids[2]}`);
      expect(await verify()).toEqual({ code: 1, said: expect.stringContaining(`An entry between ${ids[1]} and ${ids[3]} was removed`) });
      await behindItsBack(sql`insert into audit_log select * from json_populate_record(null::audit_log, ${JSON.stringify(third)}::json)`);
      expect((await verify()).code).toBe(0);

      // Inserted at the end, chained as the database would: only the head tells.
      const [last] = await queryRows<{ hash: string }>(database.db, sql`select hash from audit_log where id = ${ids[5]}`);
      await behindItsBack(
        sql`insert into audit_log (id, chain_seq, action, entity, prev_hash, hash) values (${ids[5]! + 1}, 7, 'delete', 'bank_password', ${last!.hash},
              audit_entry_hash(${last!.hash}, now(), null, 'delete', 'bank_password', null, null, null))`,
      );
      expect(await verify()).toEqual({ code: 1, said: expect.stringContaining('The newest entries were removed or changed') });
    } finally {
      await database.close();
      await own.drop();
    }
  });

  it('pnpm archive answers a wrong command line with its usage (2), and a missing passphrase or file with why (1)', async () => {
    const env = { DATABASE_URL: scratch.url, ARCHIVE_PASSPHRASE: '' };
    for (const args of [['month', 'emails', '2019-01', 'x.ejarchive'], ['restore']])
      await expect(cli('archive', args, env)).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/^Usage: pnpm archive run \|/) });
    await expect(cli('archive', ['run'], env)).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/ARCHIVE_PASSPHRASE is not set/) });
    await expect(
      cli('archive', ['restore', '/nonexistent/2019-01.ejarchive'], { ...env, ARCHIVE_PASSPHRASE: 'twelve characters or more' }),
    ).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^EJ Desk archive: .*2019-01\.ejarchive/),
    });
    // Nothing was audited: no run began.
    const database = await openDatabase({ url: scratch.url });
    expect(await queryRows(database.db, sql`select action from audit_log where action like 'retention.%'`)).toEqual([]);
    await database.close();
  });

  it("gives the API's role (deploy/postgres/api-role.sql) no way to change or remove an audit entry", async () => {
    const own = await throwawayDatabase();
    const owner = await openDatabase({ url: own.url });
    await owner.migrate();
    await owner.db.execute(sql.raw(readFileSync(new URL('../../../deploy/postgres/api-role.sql', import.meta.url), 'utf8')));
    const asApi = new URL(own.url);
    asApi.username = 'ejdesk_api';
    const api = await openDatabase({ url: asApi.toString() });
    const refusal = async (statement: ReturnType<typeof sql>) => {
      try {
        await api.db.execute(statement);
        return 'done';
      } catch (error) {
        return String((error as { cause?: { message?: string } }).cause?.message);
      }
    };
    try {
      // It starts on the database its owner migrated (it may not migrate), and adds entries.
      await api.migrate();
      await api.db.transaction((tx) => audit(tx as unknown as Db, { userId: null, action: 'login', entity: 'user' }));
      // It places its entries in the chain (the chainer runs as the owner), and cannot do more.
      await api.db.execute(sql`select audit_chain_extend(null, true)`);
      expect(await queryRows(api.db, sql`select action, prev_hash from audit_log`)).toEqual([{ action: 'login', prev_hash: '0'.repeat(64) }]);
      // The grants refuse it before any trigger runs, even with the triggers off.
      expect(await refusal(sql`update audit_log set detail = 'x'`)).toBe('permission denied for table audit_log');
      expect(await refusal(sql`delete from audit_log`)).toBe('permission denied for table audit_log');
      expect(await refusal(sql`truncate audit_log`)).toBe('permission denied for table audit_log');
      expect(await refusal(sql`update audit_chain_head set last_hash = ''`)).toBe('permission denied for table audit_chain_head');
      expect(await refusal(sql`set session_replication_role = replica`)).toMatch(/permission denied/);
      // The rest of the product's tables are its to write.
      expect(await refusal(sql`insert into bank_msps (bank_name, msp) values ('Harbor Bank', 'Acme MSP')`)).toBe('done');
      // The night's retention runs as this role: the partitions are made, detached and dropped by
      // the owner's functions, the rows archived and restored with its own grants.
      await owner.db.execute(sql`insert into ej_records (kind, atm_id, txt_no, create_at) values ('overage', 'ATM1', 'T1', '2019-03-05T00:00:00Z')`);
      expect(await refusal(sql`select month_partition('ej_records', '2019-03-01')`)).toBe('done');
      expect(await refusal(sql`alter table ej_records detach partition ej_records_2019_03`)).toBe('must be owner of table ej_records');
      const folder = mkdtempSync(join(tmpdir(), 'ejdesk-archive-'));
      const file = join(folder, '2019-03.ejarchive');
      const archive = { file, passphrase: 'twelve characters or more', scrypt: { N: 2 ** 10, r: 8, p: 1 }, userId: null };
      const archived = (await archiveMonth(api.db, 'ej-records', '2019-03', archive))!;
      expect(archived.dropped).toBe(true);
      expect(archived.tables.filter((t) => t.rows > 0)).toEqual([{ name: 'ej_records', rows: 1 }]);
      expect((await restoreArchive(api.db, file, archive.passphrase, null)).tables[0]).toEqual({ name: 'ej_records', rows: 1 });
      expect(await queryRows(api.db, sql`select atm_id from ej_records where create_at < '2019-04-01'`)).toEqual([{ atm_id: 'ATM1' }]);
      rmSync(folder, { recursive: true });
    } finally {
      await api.close();
      await owner.close();
      await own.drop();
    }
  });
});
