// EJ error data at 1,000,000 EJ records: the table with no filter, each filter, all filters together
// and a deep page; then the streamed export of the whole dispute set (time, rows per second, API memory).
import { spawnSync } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { ejOrderFields, listEjRecords, queryRows, type EjFilters, type EjOrder } from '@ejdesk/db';
import { openBench, printFloors, report, type Floor, type Scenario } from './harness.ts';

const wanted = Number(process.env.BENCH_EJ ?? 1_000_000);
const bench = await openBench('ej_records', wanted, (missing) => ({ ej: missing }));
const db = bench.database.db;
const table = '/api/scrape/extract/email/data/pagination/';
const weekFrom = new Date(Date.now() - 60 * 86_400_000).toISOString().slice(0, 10);
const weekTo = new Date(Date.now() - 54 * 86_400_000).toISOString().slice(0, 10);

const scenario = (name: string, query: string, filters: Omit<EjFilters, 'kind'>, page = { page: 1, pageSize: 10 }, order?: EjOrder): Scenario => ({
  name,
  url: `${table}?${query}${order ? `${query ? '&' : ''}ordering=${order.descending ? '-' : ''}${order.field}` : ''}`,
  direct: () => listEjRecords(db, { kind: 'dispute', ...filters }, page, order),
});
type Shape = [name: string, query: string, filters: Omit<EjFilters, 'kind'>];
/** Each filter alone: a narrow value, then broad values matching every dispute record. */
const singleFilters: Shape[] = [
  ['start_date + end_date (a week)', `start_date=${weekFrom}&end_date=${weekTo}`, { startDate: weekFrom, endDate: weekTo }],
  ['atm_id=HRB00123 (exact)', 'atm_id=HRB00123', { atmId: 'HRB00123' }],
  ['atm_id=HRB0012 (part)', 'atm_id=HRB0012', { atmId: 'HRB0012' }],
  ['bank_name=harbor', 'bank_name=harbor', { bankName: 'harbor' }],
  ['card_no=XXXXXX1024', 'card_no=XXXXXX1024', { cardNo: 'XXXXXX1024' }],
  ['mail_subject=APX0012', 'mail_subject=APX0012', { mailSubject: 'APX0012' }],
  ['mail_received_from=orbit', 'mail_received_from=orbit', { mailReceivedFrom: 'orbit' }],
  // Broad values, each matching every dispute record (the shapes that scanned in the DRF race).
  ['atm_id=0 (broad)', 'atm_id=0', { atmId: '0' }],
  ['bank_name=bank (broad)', 'bank_name=bank', { bankName: 'bank' }],
  ['card_no=XXXXXX (broad)', 'card_no=XXXXXX', { cardNo: 'XXXXXX' }],
  ['mail_subject=dispute (broad)', 'mail_subject=dispute', { mailSubject: 'dispute' }],
  ['mail_received_from=example (broad)', 'mail_received_from=example', { mailReceivedFrom: 'example' }],
];
const [{ n: total } = { n: 0 }] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ej_records`);
// BENCH_ONLY=export measures the export alone; BENCH_ONLY=table the table alone; BENCH_ONLY=sorted
// the sorted table alone; BENCH_ONLY=shapes the table's filter shapes alone (bench/scale.ts).
const only = process.env.BENCH_ONLY;
if (only !== 'export' && only !== 'sorted')
  await report(bench, `EJ error table at ${total.toLocaleString('en')} EJ records`, [
    scenario('no filter', '', {}),
    ...singleFilters.map(([name, query, filters]) => scenario(name, query, filters)),
    scenario(
      'all seven filters together',
      `start_date=${weekFrom}&end_date=${weekTo}&atm_id=HRB&bank_name=harbor&card_no=XXXXXX&mail_subject=dispute&mail_received_from=example`,
      { startDate: weekFrom, endDate: weekTo, atmId: 'HRB', bankName: 'harbor', cardNo: 'XXXXXX', mailSubject: 'dispute', mailReceivedFrom: 'example' },
    ),
    scenario('page 10,000', 'page=10000', {}, { page: 10_000, pageSize: 10 }),
  ]);

// Every order a header can ask for, unfiltered and under each filter alone (the aim: p95 under 50 ms).
if (only === 'table' || only === 'sorted' || !only) {
  const orders = ejOrderFields.flatMap((field): EjOrder[] => [
    { field, descending: false },
    { field, descending: true },
  ]);
  const named = (order: EjOrder) => `${order.descending ? '-' : ''}${order.field}`;
  await report(bench, `EJ error table sorted (ordering=...), at ${total.toLocaleString('en')} EJ records`, [
    ...orders.map((order) => scenario(`${named(order)}, no filter`, '', {}, undefined, order)),
    ...orders
      .filter((order) => order.field !== 'id')
      .flatMap((order) => singleFilters.map(([name, query, filters]) => scenario(`${named(order)}, ${name}`, query, filters, undefined, order))),
    ...orders
      .filter((order) => order.field !== 'id')
      .map((order) => scenario(`${named(order)}, page 1,000`, 'page=1000', {}, { page: 1000, pageSize: 10 }, order)),
  ]);
}

// The least each shape that can fall under 300 req/s must read, as plain SQL (p50 of 30 runs): for
// a text filter, finding its values alone (no record read, no page); every dispute's card value (a
// broad card filter alone sums them); the week's page of ids alone; and the records the combined
// shape's date and bank select (its cheapest plan), read with the text columns its other filters check.
if (only !== 'export' && only !== 'sorted' && only !== 'shapes') {
  const values = (field: string, text: string) => sql`select sum(n) from ej_values where kind = 'dispute' and field = ${field} and folded like ${`%${text}%`}`;
  const floors: Floor[] = [
    ['atm_id=HRB00123: the ATM values holding it, found', values('atm_id', 'hrb00123')],
    ['atm_id=HRB0012: the ATM values holding it, found', values('atm_id', 'hrb0012')],
    ['atm_id=0: every ATM value read, no match test', sql`select sum(n) from ej_values where kind = 'dispute' and field = 'atm_id'`],
    [
      'card_no XXXXXX1024: the card values holding 1024, found',
      sql`select sum(n) from ej_values where kind = 'dispute' and field = 'card_no' and translate(folded, 'x*', '') like '%1024%'`,
    ],
    ['mail_subject=APX0012: the subject values holding it, found', values('mail_subject', 'apx0012')],
    [
      "a week: the page's 10 ids alone, by the date index",
      sql`select id from ej_records where kind = 'dispute' and transaction_date between ${weekFrom} and ${weekTo} order by id desc limit 10`,
    ],
    ['card_no broad: every card value read, no match test', sql`select sum(n) from ej_values where kind = 'dispute' and field = 'card_no'`],
    ['mail_subject broad: every subject value read, no match test', sql`select sum(n) from ej_values where kind = 'dispute' and field = 'mail_subject'`],
    [
      "all seven: the week's harbor records, read with their text columns",
      sql`select count(*) from ej_records where kind = 'dispute' and transaction_date between ${weekFrom} and ${weekTo}
          and bank_name ilike '%harbor%' and num_nonnulls(atm_id, card_no, mail_subject, mail_received_from) >= 0`,
    ],
  ];
  await printFloors(db, floors);
}

// The export of the whole dispute set, each format in a process of its own (bench/export.ts), so
// that its memory is that export's alone.
const exporting = only !== 'table' && only !== 'sorted' && only !== 'shapes';
if (exporting) console.log("\nStreamed export of every dispute record (rows per second; the API process's peak RSS above its idle RSS)\n");
for (const format of exporting ? ['csv', 'xlsx'] : []) {
  const child = spawnSync(process.execPath, ['--import', 'tsx', new URL('./export.ts', import.meta.url).pathname, format], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  process.stdout.write(
    child.stdout
      .toString()
      .split('\n')
      .filter((l) => /^(CSV|XLSX)/.test(l))
      .join('\n') + '\n',
  );
}
await bench.close();
