// Backups: the API's dump of its embedded database (for `pnpm backup` while the product runs)
// answers only to the data folder's token and never through the edge, and restores into an empty
// folder with the same rows; a real server's backup is pg_dump's, and the documented pg_dump and
// pg_restore commands bring back the same rows.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { openDatabase, packBackup, queryRows, restoreBackup } from '@ejdesk/db';
import { backupToken } from '../src/routes/backup/index.ts';
import { createTestApp, testDatabaseUrl, throwawayDatabase } from './helpers.ts';
import { freePort } from '@ejdesk/http/testing';

const run = promisify(execFile);
const cwd = new URL('..', import.meta.url).pathname;
const userEmails = async (db: Parameters<typeof queryRows>[0]) =>
  (await queryRows<{ email: string }>(db, sql`select email from users order by id`)).map((u) => u.email);

describe('pnpm backup and pnpm restore with nothing running', () => {
  test('back up the data folder itself, writing nothing into it, and restore it whole elsewhere', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ejdesk-backup-cli-'));
    const env = {
      ...process.env,
      DATABASE_URL: '',
      EJDESK_DATA_DIR: join(dir, 'data'),
      API_PORT: String(await freePort()),
      EJDESK_PASSWORD: 'a long enough password',
    };
    try {
      await run(process.execPath, ['--import', 'tsx', 'src/cli/user-create.ts', '--email', 'ops@bank.example'], { cwd, env });
      const before = readdirSync(join(dir, 'data')).sort();
      const backup = await run(process.execPath, ['--import', 'tsx', 'src/cli/backup.ts', 'backup', join(dir, 'copy.tar.gz')], { cwd, env });
      expect(backup.stdout).toContain('from the data folder (nothing runs on it)');
      // No key made for the occasion (a backup reads the folder, it never writes into it).
      expect(readdirSync(join(dir, 'data')).sort()).toEqual(before);
      const restored = { ...env, EJDESK_DATA_DIR: join(dir, 'restored') };
      await run(process.execPath, ['--import', 'tsx', 'src/cli/backup.ts', 'restore', join(dir, 'copy.tar.gz')], { cwd, env: restored });
      const database = await openDatabase({ dataDir: join(dir, 'restored', 'pg') });
      expect(await userEmails(database.db)).toEqual(['ops@bank.example']);
      await database.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('POST /api/backup/ (the embedded database)', () => {
  test('answers the dump to the data folder’s token only, never through the edge, and the dump restores whole', async () => {
    const t = await createTestApp('pglite');
    const dir = mkdtempSync(join(tmpdir(), 'ejdesk-restore-'));
    try {
      const ask = (headers: Record<string, string>) => t.app.inject({ method: 'POST', url: '/api/backup/', headers });
      expect((await ask({})).statusCode).toBe(401);
      expect((await ask({ authorization: `Bearer ${backupToken('another data folder’s key')}` })).json()).toEqual({
        detail: 'A valid backup token is required.',
      });
      const token = { authorization: `Bearer ${backupToken(t.secrets.jwtSecret)}` };
      expect((await ask({ ...token, 'x-ejdesk-proxy': 'anything' })).statusCode).toBe(404);
      const answer = await ask(token);
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toBe('application/gzip');

      await restoreBackup(await packBackup(answer.rawPayload, dir), join(dir, 'restored'));
      const restored = await openDatabase({ dataDir: join(dir, 'restored', 'pg') });
      expect(await userEmails(restored.db)).toEqual(await userEmails(t.database.db));
      await restored.close();
      await expect(restoreBackup(await packBackup(answer.rawPayload, dir), join(dir, 'restored'))).rejects.toThrow('already holds a database');
      await expect(restoreBackup(Buffer.from('not a backup'), join(dir, 'other'))).rejects.toThrow('it is not an EJ Desk backup');
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe.runIf(testDatabaseUrl)('PostgreSQL backups', () => {
  test('POST /api/backup/ is not there (pg_dump is), and the documented pg_dump and pg_restore bring back the same rows', async () => {
    const t = await createTestApp('postgres');
    const target = await throwawayDatabase();
    const dir = mkdtempSync(join(tmpdir(), 'ejdesk-pgdump-'));
    try {
      expect(
        (await t.app.inject({ method: 'POST', url: '/api/backup/', headers: { authorization: `Bearer ${backupToken(t.secrets.jwtSecret)}` } })).statusCode,
      ).toBe(404);
      const dump = join(dir, 'ejdesk.dump');
      await run('pg_dump', ['--format=custom', `--file=${dump}`, t.config.databaseUrl!]);
      await run('pg_restore', ['--no-owner', `--dbname=${target.url}`, dump]);
      const restored = await openDatabase({ url: target.url });
      expect(await restored.isCurrent()).toBe(true);
      expect(await userEmails(restored.db)).toEqual(await userEmails(t.database.db));
      await restored.close();
    } finally {
      await t.close();
      await target.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
