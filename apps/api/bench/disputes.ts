// The dispute desk at 1,000,000 EJ records (about 800,000 dispute records): each turnaround quick
// filter and both clock orders, alone and with the table's other filters, and the dashboard's
// ageing card, over real HTTP beside the same query run directly (the aim: p95 under 50 ms).
// The seed leaves every dispute open: once, the disputes of transactions more than 30 days old
// are resolved in one bulk change, as a desk that keeps up would have them (and the time that
// change takes is printed).
import { dayIn, disputeAgeing, listEjRecords, queryRows, setDisputeStatus, type EjFilters, type EjOrder, type TatFilter } from '@ejdesk/db';
import { sql } from 'drizzle-orm';
import { openBench, report, type Scenario } from './harness.ts';

const wanted = Number(process.env.BENCH_EJ ?? 1_000_000);
const bench = await openBench('ej_records', wanted, (missing) => ({ ej: missing }));
const db = bench.database.db;
const table = '/api/scrape/extract/email/data/pagination/';
const today = dayIn('Asia/Kolkata');
const weekFrom = new Date(Date.now() - 60 * 86_400_000).toISOString().slice(0, 10);
const weekTo = new Date(Date.now() - 54 * 86_400_000).toISOString().slice(0, 10);

const scenario = (name: string, query: string, filters: Omit<EjFilters, 'kind' | 'today'>, order?: EjOrder): Scenario => ({
  name,
  url: `${table}?${query}${order ? `${query ? '&' : ''}ordering=${order.descending ? '-' : ''}${order.field}` : ''}`,
  direct: () => listEjRecords(db, { kind: 'dispute', today, ...filters }, { page: 1, pageSize: 10 }, order),
});

const [{ resolved } = { resolved: 0 }] = await queryRows<{ resolved: number }>(
  db,
  sql`select count(*)::int as resolved from disputes where status = 'resolved'`,
);
if (resolved === 0) {
  const [desk] = await queryRows<{ id: number; email: string }>(db, sql`select id, email from users order by id limit 1`);
  const started = Date.now();
  const { ids: changed } = await setDisputeStatus(
    db,
    { where: sql`select id from disputes where transaction_date < ${today}::date - 30` },
    { status: 'resolved', outcome: 'credited', note: 'bench: the desk kept up' },
    desk!,
    today,
  );
  console.log(`${changed.length.toLocaleString('en')} disputes resolved in one bulk change in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await db.execute(sql`vacuum analyze disputes, dispute_records, dispute_counts`);
}

const [counts] = await queryRows<Record<string, number>>(
  db,
  sql`select count(*)::int as disputes, count(*) filter (where status <> 'resolved')::int as open,
        count(*) filter (where status <> 'resolved' and due_date < ${today}::date)::int as breached from disputes`,
);
console.log(
  `${counts!.disputes!.toLocaleString('en')} disputes: ${counts!.open!.toLocaleString('en')} open, ${counts!.breached!.toLocaleString('en')} breached (${today})`,
);

const tats: TatFilter[] = ['open', 'breached', 'due_today', 'due_soon', 'resolved'];
const others: [name: string, query: string, filters: Omit<EjFilters, 'kind' | 'today'>][] = [
  ['bank_name=harbor', 'bank_name=harbor', { bankName: 'harbor' }],
  ['a week of transactions', `start_date=${weekFrom}&end_date=${weekTo}`, { startDate: weekFrom, endDate: weekTo }],
  ['atm_id=HRB0012 (part)', 'atm_id=HRB0012', { atmId: 'HRB0012' }],
];
await report(bench, 'Turnaround quick filters (tat=...), alone and with another filter', [
  ...tats.map((tat) => scenario(`tat=${tat}`, `tat=${tat}`, { tat })),
  ...tats.flatMap((tat) => others.map(([name, query, filters]) => scenario(`tat=${tat} + ${name}`, `tat=${tat}&${query}`, { tat, ...filters }))),
  scenario('tat=open + age 3-5 days', 'tat=open&age_from=3&age_to=5', { tat: 'open', ageFrom: 3, ageTo: 5 }),
]);

const orders: EjOrder[] = (['due_date', 'next_deadline', 'penalty'] as const).flatMap((field) => [
  { field, descending: false },
  { field, descending: true },
]);
const named = (order: EjOrder) => `${order.descending ? '-' : ''}${order.field}`;
await report(bench, 'The clock orders (ordering=due_date, penalty), alone and with filters', [
  ...orders.map((order) => scenario(named(order), '', {}, order)),
  ...orders.map((order) => scenario(`${named(order)} + tat=breached`, 'tat=breached', { tat: 'breached' }, order)),
  ...orders.map((order) => scenario(`${named(order)} + bank_name=harbor`, 'bank_name=harbor', { bankName: 'harbor' }, order)),
]);

// The table's orders by Complaint Date and MSP RefNo., each from its own index (kind, column, id).
const newer: EjOrder[] = (['complaint_date', 'msp_ref_no'] as const).flatMap((field) => [
  { field, descending: false },
  { field, descending: true },
]);
await report(bench, 'The orders by Complaint Date and MSP RefNo. (ordering=complaint_date, msp_ref_no), alone and with filters', [
  ...newer.map((order) => scenario(named(order), '', {}, order)),
  ...newer.flatMap((order) => others.map(([name, query, filters]) => scenario(`${named(order)} + ${name}`, query, filters, order))),
  ...newer.map((order) => scenario(`${named(order)} + mail_received_from=orbit`, 'mail_received_from=orbit', { mailReceivedFrom: 'orbit' }, order)),
  ...newer.map((order) => scenario(`${named(order)} + tat=open`, 'tat=open', { tat: 'open' }, order)),
]);

const month = (offset: number) => {
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() - offset, 1);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0));
  return {
    api: `${d.getUTCFullYear()}-${d.toLocaleString('en', { month: 'short', timeZone: 'UTC' })}`,
    from: d.toISOString().slice(0, 10),
    to: last.toISOString().slice(0, 10),
  };
};
await report(
  bench,
  'The dashboard’s ageing card (GET /api/disputes/ageing/)',
  [0, 1, 6].map((offset) => {
    const m = month(offset);
    return { name: `date=${m.api}`, url: `/api/disputes/ageing/?date=${m.api}`, direct: () => disputeAgeing(db, m.from, m.to, today) };
  }),
);
await bench.close();
