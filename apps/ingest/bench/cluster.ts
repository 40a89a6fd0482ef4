// `pnpm bench cluster`: EJ Desk on several processes, as deploy/ places them.
// - Requests per second through Debian's nginx (deploy/nginx/ejdesk.conf) to one, then two API
//   processes (`pnpm api`), 16 connections for 10 s each (autocannon in a process of its own).
// - A mailbox of BENCH_MESSAGES (2,000) mixed messages drained by one, then two `pnpm worker`
//   processes, each run into a fresh database: messages per second from start to the last one processed.
// On two cores the load generator, nginx, the instances and PostgreSQL share the machine: the ratios
// show the contention, as they are.
// BENCH_CLUSTER_DATABASE=ejdesk_scale_10m (a database `pnpm bench scale` made) measures the lists'
// shapes on that database instead, and nothing else: every list's first page, a week, a card's
// last digits, all seven EJ filters, the dispute desk's clock filters, emails, files and journals.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, queryRows } from '@ejdesk/db';
import { seed } from '@ejdesk/db/seed';
import { startApiProcess, startNginx, type ApiProcess } from '@ejdesk/api/test-helpers';
import { freePort } from '@ejdesk/http/testing';
import { startDovecot } from '@ejdesk/mailbox/testing';
import { bulkCorpus } from '../test/support/corpus.ts';
import { freshDatabase } from './databases.ts';

const messages = Number(process.env.BENCH_MESSAGES ?? 2000);
const key = randomBytes(32);
// A new operator each run: a scale database is kept between runs.
const operator = { email: `bench-${randomBytes(4).toString('hex')}@ejdesk.local`, password: randomBytes(12).toString('hex') };
const autocannon = new URL('../../api/node_modules/.bin/autocannon', import.meta.url).pathname;

const scaleDatabase = process.env.BENCH_CLUSTER_DATABASE;
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
const table = '/api/scrape/extract/email/data/pagination/?page_size=10';
const week = `start_date=${day(60)}&end_date=${day(54)}`;
/** The shapes measured on a scale database: each list's, the broad and the combined ones. */
const scaleRequests = [
  ['the EJ table, first page', table],
  ['the EJ table, a week', `${table}&${week}`],
  ['the EJ table, card_no=XXXXXX1024', `${table}&card_no=XXXXXX1024`],
  ['the EJ table, card_no=XXXXXX (broad)', `${table}&card_no=XXXXXX`],
  ['the EJ table, all seven filters', `${table}&${week}&atm_id=HRB&bank_name=harbor&card_no=XXXXXX&mail_subject=dispute&mail_received_from=example`],
  ['the EJ table, page 10,000', `${table}&page=10000`],
  ['disputes, tat=breached', `${table}&tat=breached`],
  ['disputes, tat=open + a week', `${table}&tat=open&${week}`],
  ['disputes, ordering=next_deadline', `${table}&ordering=next_deadline`],
  ['/all-email, first page', '/api/scrape/email/to/json/pagination/?page_size=10'],
  ['/all-email, subject_name=dispute', '/api/scrape/email/to/json/pagination/?page_size=10&subject_name=dispute'],
  ['text files, name=HRB', '/api/scrape/text/email/data/pagination/?page_size=10&name=HRB'],
  ['the Journals list, a week', '/api/journals/?day_from=2026-10-10&day_to=2026-10-16'],
] as const;

async function requestsPerSecond(): Promise<void> {
  if (scaleDatabase) {
    const admin = new pg.Client({ connectionString: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' });
    await admin.connect();
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [scaleDatabase]);
    await admin.end();
    if (!rowCount) throw new Error(`No database ${scaleDatabase}: pnpm bench scale makes it.`);
  }
  const url = scaleDatabase
    ? Object.assign(new URL(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'), { pathname: `/${scaleDatabase}` }).toString()
    : await freshDatabase('ejdesk_bench_cluster', key);
  if (!scaleDatabase) {
    const database = await openDatabase({ url });
    await seed(database.db, { emails: 5000, ej: 100_000, filesPerKind: 100 });
    await database.db.execute(sql`vacuum analyze`);
    await database.close();
  }

  const env = {
    DATABASE_URL: url,
    JWT_SECRET: randomBytes(32).toString('hex'),
    BANK_PASS_KEY: key.toString('hex'),
    TRUST_PROXY: '127.0.0.1',
    LOG_LEVEL: 'warn',
    EJDESK_HOSTED_WORKER: '',
  };
  // The operator the load signs in as, made as an admin would: the API's own CLI (its password
  // hashing is the API's, not the ingester's to import).
  await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/user-create.ts', '--email', operator.email], {
    cwd: new URL('../../api', import.meta.url).pathname,
    env: { ...process.env, ...env, EJDESK_PASSWORD: operator.password },
  });
  const apis: ApiProcess[] = [];
  for (let i = 0; i < 2; i++) apis.push(await startApiProcess({ ...env, API_PORT: String(await freePort()), LOGIN_MAX_FAILURES: '1000' }));
  for (const api of apis) await api.waitFor('/api/ready', 200);
  const requests = scaleDatabase
    ? scaleRequests
    : ([
        ['the EJ table, first page', '/api/scrape/extract/email/data/pagination/?page_size=10'],
        ['the EJ table, filtered by bank', '/api/scrape/extract/email/data/pagination/?page_size=10&bank_name=harbor'],
        [
          'the dashboard counts (this month)',
          `/api/scrape/email/dashboard/count/?date=${new Date().getUTCFullYear()}-${new Date().toLocaleString('en', { month: 'short', timeZone: 'UTC' })}`,
        ],
      ] as const);
  console.log('Requests per second through nginx, 16 connections for 10 s (autocannon): req/s, p50 / p99 ms\n');
  console.log(`${'request'.padEnd(36)} ${'1 instance'.padStart(22)} ${'2 instances'.padStart(22)} ${'ratio'.padStart(6)}`);
  const rows = new Map<string, string[]>();
  const rates = new Map<string, number[]>();
  const nginxLog: string[] = [];
  for (const instances of [1, 2]) {
    // nginx closes a client's connection after its 1,000th request (keepalive_requests), and
    // autocannon, sending the next one at once, loses it at the socket: a browser sends it again,
    // autocannon counts an error. The shapes past 1,600 requests a second crossed it in 10 s.
    const proxy = await startNginx({
      api: apis.slice(0, instances).map((api) => Number(new URL(api.base).port)),
      transform: (conf) => conf.replace(/listen 127\.0\.0\.1:\d+;/, '$&\n    keepalive_requests 100000;'),
    });
    const login = await fetch(`${proxy.base}/api/auth/jwt/create/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(operator),
    });
    const { access } = (await login.json()) as { access: string };
    for (const [name, path] of requests) {
      const run = await promisify(execFile)(autocannon, ['-c', '16', '-d', '10', '-j', '-H', `authorization=JWT ${access}`, proxy.base + path], {
        maxBuffer: 16 * 1024 * 1024,
      });
      const result = JSON.parse(run.stdout) as {
        requests: { average: number };
        latency: { p50: number; p99: number };
        non2xx: number;
        errors: number;
        timeouts: number;
      };
      if (result.non2xx) throw new Error(`${path}: ${result.non2xx} non-2xx answers through nginx`);
      // A request the load generator lost at the socket (one in tens of thousands here) is shown
      // with the figure, and nginx's log after the table, not taken for a wrong answer.
      const lost = result.errors ? ` ${result.errors} lost (${result.timeouts} timed out)` : '';
      rows.set(name, [...(rows.get(name) ?? []), `${result.requests.average.toFixed(0)} (${result.latency.p50} / ${result.latency.p99})${lost}`]);
      rates.set(name, [...(rates.get(name) ?? []), result.requests.average]);
    }
    if (proxy.errors()) nginxLog.push(proxy.errors());
    await proxy.stop();
  }
  for (const [name] of requests) {
    const [one, two] = rates.get(name)!;
    console.log(`${name.padEnd(36)} ${rows.get(name)![0]!.padStart(22)} ${rows.get(name)![1]!.padStart(22)} ${(two! / one!).toFixed(2).padStart(6)}`);
  }
  if (nginxLog.length) console.log(`\nnginx's error log:\n${nginxLog.join('')}`);
  for (const api of apis) await api.stop();
}

async function ingestRates(): Promise<void> {
  const dovecot = await startDovecot();
  await dovecot.append(await bulkCorpus(messages));
  console.log(`\nA mailbox of ${messages.toLocaleString('en')} mixed messages drained by \`pnpm worker\` processes (each into a fresh database)\n`);
  const rates: number[] = [];
  for (const count of [1, 2]) {
    const url = await freshDatabase(`ejdesk_bench_workers_${count}`, key);
    const database = await openDatabase({ url });
    const processed = async () =>
      (await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from email_sources where processed_at is not null`))[0]!.n;
    const started = performance.now();
    const workers: ChildProcess[] = Array.from({ length: count }, () =>
      spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', '--watch'], {
        cwd: new URL('..', import.meta.url).pathname,
        stdio: 'ignore',
        env: {
          ...process.env,
          DATABASE_URL: url,
          BANK_PASS_KEY: key.toString('hex'),
          LOG_LEVEL: 'warn',
          INGEST_POLL_SECONDS: '1',
          IMAP_HOST: dovecot.host,
          IMAP_PORT: String(dovecot.port),
          IMAP_USER: dovecot.user,
          IMAP_PASSWORD: dovecot.password,
          IMAP_TLS: 'false',
        },
      }),
    );
    while ((await processed()) < messages) await new Promise((r) => setTimeout(r, 250));
    const seconds = (performance.now() - started) / 1000;
    for (const worker of workers) worker.kill('SIGTERM');
    await Promise.all(workers.map((worker) => new Promise((r) => (worker.exitCode === null ? worker.on('exit', r) : r(null)))));
    await database.close();
    rates.push(messages / seconds);
    console.log(
      `${count} worker${count > 1 ? 's' : ''}: ${messages} messages in ${seconds.toFixed(1)} s = ${(messages / seconds).toFixed(0)} messages/s (process start included)`,
    );
  }
  console.log(`ratio: ${(rates[1]! / rates[0]!).toFixed(2)} (one worker fetches the mailbox, its lease; both process the queue)`);
  await dovecot.stop();
}

await requestsPerSecond();
if (!scaleDatabase) await ingestRates();
process.exit(0);
