// `pnpm ingest --from` runs are sources of their own in Mail Flow: a folder of .eml files and an
// mbox file each show as imported, with when the run ended, what it processed and its failures,
// so the screen accounts for every message the product processed; an import never stalls.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadIngestRules } from '@ejdesk/db';
import { backends, createTestApp, login, type TestApp } from '@ejdesk/api/test-helpers';
import { createLogger, ingestFromPath, type RunOptions } from '../src/index.ts';
import { banks, compose, disputeLines, htmlTable, prepareRules, toMbox } from './support/corpus.ts';

const mail = (n: number, broken = false) =>
  compose({
    from: `Disputes <disputes@${banks.apex.domain}>`,
    subject: `Imported ${n} APX`,
    html: broken ? '<p>Statement attached.</p>' : htmlTable(disputeLines('APX', 300 + n, 1)),
    messageId: `<import-${n}@apex>`,
    ...(broken ? { attachments: [{ filename: 'statement.pdf', content: Buffer.from('%PDF-1.7 not a PDF'), contentType: 'application/pdf' }] } : {}),
  });

describe.each(backends)('imports in Mail Flow on %s', (backend) => {
  let t: TestApp;
  let options: RunOptions;
  let authorization: string;
  const folder = mkdtempSync(join(tmpdir(), 'ejdesk-import-'));
  const mbox = join(mkdtempSync(join(tmpdir(), 'ejdesk-mbox-')), 'disputes.mbox');

  beforeAll(async () => {
    t = await createTestApp(backend, { stallAfterSeconds: 1 });
    await prepareRules(t.database.db, t.secrets.bankPassKey);
    authorization = `JWT ${(await login(t.app)).access}`;
    options = { db: t.database.db, loadRules: () => loadIngestRules(t.database.db, t.secrets.bankPassKey), log: createLogger('error'), lanes: 1 };
    writeFileSync(join(folder, 'a.eml'), await mail(1));
    writeFileSync(join(folder, 'b.eml'), await mail(2, true));
    writeFileSync(mbox, toMbox([await mail(3), await mail(4), await mail(5)]));
  }, 60_000);
  afterAll(() => t?.close());

  test('each run is a source with its last run, what it processed and its failures; none stalls', async () => {
    expect((await ingestFromPath(folder, options)).processed).toBe(2);
    expect((await ingestFromPath(mbox, options)).processed).toBe(3);
    await new Promise((r) => setTimeout(r, 1500)); // past the stall threshold
    const response = await t.app.inject({ method: 'GET', url: '/api/mail-flow/', headers: { authorization } });
    const flow = response.json();
    expect(flow.mailboxes).toEqual([
      expect.objectContaining({ source: `file:${folder}`, state: 'imported', last_error: null, waiting: 0, processed_last_hour: 2 }),
      expect.objectContaining({ source: `mbox:${mbox}`, state: 'imported', last_error: null, waiting: 0, processed_last_hour: 3 }),
    ]);
    for (const source of flow.mailboxes) expect(Date.now() - new Date(source.last_sync_at).getTime()).toBeLessThan(60_000);
    expect(flow.failures).toEqual([
      expect.objectContaining({ subject: 'Imported 2 APX', source: `file:${folder}`, reason: expect.stringMatching(/^statement\.pdf: /) }),
    ]);
    expect(flow.queue.processed_last_hour).toBe(5);
    expect(flow.stalled).toMatchObject({ stalled: false, reasons: [] });
  });

  test('a path that cannot be read is the run’s failure, on its own line', async () => {
    const missing = join(folder, 'no-such.mbox');
    const summary = await ingestFromPath(missing, options);
    expect(summary.hardFailures).toEqual([expect.stringMatching(/^reading .*no-such\.mbox: /)]);
    const flow = (await t.app.inject({ method: 'GET', url: '/api/mail-flow/', headers: { authorization } })).json();
    expect(flow.mailboxes.find((m: { source: string }) => m.source === `mbox:${missing}`)).toMatchObject({
      state: 'imported',
      last_error: expect.stringMatching(/no-such\.mbox/),
    });
  });
  // Last: it adds a source. PGlite has one connection, so no writer there can wait on another.
  test.skipIf(backend === 'pglite')('stores a batch again when it loses a deadlock to another writer, each message once', async () => {
    const db = t.database.db;
    // Two rare words, counted already: each writer locks the count of each word it stores.
    await db.execute(sql`insert into emails (subject, received_at) values ('Seen zdeadalpha zdeadbeta', now())`);
    const file = join(mkdtempSync(join(tmpdir(), 'ejdesk-deadlock-')), 'deadlock.mbox');
    const message = (word: string) =>
      compose({ from: `Disputes <disputes@${banks.apex.domain}>`, subject: `Deadlock ${word}`, html: '<p>No rows.</p>', messageId: `<deadlock-${word}@apex>` });
    writeFileSync(file, toMbox([await message('zdeadalpha'), await message('zdeadbeta')]));
    const holder = new pg.Client({ connectionString: t.config.databaseUrl });
    await holder.connect();
    try {
      // The holder looks for a deadlock only after 20 s: the run's connection, after 1 s, finds it first and loses.
      await holder.query(`set deadlock_timeout = '20s'`);
      await holder.query('begin');
      await holder.query(`insert into emails (subject, received_at) values ('Holder zdeadbeta', now())`);
      const run = ingestFromPath(file, options);
      // The run stores its first message (zdeadalpha), then waits for the holder's zdeadbeta; the
      // holder then asks for zdeadalpha, which the run holds.
      const waiting = async () =>
        (await holder.query<{ n: number }>(`select count(*)::int as n from pg_locks where not granted and locktype = 'transactionid'`)).rows[0]!.n;
      for (let tries = 0; (await waiting()) === 0; tries++) {
        if (tries > 500) throw new Error('the run never waited for the holder');
        await new Promise((r) => setTimeout(r, 10));
      }
      await holder.query(`insert into emails (subject, received_at) values ('Holder zdeadalpha', now())`);
      await holder.query('commit');
      const summary = await run;
      expect(summary.hardFailures).toEqual([]);
      expect(summary.stored).toBe(2);
      const stored = await holder.query<{ subject: string; n: number }>(
        `select subject, count(*)::int as n from emails where subject like 'Deadlock %' group by subject order by subject`,
      );
      expect(stored.rows).toEqual([
        { subject: 'Deadlock zdeadalpha', n: 1 },
        { subject: 'Deadlock zdeadbeta', n: 1 },
      ]);
    } finally {
      await holder.end();
    }
  });
});
