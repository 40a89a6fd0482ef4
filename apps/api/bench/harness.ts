// What every benchmark shares: the ejdesk_bench database on a real PostgreSQL server (created and
// seeded once, reused after), the API over real HTTP with a signed-in operator, and timing.
// BENCH_DATABASE_URL names the server (default: TEST_DATABASE_URL, else local trust auth).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { createUser, openDatabase, queryRows, type Database } from '@ejdesk/db';
import { seed, type SeedOptions } from '@ejdesk/db/seed';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { hashPassword } from '../src/lib/passwords.ts';

export const runs = Number(process.env.BENCH_RUNS ?? 100);

export interface Bench {
  database: Database;
  base: string;
  headers: Record<string, string>;
  close(): Promise<void>;
}

/** Opens ejdesk_bench and tops `table` up to `wanted` rows with the seed generator if needed. */
export async function openBench(table: 'emails' | 'ej_records' | 'data_files', wanted: number, extra: (missing: number) => Partial<SeedOptions>): Promise<Bench> {
  const server = new URL(process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const url = new URL(server);
  url.pathname = '/ejdesk_bench';
  const admin = new pg.Client({ connectionString: server.toString() });
  await admin.connect();
  const exists = await admin.query('select 1 from pg_database where datname = $1', ['ejdesk_bench']);
  if (exists.rowCount === 0) await admin.query('create database ejdesk_bench');
  await admin.end();

  const database = await openDatabase({ url: url.toString(), poolSize: 4 });
  await database.migrate();
  const [{ n: present } = { n: 0 }] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from ${sql.identifier(table)}`);
  if (present < wanted) {
    console.log(`Seeding ${wanted - present} rows into ${table} of ejdesk_bench (once; reused by later runs)...`);
    const started = Date.now();
    await seed(database.db, { emails: 0, ej: 0, filesPerKind: 0, seed: 7 + present, ...extra(wanted - present) });
    await database.db.execute(sql.raw(`vacuum analyze ${table}`));
    console.log(`seeded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }

  const credentials = { email: 'bench@ejdesk.local', password: randomBytes(12).toString('hex') };
  await database.db.execute(sql`delete from users where email = ${credentials.email}`);
  await createUser(database.db, credentials.email, await hashPassword(credentials.password));
  const app = await buildApp({
    database,
    config: { ...loadConfig({}), databaseUrl: url.toString(), loginMaxFailures: 1000 },
    secrets: { jwtSecret: randomBytes(32).toString('hex'), bankPassKey: randomBytes(32) },
  });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const response = await fetch(`${base}/api/auth/jwt/create/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  const { access } = (await response.json()) as { access: string };
  return {
    database,
    base,
    headers: { authorization: `JWT ${access}` },
    async close() {
      await app.close();
      await database.close();
    },
  };
}

export async function measure(run: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
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

export interface Scenario {
  name: string;
  url: string;
  direct: () => Promise<unknown>;
}

/** Times each scenario over HTTP and directly on the database, and prints one table. */
export async function report(bench: Bench, title: string, scenarios: Scenario[]): Promise<void> {
  console.log(`\n${title}, ${runs} sequential requests each (ms)\n`);
  console.log(`${'request'.padEnd(50)} ${'HTTP p50'.padStart(9)} ${'HTTP p95'.padStart(9)} ${'DB p50'.padStart(8)} ${'DB p95'.padStart(8)}`);
  for (const scenario of scenarios) {
    const check = await fetch(bench.base + scenario.url, { headers: bench.headers });
    if (!check.ok) throw new Error(`${scenario.url}: HTTP ${check.status} ${await check.text()}`);
    const http = await measure(async () => (await fetch(bench.base + scenario.url, { headers: bench.headers })).arrayBuffer());
    const direct = await measure(scenario.direct);
    const f = (n: number) => n.toFixed(1).padStart(8);
    console.log(`${scenario.name.padEnd(50)} ${f(http.p50)}  ${f(http.p95)} ${f(direct.p50)} ${f(direct.p95)}`);
  }
}
