// Several workers on one database: each mailbox is watched by one of them at a time (its lease),
// the mail is processed once, and when the holder stops the mailbox moves to another worker: at
// once when it stops on purpose (it gives the lease back), within the lease's lifetime when it is
// killed outright (SIGKILL: nothing given back). A real Dovecot (its own count of sessions says
// how many workers are connected), PGlite and PostgreSQL.
import type { ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { sql } from 'drizzle-orm';
import { loadIngestRules, queryRows } from '@ejdesk/db';
import { backends, createTestApp, login, testDatabaseUrl } from '@ejdesk/api/test-helpers';
import { startDovecot } from '@ejdesk/mailbox/testing';
import { createLogger, watchMailboxes } from '../src/index.ts';
import { banks, compose, disputeLines, htmlTable, prepareRules } from './support/corpus.ts';
import { passwordMailbox, spawnIngester, until } from './support/workers.ts';
const dispute = async (n: number) =>
  compose({
    from: `Disputes <disputes@${banks.apex.domain}>`,
    subject: `Lease ${n} APX`,
    html: htmlTable(disputeLines('LSE', 100 + n, 1)),
    messageId: `<lease-${n}@apex>`,
  });

async function setUp(backend: 'pglite' | 'postgres') {
  const dovecot = await startDovecot();
  const t = await createTestApp(backend);
  await prepareRules(t.database.db, t.secrets.bankPassKey);
  const authorization = `JWT ${(await login(t.app)).access}`;
  const holder = async () => (await queryRows<{ holder: string }>(t.database.db, sql`select holder from mailbox_leases where expires_at > now()`))[0]?.holder;
  const disputes = async () =>
    (await t.app.inject({ method: 'GET', url: '/api/scrape/extract/email/data/pagination/?page_size=100&atm_id=LSE', headers: { authorization } })).json()
      .count as number;
  const mailFlowWorker = async () =>
    (await t.app.inject({ method: 'GET', url: '/api/mail-flow/', headers: { authorization } })).json().mailboxes[0]?.worker as string | null | undefined;
  return { dovecot, t, holder, disputes, mailFlowWorker };
}

describe.each(backends)('one worker per mailbox on %s', (backend) => {
  let env: Awaited<ReturnType<typeof setUp>>;
  beforeAll(async () => {
    env = await setUp(backend);
  }, 60_000);
  afterAll(async () => {
    await env?.t.close();
    await env?.dovecot.stop();
  });

  test('two workers: one watches and the mail is processed once; the holder stops and the other takes over at once', async () => {
    const { dovecot, t, holder, disputes, mailFlowWorker } = env;
    const worker = (workerId: string) => {
      const controller = new AbortController();
      const done = watchMailboxes({
        db: t.database.db,
        loadRules: () => loadIngestRules(t.database.db, t.secrets.bankPassKey),
        log: createLogger('error'),
        lanes: 1,
        signal: controller.signal,
        pollMs: 500,
        recheckMs: 300,
        leaseSeconds: 5,
        workerId,
        bankPassKey: t.secrets.bankPassKey,
        bootstrap: passwordMailbox(dovecot),
      });
      return { stop: () => (controller.abort(), done) };
    };
    const workers = { a: worker('worker-a'), b: worker('worker-b') };
    const first = await until('a worker to hold the mailbox', holder);
    await until('its watcher to be signed in', async () => (await dovecot.sessions(dovecot.user)) === 1);
    // Several rounds of both workers later, still the one holder and the one session.
    await new Promise((r) => setTimeout(r, 1500));
    expect(await holder()).toBe(first);
    expect(await dovecot.sessions(dovecot.user)).toBe(1);
    expect(await mailFlowWorker()).toBe(first);

    await dovecot.append([await dispute(1), await dispute(2)]);
    await until('the two disputes', async () => (await disputes()) === 2);

    const [stopping, other] = first === 'worker-a' ? [workers.a, 'worker-b'] : [workers.b, 'worker-a'];
    const stoppedAt = Date.now();
    await stopping.stop();
    await until('the other worker to take the mailbox', async () => (await holder()) === other, 5000);
    const handover = Date.now() - stoppedAt;
    await dovecot.append([await dispute(3)]);
    await until('the third dispute', async () => (await disputes()) === 3);
    expect(await mailFlowWorker()).toBe(other);
    // A lease given back is taken at the next round (300 ms here), not after it lapses (5 s).
    expect(handover).toBeLessThan(3000);

    await (other === 'worker-a' ? workers.a : workers.b).stop();
    expect(await queryRows(t.database.db, sql`select * from mailbox_leases`)).toEqual([]);
    expect(await disputes()).toBe(3);
  }, 60_000);
});

describe.runIf(testDatabaseUrl)('a worker killed outright (PostgreSQL, two processes)', () => {
  let env: Awaited<ReturnType<typeof setUp>>;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    env = await setUp('postgres');
  }, 60_000);
  afterEach(() => {
    for (const child of children) child.kill('SIGKILL');
  });
  afterAll(async () => {
    await env?.t.close();
    await env?.dovecot.stop();
  });

  test('its mailbox moves to the surviving worker within the lease, and nothing is lost or doubled', async () => {
    const { dovecot, t, holder, disputes } = env;
    const start = () => {
      const child = spawnIngester(['--watch'], t, { dovecot, env: { INGEST_POLL_SECONDS: '1', INGEST_LEASE_SECONDS: '6', LOG_LEVEL: 'error' } });
      children.push(child);
      return child;
    };
    const [one, two] = [start(), start()];
    const first = await until('a worker to hold the mailbox', holder, 60_000);
    const [killed, survivor] = first.split(':')[1] === String(one.pid) ? [one, two] : [two, one];
    expect(first.split(':')[1]).toBe(String(killed.pid));
    await dovecot.append([await dispute(11)]);
    await until('the first dispute', async () => (await disputes()) === 1);

    killed.kill('SIGKILL');
    const killedAt = Date.now();
    await dovecot.append([await dispute(12)]);
    // Nothing gives the lease back: it lapses (6 s) and the survivor takes it at its next round (1.5 s).
    const next = await until(
      'the survivor to hold the mailbox',
      async () => ((await holder())?.split(':')[1] === String(survivor.pid) ? holder() : false),
      20_000,
    );
    const takeover = Date.now() - killedAt;
    expect(next).toMatch(new RegExp(`:${survivor.pid}:`));
    expect(takeover).toBeLessThan(6000 + 1500 + 2000);
    await until('the mail sent while the holder was dead', async () => (await disputes()) === 2, 20_000);
    await dovecot.append([await dispute(13)]);
    await until('the third dispute', async () => (await disputes()) === 3, 20_000);
    expect(await dovecot.sessions(dovecot.user)).toBe(1);
  }, 120_000);
});
