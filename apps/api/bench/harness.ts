// What every benchmark shares: the ejdesk_bench database on a real PostgreSQL server (created and
// seeded once, reused after), the API over real HTTP with a signed-in operator, and timing.
// BENCH_DATABASE_URL names the server (default: TEST_DATABASE_URL, else local trust auth);
// BENCH_DATABASE_NAME another database than ejdesk_bench (the scale benchmark's 10,000,000 rows);
// BENCH_SHAPES_FILE a file each measured request's table, name and URL are added to (bench/scale.ts
// measures them again, two sizes in turn).
import { execFile } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sql, type SQL } from 'drizzle-orm';
import { createUser, openDatabase, queryRows, type Database, type Db } from '@ejdesk/db';
import { seed, type SeedOptions } from '@ejdesk/db/seed';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { hashPassword } from '../src/lib/passwords.ts';

export const runs = Number(process.env.BENCH_RUNS ?? 100);
/** Race mode: each request also at 16 connections for this many seconds (BENCH_RACE_SECONDS=0 skips it). */
const raceSeconds = Number(process.env.BENCH_RACE_SECONDS ?? 10);
const raceConnections = 16;

export interface Bench {
  database: Database;
  base: string;
  headers: Record<string, string>;
  /** Signs in again (a bench that builds its data for minutes outlives an access token). */
  signIn(): Promise<void>;
  close(): Promise<void>;
}

/** Opens ejdesk_bench (or `name`) and tops `table` up to `wanted` rows with the seed generator if needed. */
export async function openBench(
  table: 'emails' | 'ej_records' | 'data_files',
  wanted: number,
  extra: (missing: number) => Partial<SeedOptions>,
  name = process.env.BENCH_DATABASE_NAME ?? 'ejdesk_bench',
): Promise<Bench> {
  const server = new URL(process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const url = new URL(server);
  url.pathname = `/${name}`;
  const admin = new pg.Client({ connectionString: server.toString() });
  await admin.connect();
  const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
  if (exists.rowCount === 0) await admin.query(`create database ${pg.escapeIdentifier(name)}`);
  await admin.end();

  const database = await openDatabase({ url: url.toString(), poolSize: 4 });
  await database.migrate();
  // The derived tables as autovacuum keeps them (their visibility map lets broad value matches
  // read the index alone); a migration that just rewrote one leaves it unvacuumed, its GIN
  // pending list long and its dead rows in every search (0017 rewrote email_subjects: a selective
  // subject took 10 ms instead of 6 until vacuumed).
  const derived = sql`vacuum analyze ej_values, ej_id_blocks, email_subjects, file_values`;
  await database.db.execute(derived);
  const [{ n: present } = { n: 0 }] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from ${sql.identifier(table)}`);
  if (present < wanted) {
    console.log(`Seeding ${(wanted - present).toLocaleString('en')} rows into ${table} of ${name} (once; reused by later runs)...`);
    const started = Date.now();
    await seed(database.db, { emails: 0, ej: 0, filesPerKind: 0, seed: 7 + present, ...extra(wanted - present) });
    // The derived tables too: the seed's triggers just filled them (a sender with a month, counted
    // from email_subjects' index alone, took 62 ms instead of 15 on a fresh seed until vacuumed).
    await database.db.execute(sql.raw(`vacuum analyze ${table}`));
    await database.db.execute(derived);
    // Kept with the database, so that a later run reusing it still says what seeding took.
    const took = `${(wanted - present).toLocaleString('en')} ${table} seeded in ${((Date.now() - started) / 1000).toFixed(0)} s`;
    await database.db.execute(sql.raw(`comment on database ${pg.escapeIdentifier(name)} is ${pg.escapeLiteral(took)}`));
  }
  const [seeded] = await queryRows<{ note: string | null }>(
    database.db,
    sql`select shobj_description(oid, 'pg_database') as note from pg_database where datname = ${name}`,
  );
  if (seeded?.note) console.log(`${name}: ${seeded.note}`);

  const credentials = { email: 'bench@ejdesk.local', password: randomBytes(12).toString('hex') };
  // The bench's account of an earlier run gets this run's password: accounts are never deleted
  // (their audit entries name them, and those are never changed).
  const passwordHash = await hashPassword(credentials.password);
  const kept = await queryRows(database.db, sql`update users set password_hash = ${passwordHash} where email = ${credentials.email} returning id`);
  if (!kept.length) await createUser(database.db, credentials.email, passwordHash);
  const app = await buildApp({
    database,
    config: { ...loadConfig({}), databaseUrl: url.toString(), loginMaxFailures: 1000 },
    secrets: { jwtSecret: randomBytes(32).toString('hex'), bankPassKey: randomBytes(32) },
  });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const bench: Bench = {
    database,
    base,
    headers: {},
    async signIn() {
      const response = await fetch(`${base}/api/auth/jwt/create/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(credentials),
      });
      const { access } = (await response.json()) as { access: string };
      bench.headers = { authorization: `JWT ${access}` };
    },
    async close() {
      await app.close();
      await database.close();
    },
  };
  await bench.signIn();
  return bench;
}

const timed = async (run: () => Promise<unknown>) => {
  const started = performance.now();
  await run();
  return performance.now() - started;
};

function percentiles(times: number[]): { p50: number; p95: number } {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: sorted[Math.floor(sorted.length * 0.5)]!, p95: sorted[Math.floor(sorted.length * 0.95)]! };
}

export async function measure(run: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < 5; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await timed(run));
  return percentiles(times);
}

/**
 * Two requests timed in turn, `runs` times each, the first of each pair alternating: whatever
 * else the machine does at that moment (a collection, another tenant of the host) falls on both
 * alike, so their figures can be compared as two runs minutes apart cannot.
 */
export async function measureInTurn(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  count = runs,
): Promise<[{ p50: number; p95: number }, { p50: number; p95: number }]> {
  for (let i = 0; i < 5; i++) await a().then(b);
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < count; i++) {
    if (i % 2) times[1].push(await timed(b));
    times[0].push(await timed(a));
    if (!(i % 2)) times[1].push(await timed(b));
  }
  return [percentiles(times[0]), percentiles(times[1])];
}

export interface Scenario {
  name: string;
  url: string;
  direct: () => Promise<unknown>;
}

/**
 * The request at 16 connections for raceSeconds, by autocannon in a process of its own (the load
 * generator shares this 2-core machine with the API and PostgreSQL, as wrk did in the DRF race;
 * autocannon is JavaScript, so it takes more of the machine than wrk would).
 */
async function race(bench: Bench, url: string): Promise<{ rps: number; p50: number; p99: number; errors: number; detail: string }> {
  const bin = new URL('../node_modules/.bin/autocannon', import.meta.url).pathname;
  // Asynchronously: the API answering it runs in this very process.
  const run = await promisify(execFile)(
    bin,
    [
      '-c',
      String(raceConnections),
      '-d',
      String(raceSeconds),
      '-j',
      ...Object.entries(bench.headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]),
      bench.base + url,
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const result = JSON.parse(run.stdout) as { requests: { average: number }; latency: { p50: number; p99: number }; non2xx: number; timeouts: number };
  // autocannon also counts the requests still in flight when the time is up as errors: not failures.
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.timeouts,
    detail: JSON.stringify({ ...result, latency: undefined, requests: undefined, throughput: undefined }),
  };
}

/**
 * Times each scenario over HTTP and directly on the database (sequential requests), then, in race
 * mode, over HTTP at 16 connections; prints one table.
 */
export async function report(bench: Bench, title: string, scenarios: Scenario[]): Promise<void> {
  const racing = raceSeconds > 0;
  console.log(`\n${title}, ${runs} sequential requests each (ms)${racing ? `; then ${raceConnections} connections for ${raceSeconds} s (req/s, ms)` : ''}\n`);
  const raceHead = racing ? ` ${'req/s'.padStart(7)} ${'p50'.padStart(6)} ${'p99'.padStart(6)}` : '';
  console.log(`${'request'.padEnd(50)} ${'HTTP p50'.padStart(9)} ${'HTTP p95'.padStart(9)} ${'DB p50'.padStart(8)} ${'DB p95'.padStart(8)}${raceHead}`);
  for (const scenario of scenarios) {
    if (process.env.BENCH_SHAPES_FILE) appendFileSync(process.env.BENCH_SHAPES_FILE, `${JSON.stringify({ title, name: scenario.name, url: scenario.url })}\n`);
    await bench.signIn();
    const check = await fetch(bench.base + scenario.url, { headers: bench.headers });
    if (!check.ok) throw new Error(`${scenario.url}: HTTP ${check.status} ${await check.text()}`);
    const http = await measure(async () => (await fetch(bench.base + scenario.url, { headers: bench.headers })).arrayBuffer());
    const direct = await measure(scenario.direct);
    const f = (n: number) => n.toFixed(1).padStart(8);
    let raced = '';
    if (racing) {
      const r = await race(bench, scenario.url);
      if (r.errors) throw new Error(`${scenario.url}: ${r.errors} failed requests at ${raceConnections} connections (${r.detail})`);
      raced = ` ${r.rps.toFixed(0).padStart(7)} ${r.p50.toFixed(0).padStart(6)} ${r.p99.toFixed(0).padStart(6)}`;
    }
    console.log(`${scenario.name.padEnd(50)} ${f(http.p50)}  ${f(http.p95)} ${f(direct.p50)} ${f(direct.p95)}${raced}`);
  }
}

/** A shape's floor: the cheapest plain SQL that reads the data the shape must read. */
export type Floor = [name: string, query: SQL];

/** Prints each floor's p50 of 30 runs, beside the shapes that cannot reach the aim. */
export async function printFloors(db: Db, floors: Floor[]): Promise<void> {
  console.log('\nFloors: the cheapest read of the data those shapes need (plain SQL, ms)\n');
  for (const [name, query] of floors) {
    const times: number[] = [];
    for (let i = 0; i < 30; i++) {
      const started = performance.now();
      await queryRows(db, query);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.log(`${name.padEnd(60)} p50 ${times[15]!.toFixed(1).padStart(6)}`);
  }
}
