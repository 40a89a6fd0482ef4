// The cost of growing tenfold: every list shape at 1,000,000 and at 10,000,000 EJ records and
// journal transactions, each size a database of its own generated in SQL by bench/scale-seed.ts
// (made once, the time it took printed and kept as the database's comment; a seed that did not
// finish is made again). Each size is measured by the lists' own benchmarks, each in a process of
// its own and one connection at a time: the EJ table's filter shapes (bench/ej-records.ts), the
// dispute desk (bench/disputes.ts), the email lists (bench/emails.ts), the file list
// (bench/files.ts) and the Journals list (bench/journals.ts). Then each shape again at both sizes,
// the two sizes' requests taken in turn in one process, and its p95 at each side by side.
// BENCH_SCALE_SIZES=20000,200000 measures other sizes (a quick look at the whole run);
// BENCH_ONLY=seed makes the databases and measures nothing; BENCH_ONLY=turns measures the second
// half alone, with the shapes of the last full run.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase } from '@ejdesk/db';
import { type Bench, measureInTurn, openBench } from './harness.ts';
import { seedScale } from './scale-seed.ts';

const server = new URL(process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const at = (name: string) => Object.assign(new URL(server), { pathname: `/${name}` }).toString();
const sizes = (process.env.BENCH_SCALE_SIZES ?? '1000000,10000000').split(',').map(Number);
const label = (n: number) => (n >= 1_000_000 && n % 1_000_000 === 0 ? `${n / 1_000_000}M` : n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n));
const done = 'seeded in SQL:';

/** The database of one size, seeded unless a finished seed is there; what its seed took. */
async function scaleDatabase(size: number): Promise<string> {
  const name = `ejdesk_scale_${label(size).toLowerCase()}`;
  const admin = new pg.Client({ connectionString: server.toString() });
  await admin.connect();
  try {
    const [kept] = (
      await admin.query<{ note: string | null }>(`select shobj_description(oid, 'pg_database') as note from pg_database where datname = $1`, [name])
    ).rows;
    if (kept?.note?.startsWith(done)) {
      console.log(`${name}: ${kept.note}`);
      return name;
    }
    if (kept) await admin.query(`drop database ${pg.escapeIdentifier(name)} with (force)`);
    await admin.query(`create database ${pg.escapeIdentifier(name)}`);
    const database = await openDatabase({ url: at(name), poolSize: 1 });
    await database.migrate();
    await database.close();
    const db = new pg.Client({ connectionString: at(name) });
    await db.connect();
    try {
      console.log(`Making ${name} in SQL (once; reused by later runs)...`);
      const started = Date.now();
      await seedScale(at(name), size);
      const [counts] = (
        await db.query<Record<string, string>>(
          `select (select count(*) from ej_records) as records, (select count(*) from disputes) as disputes,
                  (select count(*) from journal_transactions) as transactions, (select count(*) from emails) as emails,
                  (select count(*) from data_files) as files`,
        )
      ).rows;
      const n = (key: string) => Number(counts![key]).toLocaleString('en');
      const note = `${done} ${n('records')} EJ records (${n('disputes')} disputes), ${n('transactions')} journal transactions, ${n('emails')} emails, ${n('files')} data files in ${((Date.now() - started) / 1000).toFixed(0)} s`;
      await db.query(`comment on database ${pg.escapeIdentifier(name)} is ${pg.escapeLiteral(note)}`);
      console.log(`${name}: ${note}`);
    } finally {
      await db.end();
    }
    return name;
  } finally {
    await admin.end();
  }
}

/** Each benchmark run at a size: its script and what it is told. */
const benches = (size: number): [script: string, env: Record<string, string>][] => [
  ['ej-records.ts', { BENCH_EJ: String(size), BENCH_ONLY: 'shapes' }],
  ['disputes.ts', { BENCH_EJ: String(size) }],
  ['emails.ts', { BENCH_EMAILS: String(Math.floor(size / 10)), BENCH_EMAIL_PAGE: '5000', BENCH_CATEGORY_PAGE: '500' }],
  ['files.ts', { BENCH_FILES: String(Math.max(7, Math.floor(size / 10))) }],
  ['journals.ts', { BENCH_EJ: String(size), BENCH_ONLY: 'list' }],
];

if (process.env.BENCH_ONLY === 'seed') {
  for (const size of sizes) await scaleDatabase(size);
  process.exit(0);
}

interface Shape {
  title: string;
  name: string;
  url: string;
}
// A table's title without the size in it (each size says its own), and each size's shapes by it.
const untitled = (title: string) => title.replace(/ at [\d,]+ [\w ]+?( \(|$)/, '$1');
const shapes = new Map<number, Map<string, Shape>>();
const names = new Map<number, string>();
// Each size's shapes, kept for BENCH_ONLY=turns (the second half alone, with the first's shapes).
const listed = join(tmpdir(), 'ejdesk-scale-shapes');
mkdirSync(listed, { recursive: true });
const turnsOnly = process.env.BENCH_ONLY === 'turns';
for (const size of sizes) {
  const name = await scaleDatabase(size);
  names.set(size, name);
  const file = join(listed, `${size}.jsonl`);
  if (!turnsOnly) rmSync(file, { force: true });
  for (const [script, env] of turnsOnly ? [] : benches(size)) {
    const child = spawnSync(process.execPath, ['--import', 'tsx', new URL(script, import.meta.url).pathname], {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, ...env, BENCH_DATABASE_NAME: name, BENCH_RACE_SECONDS: '0', BENCH_RUNS: process.env.BENCH_RUNS ?? '50', BENCH_SHAPES_FILE: file },
    });
    if (child.status !== 0) throw new Error(`bench/${script} at ${label(size)} failed (${child.status})`);
  }
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  shapes.set(size, new Map(lines.map((line) => JSON.parse(line) as Shape).map((s) => [`${untitled(s.title)}\n${s.name}`, { ...s, title: untitled(s.title) }])));
}

// Then each shape at both sizes again, their requests taken in turn (BENCH_TURN_RUNS each, 300: the
// 15th slowest is the p95, less moved by one stall than the 5th of 100): two runs minutes apart differ
// by what else the machine did meanwhile, which at 2 to 5 ms is as much as the shape itself.
const [small, large] = sizes as [number, number];
const turnRuns = Number(process.env.BENCH_TURN_RUNS ?? 300);
const [first, second] = (await Promise.all([small, large].map((size) => openBench('ej_records', 0, () => ({}), names.get(size))))) as [Bench, Bench];
console.log(
  `\nHTTP p50 and p95 (ms) at ${label(small)} and ${label(large)}, one connection, the two sizes' requests taken in turn (${turnRuns} each); the ratio of the p95s`,
);
let worst = { ratio: 0, shape: '' };
let slowest = { p95: 0, shape: '' };
let title = '';
const get = (bench: Bench, url: string) => async () => {
  const response = await fetch(bench.base + url, { headers: bench.headers });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${await response.text()}`);
  return response.arrayBuffer();
};
for (const [key, a] of shapes.get(small)!) {
  const b = shapes.get(large)!.get(key);
  if (!b) continue;
  if (a.title !== title) {
    title = a.title;
    console.log(`\n${title}\n`);
    const at = (what: string) => [small, large].map((size) => `${label(size)} ${what}`.padStart(8)).join(' ');
    console.log(`${'request'.padEnd(50)} ${at('p50')} ${at('p95')} ${'ratio'.padStart(6)}`);
  }
  await Promise.all([first.signIn(), second.signIn()]);
  const [x, y] = await measureInTurn(get(first, a.url), get(second, b.url), turnRuns);
  const f = (n: number) => n.toFixed(1).padStart(8);
  console.log(`${a.name.padEnd(50)} ${f(x.p50)} ${f(y.p50)} ${f(x.p95)} ${f(y.p95)} ${(y.p95 / x.p95).toFixed(1).padStart(6)}`);
  if (y.p95 / x.p95 > worst.ratio) worst = { ratio: y.p95 / x.p95, shape: `${title}: ${a.name}` };
  if (y.p95 > slowest.p95) slowest = { p95: y.p95, shape: `${title}: ${a.name}` };
}
await Promise.all([first.close(), second.close()]);
console.log(`\nSlowest at ${label(large)}: ${slowest.shape} (${slowest.p95.toFixed(1)} ms); largest growth: ${worst.shape} (x${worst.ratio.toFixed(2)})`);
