// pnpm bench (email monitoring): 1,000,000 emails in a real PostgreSQL, then p50 / p95 over HTTP for
// every list endpoint and the dashboard count, beside the same query run straight on the database.
// BENCH_DATABASE_URL names the server (default: TEST_DATABASE_URL, else local trust auth); the
// database ejdesk_bench is created and seeded on the first run and reused after.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { createUser, dashboardCounts, listEmails, openDatabase, queryRows, type EmailListFilters } from '@ejdesk/db';
import { seed } from '@ejdesk/db/seed';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { hashPassword } from '../src/lib/passwords.ts';

const emailsWanted = Number(process.env.BENCH_EMAILS ?? 1_000_000);
const runs = Number(process.env.BENCH_RUNS ?? 100);
const server = new URL(process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const benchUrl = new URL(server);
benchUrl.pathname = '/ejdesk_bench';

const admin = new pg.Client({ connectionString: server.toString() });
await admin.connect();
const exists = await admin.query('select 1 from pg_database where datname = $1', ['ejdesk_bench']);
if (exists.rowCount === 0) await admin.query('create database ejdesk_bench');
await admin.end();

const database = await openDatabase({ url: benchUrl.toString(), poolSize: 4 });
await database.migrate();
const [{ n: present } = { n: 0 }] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from emails`);
if (present < emailsWanted) {
  console.log(`Seeding ${emailsWanted - present} emails into ejdesk_bench (once; reused by later runs)...`);
  const started = Date.now();
  await seed(database.db, { emails: emailsWanted - present, ej: 0, filesPerKind: 0, seed: 7 + present });
  await database.db.execute(sql`vacuum analyze emails`);
  await database.db.execute(sql`vacuum analyze email_counts`);
  console.log(`seeded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}
const credentials = { email: 'bench@ejdesk.local', password: randomBytes(12).toString('hex') };
await database.db.execute(sql`delete from users where email = ${credentials.email}`);
await createUser(database.db, credentials.email, await hashPassword(credentials.password));

const app = await buildApp({
  db: database.db,
  config: { ...loadConfig({}), databaseUrl: benchUrl.toString(), loginMaxFailures: 1000 },
  secrets: { jwtSecret: randomBytes(32).toString('hex'), bankPassKey: randomBytes(32) },
});
const base = await app.listen({ host: '127.0.0.1', port: 0 });
const { access } = (await (
  await fetch(`${base}/api/auth/jwt/create/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(credentials) })
).json()) as { access: string };
const headers = { authorization: `JWT ${access}` };

async function measure(run: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < 5; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(runs * 0.5)]!, p95: times[Math.floor(runs * 0.95)]! };
}

const now = new Date();
const monthNames = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
const monthEnd = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
const weekAgo = new Date(now.getTime() - 7 * 86_400_000).toISOString().slice(0, 10);
const today = now.toISOString().slice(0, 10);
const deep = { page: 10_000, pageSize: 10 };

interface Scenario {
  name: string;
  url: string;
  direct: () => Promise<unknown>;
}
const list = (name: string, url: string, filters: EmailListFilters, page = { page: 1, pageSize: 10 }): Scenario => ({
  name,
  url,
  direct: () => listEmails(database.db, filters, page),
});
const all = '/api/scrape/email/to/json/pagination/';
const read = '/api/scrape/ejs/read/email/';
const scenarios: Scenario[] = [
  {
    name: 'dashboard count (this month)',
    url: `/api/scrape/email/dashboard/count/?date=${now.getUTCFullYear()}-${monthNames[now.getUTCMonth()]}`,
    direct: () => dashboardCounts(database.db, monthStart, monthEnd),
  },
  list('all-email, no filter', all, { selection: 'all' }),
  list('all-email, subject_name=APX00123', `${all}?subject_name=APX00123`, { selection: 'all', subject: 'APX00123' }),
  list('all-email, email_from=harborbank', `${all}?email_from=harborbank`, { selection: 'all', emailFrom: 'harborbank' }),
  list('all-email, created in the last week', `${all}?create_at_after=${weekAgo}&create_at_before=${today}`, { selection: 'all', createdFrom: weekAgo, createdTo: today }),
  list('all-email, page 10,000', `${all}?page=${deep.page}`, { selection: 'all' }, deep),
  list('read-email, no filter', read, { selection: { isRead: true } }),
  list('read-email, subject=HRB00042', `${read}?subject=HRB00042`, { selection: { isRead: true }, subject: 'HRB00042' }),
  list('read-email, date=today', `${read}?date=${today}`, { selection: { isRead: true }, createdFrom: today, createdTo: today }),
  list('read-email, page 10,000', `${read}?page=${deep.page}`, { selection: { isRead: true } }, deep),
  list('ej-not-found, no filter', '/api/scrape/ejs/not/found/email/', { selection: { category: 'ej_not_found' } }),
];

const [{ n: total } = { n: 0 }] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from emails`);
console.log(`\nEmail monitoring at ${total.toLocaleString('en')} emails, ${runs} sequential requests each (ms)\n`);
console.log(`${'request'.padEnd(38)} ${'HTTP p50'.padStart(9)} ${'HTTP p95'.padStart(9)} ${'DB p50'.padStart(8)} ${'DB p95'.padStart(8)}`);
for (const scenario of scenarios) {
  const check = await fetch(base + scenario.url, { headers });
  if (!check.ok) throw new Error(`${scenario.url}: HTTP ${check.status} ${await check.text()}`);
  const http = await measure(async () => (await fetch(base + scenario.url, { headers })).arrayBuffer());
  const direct = await measure(scenario.direct);
  const f = (n: number) => n.toFixed(1).padStart(8);
  console.log(`${scenario.name.padEnd(38)} ${f(http.p50)}  ${f(http.p95)} ${f(direct.p50)} ${f(direct.p95)}`);
}
await app.close();
await database.close();
