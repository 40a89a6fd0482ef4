// Email monitoring at 1,000,000 emails: every list endpoint and the dashboard count.
import { sql } from 'drizzle-orm';
import { dashboardCounts, listEmails, queryRows, type EmailListFilters } from '@ejdesk/db';
import { openBench, report, type Scenario } from './harness.ts';

const wanted = Number(process.env.BENCH_EMAILS ?? 1_000_000);
const bench = await openBench('emails', wanted, (missing) => ({ emails: missing }));
const db = bench.database.db;

const now = new Date();
const monthNames = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
const monthEnd = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
const weekAgo = new Date(now.getTime() - 7 * 86_400_000).toISOString().slice(0, 10);
const today = now.toISOString().slice(0, 10);
const deep = { page: 10_000, pageSize: 10 };

const list = (name: string, url: string, filters: EmailListFilters, page = { page: 1, pageSize: 10 }): Scenario => ({
  name,
  url,
  direct: () => listEmails(db, filters, page),
});
const all = '/api/scrape/email/to/json/pagination/';
const read = '/api/scrape/ejs/read/email/';
const [{ n: total } = { n: 0 }] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from emails`);
await report(bench, `Email monitoring at ${total.toLocaleString('en')} emails`, [
  {
    name: 'dashboard count (this month)',
    url: `/api/scrape/email/dashboard/count/?date=${now.getUTCFullYear()}-${monthNames[now.getUTCMonth()]}`,
    direct: () => dashboardCounts(db, monthStart, monthEnd),
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
]);
await bench.close();
