// Ingestion operations against a real Dovecot and a real database (PGlite and
// PostgreSQL), through the API the screens use: a sender mapping added by an admin decides the
// bank of mail ingested after it; the Mail flow answer shows the sync, the checkpoint, the counts
// and a failure with its reason; Reprocess applies a rule changed since; the stall is reported
// when the watcher stops past the threshold and clears when it syncs again.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { emails, emailSources, loadIngestRules } from '@ejdesk/db';
import { admin, backends, createTestApp, login, type TestApp } from '@ejdesk/api/test-helpers';
import { createLogger, processStored, watchImap, type ImapSettings, type RunOptions } from '../src/index.ts';
import { compose, disputeLines, htmlTable } from './support/corpus.ts';
import { startDovecot, type Dovecot } from '@ejdesk/mailbox/testing';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(backends)('mail flow on %s', (backend) => {
  let dovecot: Dovecot;
  let t: TestApp;
  let settings: ImapSettings;
  let options: RunOptions;
  let asAdmin: string;
  let asOperator: string;
  const stallAfterSeconds = 2;

  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, authorization = asAdmin, payload?: object) =>
    t.app.inject({ method, url, headers: { authorization }, ...(payload ? { payload } : {}) });
  const get = async (url: string, authorization = asAdmin) => {
    const response = await call('GET', url, authorization);
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return response.json();
  };

  /**
   * Watch the mailbox until stop(): round() resolves after the next finished round, stored() after
   * the next round that stored mail (a poll may finish a round with nothing new meanwhile).
   */
  function watch() {
    const controller = new AbortController();
    let roundDone: () => void = () => undefined;
    let storedDone: () => void = () => undefined;
    const watching = watchImap(settings, {
      ...options,
      pollMs: 300,
      signal: controller.signal,
      onRound: (summary) => {
        roundDone();
        if (summary.stored) storedDone();
      },
    });
    return {
      round: () => new Promise<void>((resolve) => (roundDone = resolve)),
      stored: () => new Promise<void>((resolve) => (storedDone = resolve)),
      stop: async () => {
        controller.abort();
        await watching;
      },
    };
  }

  beforeAll(async () => {
    dovecot = await startDovecot();
    t = await createTestApp(backend, { stallAfterSeconds });
    settings = {
      host: dovecot.host,
      port: dovecot.port,
      user: dovecot.user,
      auth: { method: 'password', password: dovecot.password },
      tls: false,
      mailbox: 'INBOX',
    };
    options = { db: t.database.db, loadRules: () => loadIngestRules(t.database.db, t.secrets.bankPassKey), log: createLogger('error'), lanes: 1 };
    // As `pnpm start` hosts it: the API processes a Reprocess at once.
    t.app.ctx.ingest.processQueued = async () => void (await processStored(options));
    asAdmin = `JWT ${(await login(t.app, admin)).access}`;
    asOperator = `JWT ${(await login(t.app)).access}`;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await dovecot?.stop();
  });

  test("mail from a sender an admin mapped is ingested for that sender's bank; the Mail flow shows the sync", async () => {
    expect((await call('POST', '/api/scrape/bank/msp/create/', asAdmin, { msp: 'Orbit Services', bank_name: 'Meridian Bank' })).statusCode).toBe(201);
    const watcher = watch();
    await watcher.round();
    // Before the mapping: not a known sender, so ignored.
    let arrived = watcher.stored();
    await dovecot.append([
      await compose({
        from: 'Disputes <disputes@meridian.example>',
        subject: 'Before the mapping MRD',
        html: htmlTable(disputeLines('MRD', 1, 1)),
        messageId: '<before@ops>',
      }),
    ]);
    await arrived;
    expect((await call('POST', '/api/admin/sender-mappings/', asAdmin, { sender: '@meridian.example', organisation: 'Meridian Bank' })).statusCode).toBe(201);
    arrived = watcher.stored();
    await dovecot.append([
      await compose({
        from: 'Disputes <disputes@meridian.example>',
        subject: 'After the mapping MRD',
        html: htmlTable(disputeLines('MRD', 2, 2)),
        messageId: '<after@ops>',
      }),
    ]);
    await arrived;

    const ignored = await get('/api/scrape/ejs/ignore/email/data/?page_size=100');
    expect(ignored.results.map((r: { subject_name: string }) => r.subject_name)).toEqual(['Before the mapping MRD']);
    const rows = await get(`/api/scrape/extract/email/data/pagination/?page_size=100&bank_name=${encodeURIComponent('Meridian Bank')}`);
    expect(rows.results.map((r: { atm_id: string }) => r.atm_id).sort()).toEqual(['MRD00002', 'MRD00003']);

    const flow = await get('/api/mail-flow/', asOperator);
    expect(flow.mailboxes).toEqual([
      expect.objectContaining({
        source: `imap://${dovecot.user}@${dovecot.host}:${dovecot.port}/INBOX`,
        state: 'connected',
        last_error: null,
        last_uid: 2,
        uid_validity: expect.any(Number),
        waiting: 0,
        processed_last_hour: 2,
        processed_last_day: 2,
      }),
    ]);
    expect(Date.now() - new Date(flow.mailboxes[0].last_sync_at).getTime()).toBeLessThan(60_000);
    expect(flow.queue).toMatchObject({ waiting: 0, oldest_waiting_at: null, processed_last_hour: 2 });
    expect(flow.stalled).toEqual({ stalled: false, reasons: [], stall_after_seconds: stallAfterSeconds });

    // A failure shows with its reason and the email it belongs to.
    arrived = watcher.stored();
    await dovecot.append([
      await compose({
        from: 'disputes@meridian.example',
        subject: 'Broken statement MRD',
        attachments: [{ filename: 'statement.pdf', content: Buffer.from('%PDF-1.7 this is not a PDF'), contentType: 'application/pdf' }],
        messageId: '<broken@ops>',
      }),
    ]);
    await arrived;
    await watcher.stop();
    const afterFailure = await get('/api/mail-flow/');
    expect(afterFailure.mailboxes[0].state).toBe('stopped');
    const [failure] = afterFailure.failures;
    expect(failure).toMatchObject({
      subject: 'Broken statement MRD',
      email_from: 'disputes@meridian.example',
      reason: expect.stringMatching(/statement\.pdf/),
      source: afterFailure.mailboxes[0].source,
    });
    const details = await get(`/api/scrape/email/body/html/text/data/${failure.email_id}/`);
    expect(details.subject).toBe('Broken statement MRD');
  }, 90_000);

  test('Reprocess applies a rule changed since: the email changes category, audited; bad requests change nothing', async () => {
    const [after] = await t.database.db.select({ id: emails.id, category: emails.category }).from(emails).where(eq(emails.subject, 'After the mapping MRD'));
    expect(after!.category).toBe('processed');
    expect((await call('POST', '/api/admin/ignore-rules/', asAdmin, { field: 'subject', pattern: 'after the mapping' })).statusCode).toBe(201);

    const refused = await call('POST', `/api/admin/emails/${after!.id}/reprocess/`, asOperator);
    expect(refused.statusCode).toBe(403);
    const reprocessed = await call('POST', `/api/admin/emails/${after!.id}/reprocess/`);
    expect(reprocessed.statusCode, reprocessed.body).toBe(200);
    expect(reprocessed.json()).toMatchObject({
      id: after!.id,
      processed: true,
      category: 'ignored',
      processing_error: expect.stringMatching(/ignore rule "after the mapping"/),
    });
    // Its rows went with the old result.
    const rows = await get(`/api/scrape/extract/email/data/pagination/?page_size=100&bank_name=${encodeURIComponent('Meridian Bank')}`);
    expect(rows.count).toBe(0);
    const audit = await get('/api/admin/audit-log/?action=reprocess');
    expect(audit.results).toEqual([expect.objectContaining({ action: 'reprocess', entity: 'email', entity_id: String(after!.id), user_email: admin.email })]);

    // With no ingester in the API process, it waits on the queue for one: 202, then processed.
    const hosted = t.app.ctx.ingest.processQueued;
    t.app.ctx.ingest.processQueued = undefined;
    const queued = await call('POST', `/api/admin/emails/${after!.id}/reprocess/`);
    t.app.ctx.ingest.processQueued = hosted;
    expect(queued.statusCode).toBe(202);
    expect(queued.json()).toMatchObject({ processed: false, detail: expect.stringMatching(/^Queued/) });
    expect((await get('/api/mail-flow/')).queue.waiting).toBe(1);
    await processStored(options);
    expect((await get('/api/mail-flow/')).queue.waiting).toBe(0);
    const [again] = await t.database.db.select({ category: emails.category }).from(emails).where(eq(emails.id, after!.id));
    expect(again!.category).toBe('ignored');

    expect((await call('POST', '/api/admin/emails/999999/reprocess/')).statusCode).toBe(404);
    expect((await call('POST', '/api/admin/emails/abc/reprocess/')).json().detail).toMatch(/path 'id'/);
    // An email with no stored message (as the demo's seeded ones) cannot be processed again.
    const [seeded] = await t.database.db
      .insert(emails)
      .values({ emailFrom: 'x@seed.example', subject: 'Seeded', category: 'processed', isRead: true, receivedAt: new Date() })
      .returning({ id: emails.id });
    const noSource = await call('POST', `/api/admin/emails/${seeded!.id}/reprocess/`);
    expect(noSource.statusCode).toBe(409);
    expect(noSource.json().detail).toMatch(/no stored message/);
    expect(await t.database.db.select().from(emailSources)).toHaveLength(3);
  }, 60_000);

  test('a stopped ingester stalls past the threshold, and the stall clears when it syncs again', async () => {
    await sleep(stallAfterSeconds * 1000 + 500);
    const stalled = await get('/api/mail-flow/stalled/', asOperator);
    expect(stalled).toEqual({
      stalled: true,
      reasons: [`imap://${dovecot.user}@${dovecot.host}:${dovecot.port}/INBOX has not synced for more than 2 seconds.`],
      stall_after_seconds: 2,
    });
    const watcher = watch();
    await watcher.round();
    expect((await get('/api/mail-flow/stalled/')).stalled).toBe(false);
    await watcher.stop();
  }, 60_000);
});
