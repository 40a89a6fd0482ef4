// A worker process beside an API that hosts no ingester (`pnpm api` + `pnpm worker` on PostgreSQL):
// an admin's Reprocess is answered "queued" by the API and done by the worker at once, told by the
// database's notification (its own sweep is a minute away), with the same rows as before.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sql } from 'drizzle-orm';
import { loadIngestRules, queryRows } from '@ejdesk/db';
import { admin, createTestApp, login, testDatabaseUrl, type TestApp } from '@ejdesk/api/test-helpers';
import { startDovecot, type Dovecot } from '@ejdesk/mailbox/testing';
import { createLogger, ingestFromImap } from '../src/index.ts';
import { banks, compose, disputeLines, htmlTable, prepareRules } from './support/corpus.ts';
import { passwordMailbox, spawnIngester } from './support/workers.ts';

describe.runIf(testDatabaseUrl)('a worker process serving the queue (PostgreSQL)', () => {
  let dovecot: Dovecot;
  let t: TestApp;
  let worker: ChildProcess;
  let authorization: string;
  const get = async (url: string) => (await t.app.inject({ method: 'GET', url, headers: { authorization } })).json();
  /** Connections of this database whose last statement was a LISTEN. */
  const listeners = async () =>
    (
      await queryRows<{ n: number }>(
        t.database.db,
        sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and query ilike 'listen %'`,
      )
    )[0]!.n;
  let listenersBefore = 0;

  beforeAll(async () => {
    dovecot = await startDovecot();
    t = await createTestApp('postgres');
    await prepareRules(t.database.db, t.secrets.bankPassKey);
    authorization = `JWT ${(await login(t.app, admin)).access}`;
    await dovecot.append([
      await compose({
        from: `Disputes <disputes@${banks.apex.domain}>`,
        subject: 'Queue APX',
        html: htmlTable(disputeLines('QUE', 1, 3)),
        messageId: '<queue-1@apex>',
      }),
    ]);
    await ingestFromImap(passwordMailbox(dovecot), {
      db: t.database.db,
      loadRules: () => loadIngestRules(t.database.db, t.secrets.bankPassKey),
      log: createLogger('error'),
      lanes: 1,
    });
    listenersBefore = await listeners();
    worker = spawnIngester(['--watch'], t, { env: { LOG_LEVEL: 'error' } });
  }, 60_000);
  afterAll(async () => {
    worker?.kill('SIGTERM');
    await t?.close();
    await dovecot?.stop();
  });

  test('Reprocess is queued by the API and done by the worker, at once', async () => {
    const before = (await get('/api/scrape/extract/email/data/pagination/?page_size=100&atm_id=QUE')).results;
    expect(before).toHaveLength(3);
    const emailId = (await queryRows<{ id: number }>(t.database.db, sql`select id from emails where subject = 'Queue APX'`))[0]!.id;
    // The worker is up and listening (one more connection whose last statement is a LISTEN).
    while ((await listeners()) <= listenersBefore) await new Promise((r) => setTimeout(r, 100));
    // ...and past its first pass over the queue (which follows the LISTEN, and would take the email too).
    await new Promise((r) => setTimeout(r, 2000));
    const asked = Date.now();
    const answer = await t.app.inject({ method: 'POST', url: `/api/admin/emails/${emailId}/reprocess/`, headers: { authorization } });
    expect(answer.statusCode).toBe(202);
    expect(answer.json()).toMatchObject({ processed: false, detail: 'Queued: the mail ingester processes it in its turn.' });
    for (;;) {
      const rows = (await get('/api/scrape/extract/email/data/pagination/?page_size=100&atm_id=QUE')).results;
      if (rows.length === 3) {
        expect(rows.map((r: { atm_id: string }) => r.atm_id).sort()).toEqual(before.map((r: { atm_id: string }) => r.atm_id).sort());
        break;
      }
      // Well before the worker's own sweep (a minute): the notification woke it.
      expect(Date.now() - asked).toBeLessThan(30_000);
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 60_000);
});
