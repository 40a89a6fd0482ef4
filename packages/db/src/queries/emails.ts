// Scraped emails: the dashboard counts of a month, the email lists (all-email and the seven
// categories share one query), the JSON data and an email's details.
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { emails, type EmailCategory } from '../schema.ts';
import { containsText, withinDays, type Page, type PageOf } from './filters.ts';

export interface DashboardCounts {
  total_emails: number;
  read: number;
  unread: number;
  email_ignores: number;
  ej_not_found: number;
  email_same_subject_processing: number;
  email_same_subject_count: number;
}

/** Counts of the emails received in [from, to); one index-only range scan. */
export async function dashboardCounts(db: Db, from: Date, to: Date): Promise<DashboardCounts> {
  const n = (condition: SQL) => sql<number>`(count(*) filter (where ${condition}))::int`;
  const [row] = await db
    .select({
      read: n(sql`${emails.isRead}`),
      unread: n(sql`not ${emails.isRead}`),
      email_ignores: n(eq(emails.category, 'ignored')),
      ej_not_found: n(eq(emails.category, 'ej_not_found')),
      email_same_subject_processing: n(eq(emails.category, 'same_subject_processing')),
      email_same_subject_count: n(eq(emails.category, 'same_subject')),
    })
    .from(emails)
    .where(and(sql`${emails.receivedAt} >= ${from}`, sql`${emails.receivedAt} < ${to}`));
  const counts = row ?? { read: 0, unread: 0, email_ignores: 0, ej_not_found: 0, email_same_subject_processing: 0, email_same_subject_count: 0 };
  return { total_emails: counts.read + counts.unread, ...counts };
}

/** Which emails a list shows: a category, the read flag, or all. */
export type EmailSelection = { category: EmailCategory } | { isRead: boolean } | 'all';

export interface EmailListFilters {
  selection: EmailSelection;
  subject?: string | undefined;
  emailFrom?: string | undefined;
  createdFrom?: string | undefined;
  createdTo?: string | undefined;
}

export interface EmailListRow {
  id: number;
  email_from: string;
  subject_name: string;
  create_at: Date;
  update_at: Date;
}

function emailConditions(filters: EmailListFilters): SQL | undefined {
  const { selection } = filters;
  return and(
    selection === 'all' ? undefined : 'category' in selection ? eq(emails.category, selection.category) : eq(emails.isRead, selection.isRead),
    containsText(emails.subject, filters.subject),
    containsText(emails.emailFrom, filters.emailFrom),
    withinDays(emails.createAt, filters.createdFrom, filters.createdTo),
  );
}

export async function listEmails(db: Db, filters: EmailListFilters, page: Page): Promise<PageOf<EmailListRow>> {
  const where = emailConditions(filters);
  const [total] = await db.select({ count: count() }).from(emails).where(where);
  // Page through ids alone (an index-only walk), then read the rows of that page.
  const ids = db
    .select({ id: emails.id })
    .from(emails)
    .where(where)
    .orderBy(desc(emails.createAt), desc(emails.id))
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize)
    .as('page_ids');
  const rows = await db
    .select({
      id: emails.id,
      email_from: emails.emailFrom,
      subject_name: emails.subject,
      create_at: emails.createAt,
      update_at: emails.updateAt,
    })
    .from(emails)
    .innerJoin(ids, eq(emails.id, ids.id))
    .orderBy(desc(emails.createAt), desc(emails.id));
  return { count: total?.count ?? 0, rows };
}

export interface EmailJsonItem {
  id: number;
  subject_name: string;
  json_load_data: Record<string, unknown>[];
}

const jsonColumns = { id: emails.id, subject_name: emails.subject, json_load_data: emails.jsonLoadData };

/** The JSON data of the newest emails (a bounded sample: the table is built in the browser). */
export async function listEmailJsonData(db: Db, limit: number): Promise<EmailJsonItem[]> {
  return db.select(jsonColumns).from(emails).orderBy(desc(emails.createAt), desc(emails.id)).limit(limit);
}

export async function findEmailJsonData(db: Db, id: number): Promise<EmailJsonItem | undefined> {
  const [row] = await db.select(jsonColumns).from(emails).where(eq(emails.id, id));
  return row;
}

export async function findEmailDetails(db: Db, id: number) {
  const [row] = await db
    .select({
      id: emails.id,
      from_email: emails.emailFrom,
      to_email: emails.emailTo,
      subject: emails.subject,
      email_body: emails.emailBody,
      email_body_html: emails.emailBodyHtml,
      num_of_email: emails.numOfEmail,
      date_time_of_email: emails.receivedAt,
      create_at: emails.createAt,
      update_at: emails.updateAt,
    })
    .from(emails)
    .where(eq(emails.id, id));
  return row;
}
