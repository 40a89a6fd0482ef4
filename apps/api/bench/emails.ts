// Email monitoring at 1,000,000 emails: every list endpoint and the dashboard count.
import { sql } from 'drizzle-orm';
import { dashboardCounts, listEmails, queryRows, type EmailListFilters, type EmailOrder } from '@ejdesk/db';
import { categoryLists } from '../src/routes/emails/index.ts';
import { openBench, printFloors, report, type Scenario } from './harness.ts';

const wanted = Number(process.env.BENCH_EMAILS ?? 1_000_000);
const bench = await openBench('emails', wanted, (missing) => ({ emails: missing }));
const db = bench.database.db;

const now = new Date();
const monthNames = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
const monthEnd = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
const weekAgo = new Date(now.getTime() - 7 * 86_400_000).toISOString().slice(0, 10);
const today = now.toISOString().slice(0, 10);
// The deep pages (bench/scale.ts asks for shallower ones: its emails are a tenth of its records).
const deep = { page: Number(process.env.BENCH_EMAIL_PAGE ?? 10_000), pageSize: 10 };
const categoryPage = Number(process.env.BENCH_CATEGORY_PAGE ?? 5_000);

const list = (name: string, url: string, filters: EmailListFilters, page = { page: 1, pageSize: 10 }, order: EmailOrder = 'newest'): Scenario => ({
  name,
  url,
  direct: () => listEmails(db, filters, page, order),
});
const apiMonth = `${now.getUTCFullYear()}-${monthNames[now.getUTCMonth()]}`;
const thisMonth = { from: monthStart, to: monthEnd };
const all = '/api/scrape/email/to/json/pagination/';
const [{ n: total } = { n: 0 }] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from emails`);
// Oldest first (ordering=create_at) unfiltered and with each single filter, and the dashboard's
// month on the lists it opens. BENCH_ONLY=sorted runs these alone.
const sorted: Scenario[] = [
  list('all-email, oldest first', `${all}?ordering=create_at`, { selection: 'all' }, undefined, 'oldest'),
  list(
    'all-email, oldest, subject_name=APX00123',
    `${all}?ordering=create_at&subject_name=APX00123`,
    { selection: 'all', subject: 'APX00123' },
    undefined,
    'oldest',
  ),
  list(
    'all-email, oldest, subject_name=dispute (broad)',
    `${all}?ordering=create_at&subject_name=dispute`,
    { selection: 'all', subject: 'dispute' },
    undefined,
    'oldest',
  ),
  list(
    'all-email, oldest, email_from=harborbank',
    `${all}?ordering=create_at&email_from=harborbank`,
    { selection: 'all', emailFrom: 'harborbank' },
    undefined,
    'oldest',
  ),
  list(
    'all-email, oldest, last week',
    `${all}?ordering=create_at&create_at_after=${weekAgo}&create_at_before=${today}`,
    { selection: 'all', createdFrom: weekAgo, createdTo: today },
    undefined,
    'oldest',
  ),
  list(
    'all-email, oldest, this month received',
    `${all}?ordering=create_at&month=${apiMonth}`,
    { selection: 'all', receivedIn: thisMonth },
    undefined,
    'oldest',
  ),
  list(`all-email, oldest, page ${deep.page.toLocaleString('en')}`, `${all}?ordering=create_at&page=${deep.page}`, { selection: 'all' }, deep, 'oldest'),
  list(
    'not found email, oldest first',
    '/api/scrape/ejs/not/found/email/?ordering=create_at',
    { selection: { category: 'ej_not_found' } },
    undefined,
    'oldest',
  ),
  list('not found email, this month received', `/api/scrape/ejs/not/found/email/?month=${apiMonth}`, {
    selection: { category: 'ej_not_found' },
    receivedIn: thisMonth,
  }),
  list('all-email, this month received, email_from=harborbank', `${all}?month=${apiMonth}&email_from=harborbank`, {
    selection: 'all',
    emailFrom: 'harborbank',
    receivedIn: thisMonth,
  }),
  // By Last Update (ordering=update_at), both ways, alone, with each single filter, deep, and on a category.
  ...[false, true].flatMap((descending) => {
    const ordering = `${descending ? '-' : ''}update_at`;
    const order: EmailOrder = { field: 'update_at', descending };
    return [
      list(`all-email, ${ordering}`, `${all}?ordering=${ordering}`, { selection: 'all' }, undefined, order),
      list(
        `all-email, ${ordering}, subject_name=APX00123`,
        `${all}?ordering=${ordering}&subject_name=APX00123`,
        { selection: 'all', subject: 'APX00123' },
        undefined,
        order,
      ),
      list(
        `all-email, ${ordering}, subject_name=dispute (broad)`,
        `${all}?ordering=${ordering}&subject_name=dispute`,
        { selection: 'all', subject: 'dispute' },
        undefined,
        order,
      ),
      list(
        `all-email, ${ordering}, email_from=harborbank`,
        `${all}?ordering=${ordering}&email_from=harborbank`,
        { selection: 'all', emailFrom: 'harborbank' },
        undefined,
        order,
      ),
      list(
        `all-email, ${ordering}, last week`,
        `${all}?ordering=${ordering}&create_at_after=${weekAgo}&create_at_before=${today}`,
        { selection: 'all', createdFrom: weekAgo, createdTo: today },
        undefined,
        order,
      ),
      list(
        `all-email, ${ordering}, page ${deep.page.toLocaleString('en')}`,
        `${all}?ordering=${ordering}&page=${deep.page}`,
        { selection: 'all' },
        deep,
        order,
      ),
      list(`unread email, ${ordering}`, `/api/scrape/ejs/un/read/email/?ordering=${ordering}`, { selection: { isRead: false } }, undefined, order),
    ];
  }),
];
if (process.env.BENCH_ONLY === 'sorted') {
  await report(bench, `Email lists sorted, and by received month, at ${total.toLocaleString('en')} emails`, sorted);
  await bench.close();
  process.exit(0);
}
await report(bench, `Email monitoring at ${total.toLocaleString('en')} emails`, [
  {
    name: 'dashboard count (this month)',
    url: `/api/scrape/email/dashboard/count/?date=${now.getUTCFullYear()}-${monthNames[now.getUTCMonth()]}`,
    direct: () => dashboardCounts(db, monthStart, monthEnd),
  },
  list('all-email, no filter', all, { selection: 'all' }),
  list('all-email, subject_name=APX00123', `${all}?subject_name=APX00123`, { selection: 'all', subject: 'APX00123' }),
  list('all-email, email_from=harborbank', `${all}?email_from=harborbank`, { selection: 'all', emailFrom: 'harborbank' }),
  // Broad values (matching most emails): measured beside the selective ones above.
  list('all-email, subject_name=dispute (broad)', `${all}?subject_name=dispute`, { selection: 'all', subject: 'dispute' }),
  list('all-email, email_from=example (broad)', `${all}?email_from=example`, { selection: 'all', emailFrom: 'example' }),
  list('all-email, created in the last week', `${all}?create_at_after=${weekAgo}&create_at_before=${today}`, {
    selection: 'all',
    createdFrom: weekAgo,
    createdTo: today,
  }),
  list(`all-email, page ${deep.page.toLocaleString('en')}`, `${all}?page=${deep.page}`, { selection: 'all' }, deep),
  // The seven category lists: no filter, each filter, a deep page (as deep as each list goes).
  ...categoryLists.flatMap(([path, selection]) => {
    const url = `/api/scrape${path}`;
    const name = path
      .replaceAll('/', ' ')
      .replace(/^ ejs /, '')
      .trim();
    return [
      list(`${name}`, url, { selection }),
      list(`${name}, subject=HRB00042`, `${url}?subject=HRB00042`, { selection, subject: 'HRB00042' }),
      list(`${name}, date=today`, `${url}?date=${today}`, { selection, createdFrom: today, createdTo: today }),
      list(`${name}, page ${categoryPage.toLocaleString('en')}`, `${url}?page=${categoryPage}`, { selection }, { page: categoryPage, pageSize: 10 }),
    ];
  }),
  ...sorted,
]);
// A broad subject's count must read every email's subject: the floor is reading them with no match
// test. A selective one must search the trigram index: the floor is that search alone.
await printFloors(db, [
  ['subject broad: every subject read, no match test', sql`select count(folded) from email_subjects`],
  ['subject HRB00042: the trigram search alone, no page', sql`select count(*) from email_subjects where folded like '%hrb00042%'`],
  ['subject APX00123: the trigram search alone, no page', sql`select count(*) from email_subjects where folded like '%apx00123%'`],
]);
await bench.close();
