// `pnpm backup` while `pnpm start` serves (the API dumps its embedded database between two
// statements), encrypted under the passphrase in BACKUP_PASSPHRASE, then `pnpm restore` with it into
// a new data folder and an API started on it: the same counts, and the demo logins work there.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { APIRequestContext } from '@playwright/test';
import { appEnv } from '../playwright.config.ts';
import { demo, demoAdmin, expect, test } from './fixtures.ts';

const root = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const passphrase = { BACKUP_PASSPHRASE: 'an e2e backup passphrase' };

/** What an operator and an admin see counted, through an API at `base`. */
async function counts(request: APIRequestContext, base: string) {
  const token = async (account: typeof demo) => {
    const response = await request.post(`${base}/api/auth/jwt/create/`, { data: account });
    expect(response.status(), `${account.email} at ${base}`).toBe(200);
    return `JWT ${((await response.json()) as { access: string }).access}`;
  };
  const [operator, admin] = [await token(demo), await token(demoAdmin)];
  const count = async (path: string, authorization: string) =>
    ((await (await request.get(`${base}${path}`, { headers: { authorization } })).json()) as { count: number }).count;
  return {
    emails: await count('/api/scrape/ejs/total/email/?page_size=1', operator),
    ejRecords: await count('/api/scrape/extract/email/data/pagination/?page_size=1', operator),
    users: ((await (await request.get(`${base}/api/admin/users/`, { headers: { authorization: admin } })).json()) as unknown[]).length,
  };
}

test('a backup taken while pnpm start serves, restored into a new data folder: the same counts, and the demo logins work', async ({ request, baseURL }) => {
  test.setTimeout(180_000);
  const dir = mkdtempSync(join(tmpdir(), 'ejdesk-backup-'));
  const file = join(dir, 'ejdesk.backup');
  const restored = join(dir, 'data');
  const port = 8188;
  try {
    const before = await counts(request, baseURL!);
    expect(before.emails).toBeGreaterThan(0);

    const backup = await run('pnpm', ['-s', 'backup', file], { cwd: root, env: { ...process.env, ...appEnv, ...passphrase, DATABASE_URL: '' } });
    expect(backup.stdout).toContain('encrypted with the passphrase), from the running API');
    expect(readFileSync(file).subarray(0, 14).toString()).toBe('EJDESK-BACKUP\n');
    const restoreEnv = { ...process.env, ...passphrase, EJDESK_DATA_DIR: restored, DATABASE_URL: '' };
    const restore = await run('pnpm', ['-s', 'restore', file], { cwd: root, env: restoreEnv });
    expect(restore.stdout).toMatch(/^Restored the backup of \S+ into /);

    const api = spawn('pnpm', ['--filter', '@ejdesk/api', '--silent', 'start'], {
      cwd: root,
      stdio: 'ignore',
      detached: true,
      env: { ...process.env, EJDESK_DATA_DIR: restored, API_PORT: String(port), LOG_LEVEL: 'warn', DATABASE_URL: '', EJDESK_HOSTED_WORKER: '' },
    });
    try {
      const base = `http://127.0.0.1:${port}`;
      await expect.poll(async () => (await request.get(`${base}/api/ready`).catch(() => null))?.status(), { timeout: 60_000, intervals: [250] }).toBe(200);
      expect(await counts(request, base)).toEqual(before);
    } finally {
      process.kill(-api.pid!, 'SIGTERM');
    }
    // A second restore into the same folder is refused: a restore never replaces a database.
    const again = await run('pnpm', ['-s', 'restore', file], { cwd: root, env: restoreEnv }).catch((e: { code: number; stderr: string }) => e);
    expect(again).toMatchObject({ code: 1, stderr: expect.stringContaining('already holds a database') });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
