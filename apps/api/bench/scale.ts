// The cost of growing tenfold: the EJ table's filter shapes at 1,000,000 and at 10,000,000 EJ
// records, each in a database of its own (made once, the time it took printed), by
// bench/ej-records.ts in a process of its own; then each shape's p95 side by side.
// The 1,000,000 are the seed generator's. The 10,000,000 are a copy of that database grown in SQL
// with nine copies of its records (each its own transaction number): the same ATMs, banks, cards
// and months with ten times the transactions, so every filter matches ten times the rows (the
// generator makes about 2,500 records a second here: 10,000,000 would take over an hour). Its
// indexes are dropped for the copy and built again after (the same definitions), as a bulk load does.
import { spawnSync } from 'node:child_process';
import pg from 'pg';

const server = new URL(process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const at = (name: string) => Object.assign(new URL(server), { pathname: `/${name}` }).toString();

/** ejdesk_bench_10m from ejdesk_bench_1m, unless it is there; its making timed and kept as its comment. */
async function growTenfold(from: string, to: string): Promise<void> {
  const admin = new pg.Client({ connectionString: server.toString() });
  await admin.connect();
  try {
    if ((await admin.query('select 1 from pg_database where datname = $1', [to])).rowCount) return;
    console.log(`Making ${to}: a copy of ${from} grown tenfold in SQL (once; reused by later runs)...`);
    const started = Date.now();
    // A template must have no session: the last run's may take a moment to end.
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`create database ${pg.escapeIdentifier(to)} template ${pg.escapeIdentifier(from)}`);
        break;
      } catch (error) {
        if (attempt === 20 || !/being accessed by other users/.test((error as Error).message)) throw error;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    const db = new pg.Client({ connectionString: at(to) });
    await db.connect();
    try {
      await db.query(`set maintenance_work_mem = '1GB'`);
      const indexes = (
        await db.query<{ name: string; definition: string }>(
          // Not the key's (a constraint): the table's month partitions carry every index of it.
          `select indexname as name, indexdef as definition from pg_indexes
           where tablename = 'ej_records' and indexname not in (select conname from pg_constraint where conrelid = 'ej_records'::regclass)`,
        )
      ).rows;
      for (const { name } of indexes) await db.query(`drop index ${pg.escapeIdentifier(name)}`);
      const columns = (
        await db.query<{ name: string }>(
          `select column_name as name from information_schema.columns where table_name = 'ej_records' and column_name <> 'id' order by ordinal_position`,
        )
      ).rows.map((c) => c.name);
      const [{ last }] = (await db.query<{ last: string }>('select max(id) as last from ej_records')).rows as [{ last: string }];
      for (let copy = 1; copy <= 9; copy++) {
        const values = columns.map((c) => (c === 'txt_no' ? `txt_no || '-${copy}'` : c));
        await db.query(`insert into ej_records (${columns.join(', ')}) select ${values.join(', ')} from ej_records where id <= $1 order by id`, [last]);
        console.log(`  copy ${copy} of 9 in, ${((Date.now() - started) / 1000).toFixed(0)} s`);
      }
      for (const { definition } of indexes) await db.query(definition);
      await db.query('vacuum analyze ej_records, ej_values, ej_counts, ej_id_blocks');
      const took = `10,000,000 ej_records: ${from}'s 1,000,000 copied nine times in SQL in ${((Date.now() - started) / 1000).toFixed(0)} s`;
      await db.query(`comment on database ${pg.escapeIdentifier(to)} is ${pg.escapeLiteral(took)}`);
    } finally {
      await db.end();
    }
  } finally {
    await admin.end();
  }
}

const sizes = [1_000_000, 10_000_000];
const p95s = new Map<string, number[]>();
for (const size of sizes) {
  if (size === 10_000_000) await growTenfold('ejdesk_bench_1m', 'ejdesk_bench_10m');
  const child = spawnSync(process.execPath, ['--import', 'tsx', new URL('./ej-records.ts', import.meta.url).pathname], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      BENCH_DATABASE_NAME: `ejdesk_bench_${size / 1_000_000}m`,
      BENCH_EJ: String(size),
      BENCH_ONLY: 'shapes',
      BENCH_RACE_SECONDS: '0',
      BENCH_RUNS: process.env.BENCH_RUNS ?? '50',
    },
    maxBuffer: 64 * 1024 * 1024,
  });
  const output = child.stdout.toString();
  process.stdout.write(output);
  if (child.status !== 0) throw new Error(`bench/ej-records.ts at ${size} records failed (${child.status})`);
  // Each table line: the shape's name, then HTTP p50, HTTP p95, DB p50, DB p95.
  for (const line of output.split('\n')) {
    const m = /^(.{50}) +[\d.]+ +([\d.]+) +[\d.]+ +[\d.]+$/.exec(line);
    if (m) p95s.set(m[1]!.trim(), [...(p95s.get(m[1]!.trim()) ?? []), Number(m[2])]);
  }
}
console.log(`\nHTTP p95 (ms) at ${sizes.map((n) => n.toLocaleString('en')).join(' and ')} EJ records\n`);
console.log(`${'request'.padEnd(50)} ${'1M'.padStart(8)} ${'10M'.padStart(8)} ${'ratio'.padStart(6)}`);
for (const [name, [small, large]] of p95s) {
  if (small === undefined || large === undefined) continue;
  console.log(`${name.padEnd(50)} ${small.toFixed(1).padStart(8)} ${large.toFixed(1).padStart(8)} ${(large / small).toFixed(1).padStart(6)}`);
}
