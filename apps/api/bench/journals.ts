// Journal evidence at 10,000,000 journal transactions: matching a dispute, the Journals list with
// each filter, a dispute's page with its excerpt, and the verdict filter on the EJ table (the aim:
// each p95 under 50 ms). Its own database, ejdesk_bench_journals (made once, reused after):
// - 200,000 EJ records from the seed generator, for the EJ table's other rows;
// - real journals from the independent generator (tools/journal-gen/ejgen.py), received as mail
//   would bring them, and a dispute for a sample of their withdrawals, matched by the desk;
// - 1,000 ATMs x 30 days of journals grown in SQL to 10,000,000 transactions in all (their files
//   are not kept: only the real journals' excerpts are read), with disputes for 50,000 of them.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { dayIn, disputeEvidence, listEjRecords, listJournals, matchDisputes, queryRows, receiveJournal, type Db, type JournalFilters } from '@ejdesk/db';
import { measure, openBench, report, runs } from './harness.ts';

process.env.BENCH_DATABASE_NAME ??= 'ejdesk_bench_journals';
const records = Number(process.env.BENCH_EJ ?? 200_000);
const transactions = 10_000_000;
const atms = 1_000;
const days = 30;
const bench = await openBench('ej_records', records, (missing) => ({ ej: missing }));
const db = bench.database.db;
const today = dayIn('Asia/Kolkata');
const count = async (query: ReturnType<typeof sql>) => (await queryRows<{ n: number }>(db, query))[0]!.n;
const seconds = (started: number) => `${((Date.now() - started) / 1000).toFixed(0)} s`;

/** Disputes (a complaint's EJ record each) for these journal transactions; the records added. */
async function complain(where: ReturnType<typeof sql>): Promise<number> {
  const added = await queryRows<{ n: number }>(
    db,
    sql`with added as (
          insert into ej_records (kind, atm_id, card_no, txt_no, transaction_date, transaction_amt, dispute_amt, bank_name, mail_received_from, mail_subject)
          select 'dispute', t.atm_id, '4111XXXXXXXX' || t.card_last4, coalesce(t.rrn, t.stan, t.serial), t.day, t.requested_amount, t.requested_amount,
                 'Bench Bank', 'complaints@bench.example', 'Bench complaints'
          from journal_transactions t where ${where} and t.card_last4 is not null and coalesce(t.rrn, t.stan, t.serial) is not null
            and not exists (select 1 from ej_records r where r.atm_id = t.atm_id and r.txt_no = coalesce(t.rrn, t.stan, t.serial))
          returning 1)
        select count(*)::int as n from added`,
  );
  // As the ingester and the seed do: each new dispute record joins (or opens) its dispute.
  await db.execute(sql`select dispute_records_link(null)`);
  return added[0]!.n;
}

/** The bench's disputes without evidence yet, matched by the desk 5,000 at a time; how many. */
async function matchAll(): Promise<number> {
  const waiting = await queryRows<{ id: number }>(
    db,
    sql`select distinct l.dispute_id::int as id from ej_records r join dispute_records l on l.record_id = r.id
        where r.bank_name = 'Bench Bank' and not exists (select 1 from dispute_evidence e where e.dispute_id = l.dispute_id)`,
  );
  for (let i = 0; i < waiting.length; i += 5_000) await matchDisputes(db, { disputeIds: waiting.slice(i, i + 5_000).map((d) => d.id) });
  return waiting.length;
}

const journalsUrl = '/api/journals/';
const list = (name: string, query: string, filters: JournalFilters) => ({
  name,
  url: `${journalsUrl}?${query}`,
  direct: () => listJournals(db, { page: 1, pageSize: 10, ...filters }),
});
/** The Journals list with each filter (bench/scale.ts runs it alone on its journals: BENCH_ONLY=list). */
const journalsList = () =>
  report(bench, 'The Journals list (GET /api/journals/), with each filter', [
    list('no filter', '', {}),
    list('atm_id=BNC00042', 'atm_id=BNC00042', { atmId: 'BNC00042' }),
    list('atm_id=BNC004 (part)', 'atm_id=BNC004', { atmId: 'BNC004' }),
    list('day=2026-10-15', 'day=2026-10-15', { day: '2026-10-15' }),
    list('a week of days', 'day_from=2026-10-10&day_to=2026-10-16', { dayFrom: '2026-10-10', dayTo: '2026-10-16' }),
    list('anomaly=dispense_failure', 'anomaly=dispense_failure', { anomaly: 'dispense_failure' }),
    list('family=hyosung', 'family=hyosung', { family: 'hyosung' }),
    list('atm_id + anomaly', 'atm_id=BNC00042&anomaly=dispense_failure', { atmId: 'BNC00042', anomaly: 'dispense_failure' }),
  ]);
if (process.env.BENCH_ONLY === 'list') {
  await journalsList();
  await bench.close();
  process.exit(0);
}

// Each step once (a later run, or one after a failure, goes on from the first step not done).
if ((await count(sql`select count(*)::int as n from journals where atm_id not like 'BNC%'`)) === 0) {
  // The real journals: every family, every verdict, as the generator prints them.
  const started = Date.now();
  const out = mkdtempSync(join(tmpdir(), 'ejdesk-bench-journals-'));
  execFileSync('python3', [
    new URL('../../../tools/journal-gen/ejgen.py', import.meta.url).pathname,
    '--out',
    out,
    '--seed',
    '7',
    '--family',
    'all',
    '--atms',
    '5',
    '--days',
    '4',
  ]);
  let received = 0;
  for (const name of readdirSync(out).filter((n) => n !== 'manifest.json' && !n.endsWith('.eml'))) {
    const answer = await receiveJournal(db, { bytes: readFileSync(join(out, name)), fileName: name, source: 'folder' });
    if ('journal' in answer) received++;
  }
  rmSync(out, { recursive: true, force: true });
  console.log(`${received} generated journals received in ${seconds(started)}`);
}
if ((await count(sql`select count(*)::int as n from ej_records where bank_name = 'Bench Bank' and atm_id not like 'BNC%'`)) === 0) {
  const started = Date.now();
  const real = await complain(sql`t.kind = 'withdrawal' and t.id % 3 = 0 and t.atm_id not like 'BNC%'`);
  console.log(`${real} of the generated journals' withdrawals disputed in ${seconds(started)}`);
}
if ((await count(sql`select count(*)::int as n from journals where atm_id like 'BNC%'`)) === 0) {
  // The rest grown in SQL, indexes dropped for the load and built again after (as a bulk load does).
  const started = Date.now();
  const perJournal = Math.ceil(transactions / (atms * days));
  await db.execute(sql`set maintenance_work_mem = '512MB'`);
  const indexes = await queryRows<{ name: string; definition: string }>(
    db,
    // Not the key's (a constraint): the table's month partitions carry every index of it.
    sql`select indexname as name, indexdef as definition from pg_indexes
        where tablename = 'journal_transactions' and indexname not in (select conname from pg_constraint where conrelid = 'journal_transactions'::regclass)`,
  );
  for (const { name } of indexes) await db.execute(sql.raw(`drop index ${name}`));
  await db.execute(sql`
    insert into journals (sha256, file_name, atm_id, day, family, line_count, size_bytes, transactions, anomalies, anomaly_kinds, source)
    select md5('bench' || a || '-' || d) || md5('journal' || a || '-' || d), 'EJ_BNC' || lpad(a::text, 5, '0') || '_' || to_char(date '2026-10-01' + d, 'YYYYMMDD') || '.txt',
           'BNC' || lpad(a::text, 5, '0'), date '2026-10-01' + d, (array['ncr', 'diebold', 'hyosung'])[1 + a % 3], ${perJournal * 22}, ${perJournal * 600}, ${perJournal},
           case when (a + d) % 7 = 0 then '[{"line": 120, "kind": "dispense_failure", "text": "UNABLE TO DISPENSE"}]'::jsonb else '[]'::jsonb end,
           case when (a + d) % 7 = 0 then array['dispense_failure'] when (a + d) % 11 = 0 then array['restart'] else '{}'::text[] end,
           'mail'
    from generate_series(1, ${atms}) a, generate_series(0, ${days - 1}) d`);
  for (let part = 0; part < 10; part++) {
    await db.execute(sql`
      insert into journal_transactions (journal_id, seq, kind, atm_id, at, day, card_last4, rrn, stan, serial, response_code, requested_amount,
                                        presented, dispensed_amount, verdict, reason, line_from, line_to, evidence)
      select j.id, s, case when s % 9 = 0 then 'other' else 'withdrawal' end, j.atm_id, j.day + s * interval '4 minutes', j.day,
             lpad(((j.id * 7919 + s * 104729) % 10000)::text, 4, '0'), (600000000000 + j.id * 1000 + s)::text, lpad(((j.id * 1000 + s) % 1000000)::text, 6, '0'),
             s::text, '000', (s % 10 + 1) * 500, array[0, s % 10 + 1, 0, 0],
             case when s % 50 in (1, 2) then 0 else (s % 10 + 1) * 500 end,
             case when s % 9 = 0 then null when s % 50 = 1 then 'not_dispensed' when s % 50 = 2 then 'retracted' else 'dispensed' end,
             '', s * 22, s * 22 + 21, array[s * 22 + 12]
      from journals j, generate_series(1, ${perJournal}) s
      where j.atm_id like 'BNC%' and j.id % 10 = ${part}`);
    console.log(`  journal transactions: part ${part + 1} of 10 in, ${seconds(started)}`);
  }
  // A partitioned table's index reads "ON ONLY" (the parent alone): built again on every partition.
  for (const { definition } of indexes) await db.execute(sql.raw(definition.replace(' ON ONLY ', ' ON ')));
  await db.execute(sql`vacuum analyze journals, journal_transactions`);
  console.log(`journals grown in SQL to ${transactions.toLocaleString('en')} transactions in ${seconds(started)}`);
}
if ((await count(sql`select count(*)::int as n from ej_records where atm_id like 'BNC%'`)) === 0) {
  const started = Date.now();
  const grown = await complain(sql`t.atm_id like 'BNC%' and t.kind = 'withdrawal' and t.id % 200 = 0`);
  console.log(`${grown} of the grown journals' withdrawals disputed in ${seconds(started)}`);
}
{
  const started = Date.now();
  const matched = await matchAll();
  if (matched) {
    await db.execute(sql`vacuum analyze ej_records, dispute_records, disputes, dispute_evidence`);
    console.log(`${matched} disputes matched to their journals in ${seconds(started)}`);
  }
}

const [sizes] = await queryRows<{ journals: number; transactions: number; disputes: number; evidence: number }>(
  db,
  sql`select (select count(*)::int from journals) as journals, (select count(*)::int from journal_transactions) as transactions,
        (select count(*)::int from disputes) as disputes, (select count(*)::int from dispute_evidence where verdict is not null) as evidence`,
);
console.log(
  `${sizes!.journals.toLocaleString('en')} journals, ${sizes!.transactions.toLocaleString('en')} journal transactions, ` +
    `${sizes!.disputes.toLocaleString('en')} disputes, ${sizes!.evidence.toLocaleString('en')} with a verdict`,
);

/** A dispute matched to a real journal (its page reads the journal's pages) and one to a grown one. */
const pick = async (where: ReturnType<typeof sql>) =>
  (
    await queryRows<{ id: number }>(
      db,
      sql`select e.dispute_id::int as id from dispute_evidence e join journal_transactions t on t.id = e.transaction_id
          join journals j on j.id = t.journal_id where ${where} order by e.dispute_id limit 1`,
    )
  )[0]!.id;
const realDispute = await pick(sql`j.atm_id not like 'BNC%' and e.verdict = 'not_dispensed'`);
const grownDispute = await pick(sql`j.atm_id like 'BNC%'`);

// Matching has no route of its own (a journal's arrival and a complaint's run it): timed directly.
console.log(`\nMatching one dispute to its transaction among ${sizes!.transactions.toLocaleString('en')}, ${runs} runs each (ms)\n`);
for (const [name, id] of [
  ['a dispute of a generated journal', realDispute],
  ['a dispute of a grown journal', grownDispute],
] as const) {
  const t = await measure(() => matchDisputes(db as Db, { disputeIds: [id] }));
  console.log(`${name.padEnd(50)} p50 ${t.p50.toFixed(1).padStart(6)}  p95 ${t.p95.toFixed(1).padStart(6)}`);
}

await journalsList();

await report(bench, 'A dispute’s page with its journal excerpt (GET /api/disputes/{id}/)', [
  { name: 'a dispute of a generated journal', url: `/api/disputes/${realDispute}/`, direct: () => disputeEvidence(db, realDispute) },
  { name: 'a dispute of a grown journal', url: `/api/disputes/${grownDispute}/`, direct: () => disputeEvidence(db, grownDispute) },
]);

const table = '/api/scrape/extract/email/data/pagination/';
await report(
  bench,
  'The verdict filter on the EJ table (GET /api/scrape/extract/email/data/pagination/?verdict=...)',
  (['not_dispensed', 'retracted', 'dispensed', 'partial', 'indeterminate'] as const).map((verdict) => ({
    name: `verdict=${verdict}`,
    url: `${table}?verdict=${verdict}`,
    direct: () => listEjRecords(db, { kind: 'dispute', today, verdict }, { page: 1, pageSize: 10 }),
  })),
);
await bench.close();
