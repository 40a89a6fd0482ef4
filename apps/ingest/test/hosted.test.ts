// `pnpm start` with IMAP_* set: the API process also watches the mailbox, on the one embedded
// database only it may open. New mail appended to a real Dovecot lands in that database.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openDatabase, queryRows } from '@ejdesk/db';
import { sql } from 'drizzle-orm';
import { compose } from './support/corpus.ts';
import { startDovecot, type Dovecot } from '@ejdesk/mailbox/testing';

const apiDir = new URL('../../api/', import.meta.url).pathname;
const hosted = new URL('../src/hosted.ts', import.meta.url).pathname;
let dovecot: Dovecot;
let dataDir: string;

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

beforeAll(async () => {
  dovecot = await startDovecot();
  dataDir = mkdtempSync(join(tmpdir(), 'ejdesk-hosted-'));
});
afterAll(async () => {
  await dovecot?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test('the API process ingests new mail when IMAP_* is set, and stops cleanly', async () => {
  const port = await freePort();
  const api = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: apiDir,
    env: {
      ...process.env,
      DATABASE_URL: '',
      EJDESK_DATA_DIR: dataDir,
      API_PORT: String(port),
      LOG_LEVEL: 'info',
      EJDESK_HOSTED_WORKER: hosted,
      IMAP_HOST: dovecot.host,
      IMAP_PORT: String(dovecot.port),
      IMAP_USER: dovecot.user,
      IMAP_PASSWORD: dovecot.password,
      IMAP_TLS: 'false',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  api.stdout!.on('data', (d) => (output += d));
  api.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => api.on('exit', resolve));
  // It migrates a fresh embedded database first: up to a minute and a half beside other suites.
  for (let i = 0; !/watching imap:/.test(output); i++) {
    if (i > 900 || api.exitCode !== null) throw new Error(`the API did not start watching:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  await dovecot.append([await compose({ from: 'someone@unknown.example', subject: 'Arrived while the API ran', text: 'hello', messageId: '<hosted-1@test>' })]);
  for (let i = 0; !/Messages seen: 1, stored: 1/.test(output); i++) {
    if (i > 300) throw new Error(`the message was not ingested:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  api.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect(output).not.toContain(dovecot.password);

  const database = await openDatabase({ dataDir: join(dataDir, 'pg') });
  const rows = await queryRows<{ subject: string; category: string; is_read: boolean }>(database.db, sql`select subject, category, is_read from emails`);
  await database.close();
  expect(rows).toEqual([{ subject: 'Arrived while the API ran', category: 'ignored', is_read: true }]);
}, 180_000);
