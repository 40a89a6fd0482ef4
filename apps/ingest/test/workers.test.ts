// The ingester as operators run it: `pnpm ingest` processes on one PostgreSQL database. A run
// killed midway and run again, and two workers at once, must end with exactly the rows a single
// clean run writes. (Several processes need a real server: the embedded database is one process's.)
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadIngestRules, queryRows } from '@ejdesk/db';
import { createTestApp, testDatabaseUrl, type TestApp } from '@ejdesk/api/test-helpers';
import { sql } from 'drizzle-orm';
import { createLogger, ingestFromImap } from '../src/index.ts';
import { bulkCorpus, prepareRules, testCorpus } from './support/corpus.ts';
import { startDovecot, type Dovecot } from '@ejdesk/mailbox/testing';
import { ingestSnapshot } from './support/snapshot.ts';
import { spawnIngester } from './support/workers.ts';

describe.runIf(testDatabaseUrl)('ingest workers on PostgreSQL', () => {
  let dovecot: Dovecot;
  let reference: Awaited<ReturnType<typeof ingestSnapshot>>;
  let total: number;
  const apps: TestApp[] = [];

  async function freshDatabase(): Promise<TestApp> {
    const t = await createTestApp('postgres');
    apps.push(t);
    await prepareRules(t.database.db, t.secrets.bankPassKey);
    return t;
  }

  function worker(t: TestApp, password = dovecot.password): { child: ChildProcess; done: Promise<{ code: number | null; output: string }> } {
    const child = spawnIngester(['--imap'], t, { dovecot, password, env: { LOG_LEVEL: 'debug' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const done = new Promise<{ code: number | null; output: string }>((resolve) => child.on('exit', (code) => resolve({ code, output })));
    return { child, done };
  }

  const processedCount = async (t: TestApp) =>
    (await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from email_sources where processed_at is not null`))[0]!.n;

  beforeAll(async () => {
    dovecot = await startDovecot();
    const messages = [...(await testCorpus()).map((m) => m.raw), ...(await bulkCorpus(600))];
    await dovecot.append(messages);
    // The reference: one clean in-process run.
    const t = await freshDatabase();
    const summary = await ingestFromImap(
      { host: dovecot.host, port: dovecot.port, user: dovecot.user, auth: { method: 'password', password: dovecot.password }, tls: false, mailbox: 'INBOX' },
      { db: t.database.db, loadRules: () => loadIngestRules(t.database.db, t.secrets.bankPassKey), log: createLogger('error'), lanes: 1 },
    );
    expect(summary.hardFailures).toEqual([]);
    total = summary.stored;
    reference = await ingestSnapshot(t.database.db);
    expect(reference.totals!.queued).toBe(0);
  }, 300_000);

  afterAll(async () => {
    for (const t of apps) await t.close();
    await dovecot?.stop();
  });

  test('a run killed midway and run again ends with exactly the rows of a clean run', async () => {
    const t = await freshDatabase();
    const first = worker(t);
    // Kill it once it has processed some messages but not all (SIGKILL: no chance to clean up).
    for (let n = 0; n < 20 || n >= total; n = await processedCount(t)) await new Promise((r) => setTimeout(r, 20));
    first.child.kill('SIGKILL');
    await first.done;
    const halfway = await processedCount(t);
    expect(halfway).toBeGreaterThan(0);
    expect(halfway).toBeLessThan(total);

    const second = await worker(t).done;
    expect(second.code, second.output).toBe(0);
    expect(await ingestSnapshot(t.database.db)).toEqual(reference);
  }, 180_000);

  test('two workers at once share the mailbox and end with the same rows as one', async () => {
    const t = await freshDatabase();
    const [a, b] = await Promise.all([worker(t).done, worker(t).done]);
    expect(a.code, a.output).toBe(0);
    expect(b.code, b.output).toBe(0);
    // Both did work, and each printed its summary.
    const processed = [a, b].map((run) => Number(/processed: (\d+)/.exec(run.output)?.[1]));
    expect(
      processed.every((n) => n > 0),
      `${a.output}\n${b.output}`,
    ).toBe(true);
    expect(processed[0]! + processed[1]!).toBe(total);
    expect(await ingestSnapshot(t.database.db)).toEqual(reference);
    // Credentials never reach the output, even at debug level.
    expect(a.output + b.output).not.toContain(dovecot.password);
  }, 180_000);

  test('a mailbox that refuses the login fails the run (exit 1) without printing the password', async () => {
    const t = await freshDatabase();
    const wrong = 'wrong-password-that-must-not-leak';
    const run = await worker(t, wrong).done;
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/FAILED: connecting to imap:\/\/ejdesk@127\.0\.0\.1:\d+\/INBOX/);
    expect(run.output).not.toContain(wrong);
  }, 60_000);
});
