// Several mailboxes at once, added on the Mailboxes screen (through its API) while the ingester
// runs: each is watched as soon as it is added, with its own state in Mail Flow; one that cannot
// sign in is named in the stalled banner and never holds up the other; disabling or deleting one
// takes it off Mail Flow, all without a restart. A real Dovecot, PGlite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadIngestRules } from '@ejdesk/db';
import { admin, backends, createTestApp, login, type TestApp } from '@ejdesk/api/test-helpers';
import { startDovecot, type Dovecot } from '@ejdesk/mailbox/testing';
import { createLogger, watchMailboxes } from '../src/index.ts';
import { banks, compose, disputeLines, htmlTable, prepareRules } from './support/corpus.ts';
import { until } from './support/workers.ts';

const dispute = (n: number) =>
  compose({
    from: `Disputes <disputes@${banks.apex.domain}>`,
    subject: `Mailboxes ${n} APX`,
    html: htmlTable(disputeLines('APX', 100 + n, 1)),
    messageId: `<mbx-${n}@apex>`,
  });

describe.each(backends)('mailboxes from the Mailboxes list on %s', (backend) => {
  let dovecot: Dovecot;
  let t: TestApp;
  let asAdmin: string;
  const controller = new AbortController();
  let watching: Promise<void>;
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const response = await t.app.inject({ method, url, headers: { authorization: asAdmin }, ...(payload ? { payload } : {}) });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
    return response.statusCode === 204 ? null : response.json();
  };
  const atms = async (): Promise<string[]> =>
    (await call('GET', '/api/scrape/extract/email/data/pagination/?page_size=100')).results.map((r: { atm_id: string }) => r.atm_id);

  beforeAll(async () => {
    dovecot = await startDovecot();
    // Dovecot listens on loopback: allowed as an operations team would (MAILBOX_ALLOWED_NETWORKS).
    t = await createTestApp(backend, { stallAfterSeconds: 2, mailboxAllowedNetworks: ['127.0.0.0/8'] });
    await prepareRules(t.database.db, t.secrets.bankPassKey);
    asAdmin = `JWT ${(await login(t.app, admin)).access}`;
    watching = watchMailboxes({
      db: t.database.db,
      loadRules: () => loadIngestRules(t.database.db, t.secrets.bankPassKey),
      log: createLogger('error'),
      lanes: 1,
      pollMs: 300,
      recheckMs: 200,
      bankPassKey: t.secrets.bankPassKey,
      bootstrap: null,
      signal: controller.signal,
    });
  }, 60_000);
  afterAll(async () => {
    controller.abort();
    await watching;
    await t?.close();
    await dovecot?.stop();
  });

  test('added, failing beside a working one, disabled and deleted, without a restart', async () => {
    const imap = { host: dovecot.host, port: dovecot.port, tls: false, auth_method: 'password' };
    const good = await call('POST', '/api/admin/mailboxes/', { ...imap, username: dovecot.user, secret: dovecot.password });
    const bad = await call('POST', '/api/admin/mailboxes/', { ...imap, username: 'nobody@bank.test', secret: 'not-a-password' });
    await dovecot.append([await dispute(1)]);
    await until('mail from the added mailbox', async () => (await atms()).includes('APX00101'));

    const flow = await until('both mailboxes in Mail Flow, the bad one stalled', async () => {
      const answer = await call('GET', '/api/mail-flow/');
      return answer.mailboxes.length === 2 && answer.stalled.stalled && answer.mailboxes[1].last_error && answer;
    });
    expect(flow.mailboxes).toEqual([
      expect.objectContaining({ source: good.source, state: 'connected', last_error: null }),
      expect.objectContaining({
        source: bad.source,
        state: expect.stringMatching(/^(disconnected|connecting)$/), // failing, and trying again with backoff
        last_error: expect.stringMatching(/^authentication failed: the IMAP server refused the user name or password/),
      }),
    ]);
    expect(flow.stalled.reasons).toEqual([
      expect.stringMatching(new RegExp(`^${bad.source.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} has not synced for more than 2 seconds: authentication failed`)),
    ]);
    expect(JSON.stringify(flow)).not.toContain('not-a-password');

    // The failing one keeps failing; the other still delivers.
    await dovecot.append([await dispute(2)]);
    await until('mail beside a failing mailbox', async () => (await atms()).includes('APX00102'));

    // Disabled: off Mail Flow, and the stall it caused clears.
    await call('PUT', `/api/admin/mailboxes/${bad.id}/`, { ...imap, username: 'nobody@bank.test', enabled: false });
    await until('the disabled mailbox off Mail Flow, the stall cleared', async () => {
      const answer = await call('GET', '/api/mail-flow/');
      return answer.mailboxes.length === 1 && !answer.stalled.stalled;
    });
    // Deleted: no longer watched, so new mail stays in the mailbox.
    await call('DELETE', `/api/admin/mailboxes/${good.id}/`);
    await until('the deleted mailbox off Mail Flow', async () => (await call('GET', '/api/mail-flow/')).mailboxes.length === 0);
    await dovecot.append([await dispute(3)]);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await atms()).not.toContain('APX00103');
  });
});
