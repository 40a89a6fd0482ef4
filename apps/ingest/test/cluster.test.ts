// EJ Desk as a bank deploys it: Debian's nginx with deploy/nginx/ejdesk.conf in front of two API
// processes and one edge, two `pnpm worker` processes, one PostgreSQL, mail in a real Dovecot.
// - A 600-message mailbox drained by both workers, its holder killed outright half-way: the
//   survivor takes the mailbox's lease; stopped with SIGTERM later, it gives the lease back and a
//   new worker finishes; every message is processed once (the very rows one in-process run writes
//   alone). The console's own event reader (@ejdesk/api-client), reading
//   through nginx, hears of the mail the survivor stores.
// - Each API instance restarted in turn (SIGTERM, as systemd does) under 16 connections of
//   filters, exports and creates through nginx: not one request fails, and every acknowledged
//   create is stored exactly once.
// - The same under 16 connections of creates alone (each with nginx's $request_id as its
//   Idempotency-Key): every create answered 201, each stored once, none stored unacknowledged.
// - An instance killed outright (SIGKILL) while its creates wait on their commits: nginx passes
//   them, with their keys, to the other instance, which answers each from the key the dead one
//   committed (201, stored once). The same crash through nginx with the key line stripped shows
//   what the keys prevent: the resent creates are refused (the sender is there), though stored.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
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

// Enough that the kill lands mid-mailbox with hundreds left for the survivor; the mailbox is
// ingested twice (the reference run, then the cluster), so every message costs the suite twice.
const messages = 600;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.runIf(testDatabaseUrl && nginxInstalled)('the cluster: nginx, two API instances, an edge, two workers (PostgreSQL, Dovecot)', () => {
  let dovecot: Dovecot;
  let t: TestApp;
  let reference: TestApp;
  let expected: Awaited<ReturnType<typeof ingestSnapshot>>;
  let proxy: Awaited<ReturnType<typeof startNginx>>;
  let edge: ChildProcess;
  let edgePort: number;
  const apis: ApiProcess[] = [];
  const workers: ChildProcess[] = [];
  let apiEnv: NodeJS.ProcessEnv;
  let token: string;
  let stopEvents = () => undefined as void;
  const heard = { mail: 0, streams: 0 };

  const count = async (query: ReturnType<typeof sql>) => (await queryRows<{ n: number }>(t.database.db, query))[0]!.n;
  const processed = () => count(sql`select count(*)::int as n from email_sources where processed_at is not null`);
  const holder = async () => (await queryRows<{ holder: string }>(t.database.db, sql`select holder from mailbox_leases where expires_at > now()`))[0]?.holder;
  /** Each instance's database connections carry its port as their application_name (pg_stat_activity). */
  const appName = (port: number) => `ejdesk-api-${port}`;
  const startApi = (port: number) => {
    const url = new URL(t.config.databaseUrl!);
    url.searchParams.set('application_name', appName(port));
    return startApiProcess({ ...apiEnv, DATABASE_URL: url.toString(), API_PORT: String(port) });
  };
  const portOf = (api: ApiProcess) => Number(new URL(api.base).port);
  /** The requests an instance answered (of one route, or all), by its own metrics (on its own port). */
  const answered = async (api: ApiProcess, route?: string) => {
    const text = await (await fetch(`${api.base}/api/metrics`)).text();
    return [...text.matchAll(/^http_requests_total\{([^}]*)\} (\d+)/gm)]
      .filter((m) => route === undefined || m[1]!.includes(`route="${route}"`))
      .reduce((n, m) => n + Number(m[2]), 0);
  };
  const viaProxy = (path: string, init: RequestInit = {}, base = proxy.base) =>
    fetch(`${base}${path}`, { ...init, headers: { authorization: `JWT ${token}`, 'content-type': 'application/json', ...init.headers } });
  /** A sender mapping created through nginx (no key of the client's: nginx gives it one). */
  const create = (sender: string, base = proxy.base) =>
    viaProxy('/api/admin/sender-mappings/', { method: 'POST', body: JSON.stringify({ sender, organisation: 'Cluster Bank' }) }, base);
  const bySender = (a: { sender: string }, b: { sender: string }) => (a.sender < b.sender ? -1 : a.sender > b.sender ? 1 : 0);
  /** The stored senders with this prefix, each with how often it is there (in JavaScript's order, not the collation's). */
  const storedSenders = async (prefix: string) =>
    (
      await queryRows<{ sender: string; n: number; id: number }>(
        t.database.db,
        sql`select sender, count(*)::int as n, min(id)::int as id from mail_senders where sender like ${`${prefix}%`} group by sender`,
      )
    ).sort(bySender);
  /** Instance i started again on its port, ready, and given requests by nginx again. */
  const startAgain = async (i: number, takesRequests: () => Promise<boolean>) => {
    const port = portOf(apis[i]!);
    apis[i] = await startApi(port);
    await apis[i]!.waitFor('/api/ready', 200);
    await until(`the restarted instance on ${port} to take requests`, takesRequests, 60_000);
  };
  /** Each API instance stopped as systemd stops it (SIGTERM, exit 0) and started again, in turn, under the caller's load. */
  const restartInTurn = async () => {
    for (const [i, api] of apis.entries()) {
      api.child.kill('SIGTERM');
      expect(await api.exited, api.output()).toBe(0);
      // Back in nginx's rotation (its own count of answers grows) before the other one goes.
      await startAgain(i, async () => (await answered(apis[i]!)) > 50);
    }
  };

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
    edgePort = started.port;
    proxy = await startNginx({ api: apis.map(portOf), edge: [edgePort] });
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

  test('600 messages drained by two workers, the holder killed half-way, the survivor stopped later: each processed once, the lease and the events go on', async () => {
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

  test('each API instance restarted in turn under 16 connections of filters, exports and creates: no request fails, each create stored once', async ({
    annotate,
  }) => {
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
          const response = await expectStatus('create', await create(sender).catch((e: Error) => e), 201);
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
    await until('load on both instances', async () => done.create > 20 && done.export > 2, 180_000);
    await restartInTurn();
    const after = { ...done };
    await until('load after the restarts', async () => done.create > after.create + 20, 180_000);
    stop = true;
    await load;

    expect(failures, proxy.errors()).toEqual([]);
    expect(done.read).toBeGreaterThan(100);
    expect(done.export).toBeGreaterThan(4);
    const stored = await storedSenders('load-');
    expect(stored.filter((row) => row.n !== 1)).toEqual([]);
    expect(stored.map((row) => row.sender).sort()).toEqual([...acknowledged].sort());
    // The event stream was ended by its instance and opened again through nginx on the other.
    expect(heard.streams).toBeGreaterThan(streamsBefore);
    await annotate(`${done.read} filters, ${done.export} exports, ${done.create} creates over 2 restarts, none failed`);
  }, 600_000);

  test('each API instance restarted in turn under 16 connections of creates alone: every create answered 201, each stored once', async ({ annotate }) => {
    const failures: string[] = [];
    const acknowledged: string[] = [];
    let replayed = 0;
    let stop = false;
    const connection = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const sender = `post-${n}-${i}@cluster.example`;
        const response = await create(sender).catch((e: Error) => e);
        if (response instanceof Error) failures.push(`${sender}: ${response.message} ${String((response.cause as Error | undefined)?.message ?? '')}`);
        else if (response.status !== 201) failures.push(`${sender}: ${response.status} ${await response.text()}`);
        else {
          if (response.headers.get('idempotent-replayed') === 'true') replayed++;
          acknowledged.push(sender);
          await response.arrayBuffer();
        }
      }
    };
    const load = Promise.all(Array.from({ length: 16 }, (_, n) => connection(n)));
    const creates = (api: ApiProcess) => answered(api, '/api/admin/sender-mappings/');
    await until('creates on both instances', async () => (await Promise.all(apis.map(creates))).every((n) => n > 50), 180_000);
    await restartInTurn();
    const after = acknowledged.length;
    await until('creates after the restarts', async () => acknowledged.length > after + 100, 180_000);
    stop = true;
    await load;

    expect(failures, proxy.errors()).toEqual([]);
    const stored = await storedSenders('post-');
    expect(stored.filter((row) => row.n !== 1)).toEqual([]);
    // Every acknowledged create is there, and nothing else: none stored that its client was told failed.
    expect(stored.map((row) => row.sender)).toEqual([...acknowledged].sort());
    expect(acknowledged.length).toBeGreaterThan(300);
    await annotate(`${acknowledged.length} creates over 2 restarts, all 201 (${replayed} answered from a stored key), each stored once`);
  }, 600_000);

  const holdKey = 727_105;
  /**
   * Eight creates sent through `base` at once, their commits held (a deferred trigger on
   * mail_senders waits on an advisory lock this test holds); the instance holding more of them
   * killed outright; once nginx has passed its creates on and they wait on the other instance too,
   * the commits let go. The killed instance's backends still commit: the server does not look at
   * a client's socket while it waits on a lock. The instance is started again afterwards.
   */
  const crashMidCommit = async (base: string, prefix: string) => {
    const lock = new pg.Client({ connectionString: t.config.databaseUrl });
    await lock.connect();
    let victim: number | undefined;
    try {
      await lock.query(
        `create function cluster_hold_commit() returns trigger language plpgsql as $$ begin perform pg_advisory_xact_lock_shared(${holdKey}); return null; end $$`,
      );
      await lock.query(
        'create constraint trigger cluster_hold_commit after insert on mail_senders deferrable initially deferred for each row execute function cluster_hold_commit()',
      );
      await lock.query('select pg_advisory_lock($1)', [holdKey]);
      const senders = Array.from({ length: 8 }, (_, n) => `${prefix}${n}@cluster.example`);
      const answers = Promise.all(
        senders.map(async (sender) => {
          const response = await create(sender, base).catch((e: Error) => e);
          if (response instanceof Error)
            return { sender, status: 0, replayed: false, body: `${response.message} ${String((response.cause as Error | undefined)?.message ?? '')}` };
          return { sender, status: response.status, replayed: response.headers.get('idempotent-replayed') === 'true', body: await response.text() };
        }),
      );
      /** Each instance's backends waiting on a lock: on the held commit (advisory), on another's transaction (transactionid). */
      const waits = async () => {
        const { rows } = await lock.query<{ app: string; locktype: string; n: number }>(
          `select a.application_name as app, l.locktype, count(*)::int as n from pg_locks l join pg_stat_activity a on a.pid = l.pid
           where not l.granted and a.datname = current_database() group by 1, 2`,
        );
        const of = (api: ApiProcess, locktype: string) => rows.find((row) => row.app === appName(portOf(api)) && row.locktype === locktype)?.n ?? 0;
        return apis.map((api) => ({ advisory: of(api, 'advisory'), transactionid: of(api, 'transactionid') }));
      };
      await until('every create to wait on its commit', async () => (await waits()).reduce((n, w) => n + w.advisory, 0) === senders.length, 120_000);
      const held = await waits();
      // least_conn spread them: both instances hold some.
      expect(
        held.map((w) => w.advisory > 0),
        JSON.stringify(held),
      ).toEqual([true, true]);
      victim = held[0]!.advisory >= held[1]!.advisory ? 0 : 1;
      const survivor = 1 - victim;
      const passed = held[victim]!.advisory;
      apis[victim]!.child.kill('SIGKILL');
      await apis[victim]!.exited;
      // nginx got a reset for each and sent it to the survivor, where it waits on the dead one's transaction.
      await until("the killed instance's creates to wait on the other one", async () => (await waits())[survivor]!.transactionid === passed, 120_000);
      await lock.query('select pg_advisory_unlock($1)', [holdKey]);
      return { passed, answers: (await answers).sort(bySender), stored: await storedSenders(prefix) };
    } finally {
      await lock.query('select pg_advisory_unlock_all()');
      await lock.query('drop trigger if exists cluster_hold_commit on mail_senders');
      await lock.query('drop function if exists cluster_hold_commit()');
      await lock.end();
      if (victim !== undefined) {
        const again = victim;
        await startAgain(again, async () => {
          await (await viaProxy('/api/mail-flow/')).arrayBuffer();
          return (await answered(apis[again]!, '/api/mail-flow')) > 0;
        });
      }
    }
  };

  test('an instance killed while its creates commit: nginx passes them on with their keys, each answered 201 and stored once', async ({ annotate }) => {
    const { passed, answers, stored } = await crashMidCommit(proxy.base, 'crash-keyed-');
    expect(
      answers.filter((a) => a.status !== 201),
      proxy.errors(),
    ).toEqual([]);
    // The creates passed on were answered from the answer the killed instance committed with their key.
    expect(answers.filter((a) => a.replayed)).toHaveLength(passed);
    expect(stored.map((row) => [row.sender, row.n])).toEqual(answers.map((a) => [a.sender, 1]));
    expect(answers.map((a) => [a.sender, (JSON.parse(a.body) as { id: number }).id])).toEqual(stored.map((row) => [row.sender, row.id]));
    await annotate(`${answers.length} creates, ${passed} passed on from the killed instance: all 201, ${passed} from their stored key, each stored once`);
  }, 180_000);

  test('the same crash through nginx without the key: the creates passed on are refused, though stored (what the keys prevent)', async ({ annotate }) => {
    const line = 'proxy_set_header Idempotency-Key $ejdesk_idempotency_key;';
    const keyless = await startNginx({
      api: apis.map(portOf),
      edge: [edgePort],
      transform: (conf) => {
        if (!conf.includes(line)) throw new Error(`deploy/nginx/ejdesk.conf no longer says: ${line}`);
        // An empty value: nginx sends no such header.
        return conf.replace(line, 'proxy_set_header Idempotency-Key "";');
      },
    });
    try {
      const { passed, answers, stored } = await crashMidCommit(keyless.base, 'crash-keyless-');
      // Every create was done, once: the killed instance's commits went through after it died...
      expect(stored.map((row) => [row.sender, row.n])).toEqual(answers.map((a) => [a.sender, 1]));
      // ...yet each one nginx passed on was done again without a key, and refused: its own row was there.
      const refused = answers.filter((a) => a.status !== 201);
      expect(refused.length).toBeGreaterThan(0);
      expect(refused).toHaveLength(passed);
      for (const a of refused) expect([a.status, a.body]).toEqual([400, expect.stringContaining('is already mapped')]);
      expect(answers.filter((a) => a.replayed)).toEqual([]);
      await annotate(`${answers.length} creates, ${passed} passed on from the killed instance: ${refused.length} refused (400) though stored`);
    } finally {
      await keyless.stop();
    }
  }, 180_000);
});
