// A dispute's stage from the mail, with mail Python's email package made, through a real Dovecot:
// the complaint names the network (NFS), the bank's chargeback mail moves it to chargeback raised,
// the representment mail on, and a late copy of the chargeback mail moves nothing back. Its page
// then shows the NFS clocks from those days: the chargeback window met, the representment window
// met on its last day but one, pre-arbitration running; an operator moves it back only with a note.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadIngestRules } from '@ejdesk/db';
import { backends, createTestApp, login, type TestApp } from '@ejdesk/api/test-helpers';
import { createLogger, ingestFromImap, type RunOptions } from '../src/index.ts';
import { prepareRules } from './support/corpus.ts';
import { mailFromPython } from './support/python-mail.ts';
import { startDovecot, type Dovecot } from '@ejdesk/mailbox/testing';

const { mail } = mailFromPython('make_stage_mail.py', [], 'python3');

describe.each(backends)('a dispute’s stage from the mail, into %s', (backend) => {
  let dovecot: Dovecot;
  let t: TestApp;
  let options: RunOptions;
  let authorization: string;
  const call = async (method: 'GET' | 'POST', url: string, payload?: object, status = 200) => {
    const response = await t.app.inject({ method, url, headers: { authorization }, ...(payload && { payload }) });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(status);
    return response.json();
  };
  const ingest = async () => {
    const summary = await ingestFromImap(
      { host: dovecot.host, port: dovecot.port, user: dovecot.user, auth: { method: 'password', password: dovecot.password }, tls: false, mailbox: 'INBOX' },
      options,
    );
    expect(summary.failures).toEqual([]);
  };
  let disputeId: number;

  beforeAll(async () => {
    dovecot = await startDovecot();
    t = await createTestApp(backend);
    await prepareRules(t.database.db, t.secrets.bankPassKey);
    authorization = `JWT ${(await login(t.app)).access}`;
    options = { db: t.database.db, loadRules: () => loadIngestRules(t.database.db, t.secrets.bankPassKey), log: createLogger('error'), lanes: 1 };
    // One message at a time, in the order the bank sent them.
    for (const message of mail) {
      await dovecot.append([message]);
      await ingest();
    }
    disputeId = (await call('GET', '/api/scrape/extract/email/data/pagination/?atm_id=APX91001')).results[0].dispute_id;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await dovecot?.stop();
  });

  test('the mail moves the stage on, never back, and names the network', async () => {
    const story = await call('GET', `/api/disputes/${disputeId}/`);
    expect(story).toMatchObject({ stage: 'representment', network: 'NFS', status: 'open' });
    expect(story.rows).toHaveLength(4);
    expect(story.history.map((h: { source: string; stage: string | null; reason: string }) => [h.source, h.stage, h.reason])).toEqual([
      ['mail', 'chargeback_raised', 'Remark says "Chargeback raised": a row of chargebacks.csv'],
      ['mail', 'representment', 'Remark says "Re-presentment": a row of representments.csv'],
    ]);
  });

  test('its page shows the NFS clocks from the days the mail said, running ones first', async () => {
    const { clocks } = await call('GET', `/api/disputes/${disputeId}/`);
    const byKey = Object.fromEntries(clocks.map((c: { key: string }) => [c.key, c]));
    expect(byKey['nfs.chargeback']).toMatchObject({ started_on: '2026-10-01', due_on: '2026-11-30', stopped_on: '2026-10-08', state: 'met' });
    expect(byKey['nfs.representment']).toMatchObject({ started_on: '2026-10-08', due_on: '2026-10-13', stopped_on: '2026-10-12', state: 'met' });
    expect(byKey['nfs.pre_arbitration']).toMatchObject({ started_on: '2026-10-12', due_on: '2026-11-11', stopped_on: null });
    expect(byKey.tat).toMatchObject({ started_on: '2026-10-01', due_on: '2026-10-06', stopped_on: null, state: 'breached' });
    // Running first, nearest deadline first; the stopped ones after.
    expect(clocks.map((c: { key: string }) => c.key)).toEqual(['tat', 'nfs.pre_arbitration', 'nfs.representment', 'nfs.chargeback']);
  });

  test('an operator moves it back with a note, and closes it with the outcome and who bears the cost', async () => {
    const refused = await call('POST', `/api/disputes/${disputeId}/stage/`, { stage: 'chargeback_raised', note: '  ' }, 400);
    expect(refused.detail).toMatch(/note/);
    const back = await call('POST', `/api/disputes/${disputeId}/stage/`, { stage: 'chargeback_raised', note: 'The representment was for another card' });
    expect(back.stage).toBe('chargeback_raised');
    expect(back.clocks.map((c: { key: string }) => c.key)).not.toContain('nfs.pre_arbitration');
    const closing = { stage: 'closed', note: 'Acquirer accepted after its window', outcome: 'credited' };
    expect((await call('POST', `/api/disputes/${disputeId}/stage/`, closing, 400)).detail).toBe(
      'body: cost_bearer must be one of issuer, acquirer when the stage is closed.',
    );
    const closed = await call('POST', `/api/disputes/${disputeId}/stage/`, { ...closing, cost_bearer: 'acquirer' });
    expect(closed).toMatchObject({ stage: 'closed', status: 'resolved', outcome: 'credited', cost_bearer: 'acquirer' });
    expect(closed.clocks.every((c: { stopped_on: string | null }) => c.stopped_on !== null)).toBe(true);
    expect(closed.history.at(-1)).toMatchObject({ source: 'operator', stage: 'closed', reason: 'Stage set to closed, cost borne by the acquirer' });
    // A later chargeback mail does not open it again.
    await dovecot.append([mail[1]!]);
    await ingest();
    expect((await call('GET', `/api/disputes/${disputeId}/`)).stage).toBe('closed');
  });
});
