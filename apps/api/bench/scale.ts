// The cost of growing tenfold: every list shape at 1,000,000 and at 10,000,000 EJ records and
// journal transactions, each size a database of its own generated in SQL by bench/scale-seed.ts
// (made once, the time it took printed and kept as the database's comment; a seed that did not
// finish is made again). Each size is measured by the lists' own benchmarks, each in a process of
// its own and one connection at a time: the EJ table's filter shapes (bench/ej-records.ts), the
// dispute desk (bench/disputes.ts), the email lists (bench/emails.ts), the file list
// (bench/files.ts) and the Journals list (bench/journals.ts); then each shape's p95 side by side.
// BENCH_SCALE_SIZES=20000,200000 measures other sizes (a quick look at the whole run);
// BENCH_ONLY=seed makes the databases and measures nothing.
import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { openDatabase } from '@ejdesk/db';
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

// Each shape's HTTP p95 at each size, under its table's title without the size.
const p95s = new Map<string, Map<string, number[]>>();
if (process.env.BENCH_ONLY === 'seed') {
  for (const size of sizes) await scaleDatabase(size);
  process.exit(0);
}
for (const size of sizes) {
  const name = await scaleDatabase(size);
  for (const [script, env] of benches(size)) {
    const child = spawnSync(process.execPath, ['--import', 'tsx', new URL(script, import.meta.url).pathname], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...env, BENCH_DATABASE_NAME: name, BENCH_RACE_SECONDS: '0', BENCH_RUNS: process.env.BENCH_RUNS ?? '50' },
      maxBuffer: 64 * 1024 * 1024,
    });
    const output = child.stdout.toString();
    process.stdout.write(output);
    if (child.status !== 0) throw new Error(`bench/${script} at ${label(size)} failed (${child.status})`);
    let title = script;
    for (const line of output.split('\n')) {
      // A table's title: the sizes in it said otherwise at each size.
      if (/\(ms\)$/.test(line)) title = line.replace(/, \d+ sequential requests each \(ms\)$/, '').replace(/ at [\d,]+ [\w ]+?( \(|$)/, '$1');
      // Each table line: the shape's name, then HTTP p50, HTTP p95, DB p50, DB p95.
      const m = /^(.{50}) +[\d.]+ +([\d.]+) +[\d.]+ +[\d.]+$/.exec(line);
      if (!m) continue;
      const shapes = p95s.get(title) ?? p95s.set(title, new Map()).get(title)!;
      const shape = m[1]!.trim();
      shapes.set(shape, [...(shapes.get(shape) ?? []), Number(m[2])]);
    }
  }
}

const [small, large] = sizes as [number, number];
console.log(`\nHTTP p95 (ms) at ${label(small)} and ${label(large)}, one connection`);
let worst = { ratio: 0, shape: '' };
let slowest = { p95: 0, shape: '' };
for (const [title, shapes] of p95s) {
  console.log(`\n${title}\n`);
  console.log(`${'request'.padEnd(50)} ${label(small).padStart(8)} ${label(large).padStart(8)} ${'ratio'.padStart(6)}`);
  for (const [shape, [a, b]] of shapes) {
    if (a === undefined || b === undefined) continue;
    console.log(`${shape.padEnd(50)} ${a.toFixed(1).padStart(8)} ${b.toFixed(1).padStart(8)} ${(b / a).toFixed(1).padStart(6)}`);
    if (b / a > worst.ratio) worst = { ratio: b / a, shape: `${title}: ${shape}` };
    if (b > slowest.p95) slowest = { p95: b, shape: `${title}: ${shape}` };
  }
}
console.log(`\nSlowest at ${label(large)}: ${slowest.shape} (${slowest.p95.toFixed(1)} ms); largest growth: ${worst.shape} (x${worst.ratio.toFixed(2)})`);
