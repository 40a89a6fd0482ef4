// A dispute's status from the mail, with mail Python's email package made, through a real Dovecot:
// the bank's complaint opens two disputes, the MSP's result file for the first resolves it (credited,
// the clock stopped on the result's day, the rule that did so named); an operator's status on the
// second is kept when a later MSP result would have resolved it.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadIngestRules, requeueStoredMessages } from '@ejdesk/db';
import { backends, createTestApp, login, type TestApp } from '@ejdesk/api/test-helpers';
import { createLogger, ingestFromImap, processStored, type RunOptions } from '../src/index.ts';
import { prepareRules } from './support/corpus.ts';
import { mailFromPython } from './support/python-mail.ts';
import { startDovecot, type Dovecot } from '@ejdesk/mailbox/testing';

const { mail } = mailFromPython('make_dispute_mail.py', [], 'python3');
const [complaint, result, lateResult] = mail as [Buffer, Buffer, Buffer];

describe.each(backends)('a dispute’s status from the mail, into %s', (backend) => {
  let dovecot: Dovecot;
  let t: TestApp;
  let options: RunOptions;
  let authorization: string;
  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await t.app.inject({ method, url, headers: { authorization }, ...(payload && { payload }) });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return response.json();
  };
  const ingest = () =>
    ingestFromImap(
      { host: dovecot.host, port: dovecot.port, user: dovecot.user, auth: { method: 'password', password: dovecot.password }, tls: false, mailbox: 'INBOX' },
      options,
    );
  const row = async (atm: string) => (await call('GET', `/api/scrape/extract/email/data/pagination/?atm_id=${atm}`)).results[0];

  beforeAll(async () => {
    dovecot = await startDovecot();
    await dovecot.append([complaint, result]);
    t = await createTestApp(backend);
    await prepareRules(t.database.db, t.secrets.bankPassKey);
    authorization = `JWT ${(await login(t.app)).access}`;
    options = { db: t.database.db, loadRules: () => loadIngestRules(t.database.db, t.secrets.bankPassKey), log: createLogger('error'), lanes: 1 };
    const summary = await ingest();
    expect(summary.failures).toEqual([]);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await dovecot?.stop();
  });

  test('the MSP’s result file resolves the complaint it names, and says which rule did', async () => {
    const credited = await row('APX90001');
    expect(credited).toMatchObject({
      status: 'resolved',
      outcome: 'credited',
      transaction_date: '2026-10-01',
      due_date: '2026-10-06',
      overdue_days: 0,
      penalty: '0.00',
    });
    const story = await call('GET', `/api/disputes/${credited.dispute_id}/`);
    expect(story).toMatchObject({
      status_source: 'mail',
      stopped_on: '2026-10-05',
      age_days: 4,
      status_reason: 'Remark says credited: "Customer credited" in Atlas ATM Services\'s result (Missing_Txn_Report.csv)',
    });
    expect(story.rows.map((r: { source: string; file_name: string }) => [r.source, r.file_name])).toEqual([
      ['record', 'complaints.csv'],
      ['file_row', 'Missing_Txn_Report.csv'],
    ]);
    expect(story.history).toEqual([expect.objectContaining({ source: 'mail', status: 'resolved', outcome: 'credited', email_id: story.rows[1].email_id })]);
    // The second transaction's complaint is still open, and the result file made no EJ record.
    expect(await row('APX90002')).toMatchObject({ status: 'open', outcome: null });
    expect((await call('GET', '/api/scrape/extract/email/data/pagination/?page_size=100')).count).toBe(2);
  });

  test('an operator’s status is kept when later mail would move it', async () => {
    const waiting = await row('APX90002');
    await call('POST', `/api/disputes/${waiting.dispute_id}/status/`, { status: 'awaiting_msp', note: 'Atlas asked for the camera footage' });
    await dovecot.append([lateResult]);
    const summary = await ingest();
    expect(summary.failures).toEqual([]);
    const story = await call('GET', `/api/disputes/${waiting.dispute_id}/`);
    expect(story).toMatchObject({ status: 'awaiting_msp', status_source: 'operator', status_reason: 'Atlas asked for the camera footage' });
    expect(story.history.map((h: { source: string }) => h.source)).toEqual(['operator']);
    // The late result is in the story all the same.
    expect(story.rows.map((r: { file_name: string }) => r.file_name)).toEqual(['complaints.csv', 'Missing_Txn_Report_2.csv']);
  });

  test('processed again, the mail finds the same answers, and the operator’s status and history stay', async () => {
    const waiting = await row('APX90002');
    expect(await requeueStoredMessages(t.database.db)).toBe(3);
    const summary = await processStored(options);
    expect(summary.failures).toEqual([]);
    expect(await row('APX90001')).toMatchObject({ status: 'resolved', outcome: 'credited' });
    const kept = await row('APX90002');
    expect(kept).toMatchObject({ dispute_id: waiting.dispute_id, status: 'awaiting_msp' });
    const story = await call('GET', `/api/disputes/${kept.dispute_id}/`);
    expect(story.history.map((h: { source: string; note: string }) => [h.source, h.note])).toEqual([['operator', 'Atlas asked for the camera footage']]);
    expect((await call('GET', '/api/scrape/extract/email/data/pagination/?page_size=100')).count).toBe(2);
  });
});
