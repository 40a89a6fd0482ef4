// EJ Desk as a bank deploys it: Debian's nginx with deploy/nginx/ejdesk.conf in front of two API
// processes and one edge, two `pnpm worker` processes, one PostgreSQL, mail in a real Dovecot.
// - A 2,000-message mailbox drained by both workers, its holder killed outright half-way: the
//   survivor takes the mailbox's lease; stopped with SIGTERM later, it gives the lease back and a
//   new worker finishes; every message is processed once (the very rows one in-process run writes
//   alone). The console's own event reader (@ejdesk/api-client), reading
//   through nginx, hears of the mail the survivor stores.
// - Each API instance restarted in turn (SIGTERM, as systemd does) under 16 connections of
//   filters, exports and creates through nginx: not one request fails, and every acknowledged
//   create is stored exactly once.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sql } from 'drizzle-orm';
import { loadIngestRules, queryRows } from '@ejdesk/db';
import {
  admin,
  createTestApp,
  nginxInstalled,
  startApiProcess,
  startEdgeProcess,
  startNginx,
  testDatabaseUrl,
  type ApiProcess,
  type TestApp,
} from '@ejdesk/api/test-helpers';
import { sessionStore, watchLiveEvents } from '@ejdesk/api-client';
import { freePort } from '@ejdesk/http/testing';
import { startDovecot, type Dovecot } from '@ejdesk/mailbox/testing';
import { createLogger, ingestFromImap } from '../src/index.ts';
import { bulkCorpus, prepareRules } from './support/corpus.ts';
import { ingestSnapshot } from './support/snapshot.ts';
import { passwordMailbox, spawnIngester, until } from './support/workers.ts';

const messages = 2000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.runIf(testDatabaseUrl && nginxInstalled)('the cluster: nginx, two API instances, an edge, two workers (PostgreSQL, Dovecot)', () => {
  let dovecot: Dovecot;
  let t: TestApp;
  let reference: TestApp;
  let expected: Awaited<ReturnType<typeof ingestSnapshot>>;
  let proxy: Awaited<ReturnType<typeof startNginx>>;
  let edge: ChildProcess;
  const apis: ApiProcess[] = [];
  const workers: ChildProcess[] = [];
  let apiEnv: NodeJS.ProcessEnv;
  let token: string;
  let stopEvents = () => undefined as void;
  const heard = { mail: 0, streams: 0 };

  const count = async (query: ReturnType<typeof sql>) => (await queryRows<{ n: number }>(t.database.db, query))[0]!.n;
  const processed = () => count(sql`select count(*)::int as n from email_sources where processed_at is not null`);
  const holder = async () => (await queryRows<{ holder: string }>(t.database.db, sql`select holder from mailbox_leases where expires_at > now()`))[0]?.holder;
  const startApi = (port: number) => startApiProcess({ ...apiEnv, API_PORT: String(port) });
  /** The requests an instance answered, by its own metrics (on its own port). */
  const answered = async (api: ApiProcess) => {
    const text = await (await fetch(`${api.base}/api/metrics`)).text();
    return [...text.matchAll(/^http_requests_total\{[^}]*\} (\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
  };
  const viaProxy = (path: string, init: RequestInit = {}) =>
    fetch(`${proxy.base}${path}`, { ...init, headers: { authorization: `JWT ${token}`, 'content-type': 'application/json', ...init.headers } });

  beforeAll(async () => {
    dovecot = await startDovecot();
    await dovecot.append(await bulkCorpus(messages));
    // What one in-process run writes alone: the rows the cluster must end with.
    reference = await createTestApp('postgres');
    await prepareRules(reference.database.db, reference.secrets.bankPassKey);
    const alone = await ingestFromImap(passwordMailbox(dovecot), {
      db: reference.database.db,
      loadRules: () => loadIngestRules(reference.database.db, reference.secrets.bankPassKey),
      log: createLogger('error'),
      lanes: 4,
    });
    expect(alone.stored).toBe(messages);
    expected = await ingestSnapshot(reference.database.db);

    t = await createTestApp('postgres');
    await prepareRules(t.database.db, t.secrets.bankPassKey);
    apiEnv = {
      DATABASE_URL: t.config.databaseUrl,
      JWT_SECRET: randomBytes(32).toString('hex'),
      BANK_PASS_KEY: t.secrets.bankPassKey.toString('hex'),
      TRUST_PROXY: '127.0.0.1',
      EJDESK_HOSTED_WORKER: '',
      EXPORT_CONCURRENCY: '4',
      LOG_LEVEL: 'warn',
    };
    for (const port of [await freePort(), await freePort()]) apis.push(await startApi(port));
    for (const api of apis) await api.waitFor('/api/ready', 200);

    const started = await startEdgeProcess(apis[0]!.base);
    edge = started.child;
    proxy = await startNginx({ api: apis.map((api) => Number(new URL(api.base).port)), edge: [started.port] });
    await until('the edge behind nginx', async () => (await fetch(`${proxy.base}/login`).catch(() => undefined))?.ok, 60_000);

    const login = await fetch(`${proxy.base}/api/auth/jwt/create/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(admin),
    });
    token = ((await login.json()) as { access: string }).access;
    // The console's event reader, as a tab runs it, through nginx.
    sessionStore.setState({ token });
    stopEvents = watchLiveEvents({ onMail: () => heard.mail++, onStall: () => heard.streams++ }, `${proxy.base}/api`);
    await until('the event stream', async () => heard.streams > 0);
  }, 600_000);

  afterAll(async () => {
    stopEvents();
    for (const worker of workers) worker.kill('SIGKILL');
    await proxy?.stop();
    edge?.kill('SIGTERM');
    for (const api of apis) api.child.kill('SIGKILL');
    await sleep(500);
    await t?.close();
    await reference?.close();
    await dovecot?.stop();
  });

  test('2,000 messages drained by two workers, the holder killed half-way, the survivor stopped later: each processed once, the lease and the events go on', async () => {
    const start = () => {
      const child = spawnIngester(['--watch'], t, { dovecot, env: { INGEST_POLL_SECONDS: '1', INGEST_LEASE_SECONDS: '6', LOG_LEVEL: 'error' } });
      workers.push(child);
      return child;
    };
    const pair = [start(), start()];
    const first = await until('a worker to hold the mailbox', holder, 60_000);
    const [killed, survivor] = first.split(':')[1] === String(pair[0]!.pid) ? [pair[0]!, pair[1]!] : [pair[1]!, pair[0]!];
    await until('half the mailbox processed', async () => (await processed()) >= messages / 2, 180_000);
    killed.kill('SIGKILL');
    const doneBeforeKill = await processed();
    expect(doneBeforeKill).toBeLessThan(messages);

    await until('the survivor to hold the mailbox', async () => (await holder())?.split(':')[1] === String(survivor.pid), 30_000);
    // The stream, served by an API instance through nginx, hears of mail only the survivor stores.
    const heardAtTakeover = heard.mail;
    await until('a mail event after the takeover', async () => heard.mail > heardAtTakeover, 30_000);
    const mailFlow = (await (await viaProxy('/api/mail-flow/')).json()) as { mailboxes: { worker: string | null }[] };
    expect(mailFlow.mailboxes[0]!.worker).toBe(await holder());

    // Stopped on purpose mid-mailbox (SIGTERM): it finishes the message in hand, gives the lease back, exits 0.
    await until('three quarters processed', async () => (await processed()) >= (messages * 3) / 4, 180_000);
    survivor.kill('SIGTERM');
    expect(await new Promise((resolve) => (survivor.exitCode === null ? survivor.on('exit', resolve) : resolve(survivor.exitCode)))).toBe(0);
    expect(await holder()).toBeUndefined();
    start();
    await until(
      'every message processed',
      async () => (await processed()) === messages && (await count(sql`select count(*)::int as n from email_sources where processed_at is null`)) === 0,
      300_000,
    );

    // Exactly the rows one run alone wrote: nothing lost with the killed worker, nothing twice.
    const got = await ingestSnapshot(t.database.db);
    expect(got.totals).toEqual(expected.totals);
    expect(got.emails).toEqual(expected.emails);
  }, 600_000);

  test('each API instance restarted in turn under 16 connections of filters, exports and creates: no request fails, each create stored once', async () => {
    const failures: string[] = [];
    const acknowledged: string[] = [];
    const done = { read: 0, export: 0, create: 0 };
    let stop = false;
    const expectStatus = async (what: string, response: Response | Error, status: number) => {
      if (response instanceof Error) failures.push(`${what}: ${response.message} ${String((response.cause as Error | undefined)?.message ?? '')}`);
      else if (response.status !== status) failures.push(`${what}: ${response.status} ${await response.text()}`);
      else return response;
      return undefined;
    };
    const reads = [
      '/api/scrape/extract/email/data/pagination/?page_size=20&ordering=-transaction_date&atm_id=APX',
      '/api/scrape/email/to/json/pagination/?page_size=20&email_from=disputes',
      '/api/scrape/ejs/total/email/',
      '/api/mail-flow/',
    ];
    const connection = async (n: number) => {
      for (let i = 0; !stop; i++) {
        if (n < 2) {
          const response = await expectStatus('export', await viaProxy('/api/scrape/extract/export/?format=csv').catch((e: Error) => e), 200);
          if (response) {
            await response.arrayBuffer();
            done.export++;
          }
        } else if (n < 10) {
          const path = reads[i % reads.length]!;
          const response = await expectStatus(path, await viaProxy(path).catch((e: Error) => e), 200);
          if (response) {
            await response.arrayBuffer();
            done.read++;
          }
        } else {
          const sender = `load-${n}-${i}@cluster.example`;
          const body = JSON.stringify({ sender, organisation: 'Cluster Bank' });
          const response = await expectStatus('create', await viaProxy('/api/admin/sender-mappings/', { method: 'POST', body }).catch((e: Error) => e), 201);
          if (response) {
            acknowledged.push(sender);
            done.create++;
            await response.arrayBuffer();
          }
        }
      }
    };
    const load = Promise.all(Array.from({ length: 16 }, (_, n) => connection(n)));
    const streamsBefore = heard.streams;
    await until('load on both instances', async () => done.create > 20 && done.export > 2, 60_000);
    for (const [i, api] of apis.entries()) {
      api.child.kill('SIGTERM');
      expect(await api.exited, api.output()).toBe(0);
      const port = Number(new URL(api.base).port);
      apis[i] = await startApi(port);
      await apis[i]!.waitFor('/api/ready', 200);
      // Back in nginx's rotation (its own count of answers grows) before the other one goes.
      await until(`the restarted instance on ${port} to take requests`, async () => (await answered(apis[i]!)) > 50, 60_000);
    }
    const after = { ...done };
    await until('load after the restarts', async () => done.create > after.create + 20, 60_000);
    stop = true;
    await load;

    expect(failures, proxy.errors()).toEqual([]);
    expect(done.read).toBeGreaterThan(100);
    expect(done.export).toBeGreaterThan(4);
    const stored = await queryRows<{ sender: string; n: number }>(
      t.database.db,
      sql`select sender, count(*)::int as n from mail_senders where sender like 'load-%' group by sender`,
    );
    expect(stored.filter((row) => row.n !== 1)).toEqual([]);
    expect(stored.map((row) => row.sender).sort()).toEqual([...acknowledged].sort());
    // The event stream was ended by its instance and opened again through nginx on the other.
    expect(heard.streams).toBeGreaterThan(streamsBefore);
  }, 600_000);
});
