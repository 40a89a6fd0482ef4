// The CLIs as an operator runs them, as child processes against a throwaway PostgreSQL database.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows } from '@ejdesk/db';
import { verifyPassword } from '../src/lib/passwords.ts';
import { testDatabaseUrl, throwawayDatabase } from './helpers.ts';

const run = promisify(execFile);
const cli = (script: string, args: string[], env: Record<string, string>) =>
  run(process.execPath, ['--import', 'tsx', `src/cli/${script}.ts`, ...args], {
    cwd: new URL('..', import.meta.url).pathname,
    env: { ...process.env, ...env },
  });

describe.runIf(testDatabaseUrl)('CLIs on a real PostgreSQL server', () => {
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
});
