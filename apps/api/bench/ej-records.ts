// EJ error data at 1,000,000 EJ records: the table with no filter, each filter, all filters together
// and a deep page; then the streamed export of 100,000 rows (time, rows per second, API memory).
import { sql } from 'drizzle-orm';
import { listEjRecords, queryRows, type EjFilters } from '@ejdesk/db';
import { openBench, report, type Scenario } from './harness.ts';

const wanted = Number(process.env.BENCH_EJ ?? 1_000_000);
const bench = await openBench('ej_records', wanted, (missing) => ({ ej: missing }));
const db = bench.database.db;
const table = '/api/scrape/extract/email/data/pagination/';
const weekFrom = new Date(Date.now() - 60 * 86_400_000).toISOString().slice(0, 10);
const weekTo = new Date(Date.now() - 54 * 86_400_000).toISOString().slice(0, 10);

const scenario = (name: string, query: string, filters: Omit<EjFilters, 'kind'>, page = { page: 1, pageSize: 10 }): Scenario => ({
  name,
  url: `${table}?${query}`,
  direct: () => listEjRecords(db, { kind: 'dispute', ...filters }, page),
});
const [{ n: total } = { n: 0 }] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ej_records`);
await report(bench, `EJ error table at ${total.toLocaleString('en')} EJ records`, [
  scenario('no filter', '', {}),
  scenario('start_date + end_date (a week)', `start_date=${weekFrom}&end_date=${weekTo}`, { startDate: weekFrom, endDate: weekTo }),
  scenario('atm_id=HRB00123 (exact)', 'atm_id=HRB00123', { atmId: 'HRB00123' }),
  scenario('atm_id=HRB0012 (part)', 'atm_id=HRB0012', { atmId: 'HRB0012' }),
  scenario('bank_name=harbor', 'bank_name=harbor', { bankName: 'harbor' }),
  scenario('card_no=XXXXXX1024', 'card_no=XXXXXX1024', { cardNo: 'XXXXXX1024' }),
  scenario('mail_subject=APX0012', 'mail_subject=APX0012', { mailSubject: 'APX0012' }),
  scenario('mail_received_from=orbit', 'mail_received_from=orbit', { mailReceivedFrom: 'orbit' }),
  scenario(
    'all seven filters together',
    `start_date=${weekFrom}&end_date=${weekTo}&atm_id=HRB&bank_name=harbor&card_no=XXXXXX&mail_subject=dispute&mail_received_from=example`,
    { startDate: weekFrom, endDate: weekTo, atmId: 'HRB', bankName: 'harbor', cardNo: 'XXXXXX', mailSubject: 'dispute', mailReceivedFrom: 'example' },
  ),
  scenario('page 10,000', 'page=10000', {}, { page: 10_000, pageSize: 10 }),
]);

// The export: the API runs in this process, so its memory is sampled while the file streams.
console.log('\nStreamed export of the overage records (the API process; rows per second; peak RSS above the start)\n');
const [{ n: overage } = { n: 0 }] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ej_records where kind = 'overage'`);
for (const format of ['csv', 'xlsx'] as const) {
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const started = performance.now();
  const response = await fetch(`${bench.base}/api/scrape/extract/export/?kind=overage&format=${format}`, { headers: bench.headers });
  let bytes = 0;
  const reader = response.body!.getReader();
  for (let part = await reader.read(); !part.done; part = await reader.read()) bytes += part.value.length;
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  console.log(
    `${format.toUpperCase().padEnd(5)} ${overage.toLocaleString('en')} rows in ${seconds.toFixed(2)} s = ${Math.round(overage / seconds).toLocaleString('en')} rows/s, ` +
      `${(bytes / 1e6).toFixed(1)} MB, peak RSS +${((peak - before) / 1e6).toFixed(0)} MB`,
  );
}
await bench.close();
