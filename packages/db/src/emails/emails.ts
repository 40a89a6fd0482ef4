// Scraped emails: the dashboard counts of a month, the email lists (all-email and the seven
// categories share one query), the JSON data and an email's details.
import type { DashboardCounts as DashboardCountsSchema } from '@ejdesk/contract/schemas/emails.ts';
import { and, type AnyColumn, asc, desc, eq, gte, inArray, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { Static } from 'typebox';
import { type Db, queryRows } from '../client.ts';
import { type Counting, countRows } from '../counts/index.ts';
import { containsText, foldedContains, isoDay, nextUtcDay, type Page, type PageOf, withinDays } from '../filters.ts';
import { type EmailCategory, emailCounts, emails, emailSenderCounts, emailSubjects, emailSubjectWords, longWord, subjectWords } from './schema.ts';

/** The dashboard's counts as the API answers them (their schema in @ejdesk/contract). */
export type DashboardCounts = Static<typeof DashboardCountsSchema>;

/** Counts of the emails received in [from, to) (UTC days), from the counter rows of those days. */
export async function dashboardCounts(db: Db, from: Date, to: Date): Promise<DashboardCounts> {
  const n = (condition: SQL) => sql<number>`coalesce(sum(${emailCounts.n}) filter (where ${condition}), 0)::bigint`;
  const [row] = await db
    .select({
      read: n(sql`${emailCounts.isRead}`),
      unread: n(sql`not ${emailCounts.isRead}`),
      email_ignores: n(eq(emailCounts.category, 'ignored')),
      ej_not_found: n(eq(emailCounts.category, 'ej_not_found')),
      email_same_subject_processing: n(eq(emailCounts.category, 'same_subject_processing')),
      email_same_subject_count: n(eq(emailCounts.category, 'same_subject')),
    })
    .from(emailCounts)
    .where(and(gte(emailCounts.receivedDay, isoDay(from)), lt(emailCounts.receivedDay, isoDay(to))));
  const counts = Object.fromEntries(Object.entries(row ?? {}).map(([k, v]) => [k, Number(v)])) as Omit<DashboardCounts, 'total_emails'>;
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
  /** Received in [from, to), UTC midnights: a dashboard month, so that its count is the list's total. */
  receivedIn?: { from: Date; to: Date } | undefined;
  /** How a count that reads the emails reads them (counts/counts.ts): the list's bound unless given. */
  counting?: Counting | undefined;
}

export interface EmailListRow {
  id: number;
  email_from: string;
  subject_name: string;
  create_at: Date;
  update_at: Date;
}

function selectionOf(selection: EmailSelection, category: AnyColumn, isRead: AnyColumn): SQL | undefined {
  if (selection === 'all') return undefined;
  return 'category' in selection ? eq(category, selection.category) : eq(isRead, selection.isRead);
}

/**
 * The filters over emails, or over email_subjects when no counter can answer (a subject: its
 * lower-cased copy matched with LIKE, the same match as ILIKE and cheaper per row; or a sender with
 * a month of receipt): only the narrow rows are read.
 */
function emailConditions(filters: EmailListFilters, senders: string[] | null = null) {
  // A sender with a month has no counter either: it is counted on the narrow rows too.
  const narrow = Boolean(filters.subject || (filters.emailFrom && filters.receivedIn));
  const t = narrow ? emailSubjects : emails;
  return {
    table: t as typeof emailSubjects,
    /** Whether the rows are email_subjects' (each matched to its email by id), not the emails'. */
    narrow,
    id: t.id,
    createAt: t.createAt,
    where: and(
      selectionOf(filters.selection, t.category, t.isRead),
      filters.subject ? foldedContains(emailSubjects.folded, filters.subject) : undefined,
      // The senders it matches, when known: equality is far cheaper per row than ILIKE.
      senders ? sql`${t.emailFrom} = any(${sql.param(senders)}::text[])` : containsText(t.emailFrom, filters.emailFrom),
      withinDays(t.createAt, filters.createdFrom, filters.createdTo),
      filters.receivedIn ? and(gte(t.receivedAt, filters.receivedIn.from), lt(t.receivedAt, filters.receivedIn.to)) : undefined,
    ),
  };
}

/**
 * The distinct senders of the counter rows that hold the text, and how many senders there are.
 * The few senders are found by skipping through the primary key (one probe each), and only they
 * are matched: matching every counter row (sender x category x read x day, tens of thousands)
 * with ILIKE cost 18 ms.
 */
async function sendersMatching(db: Db, text: string): Promise<{ matching: string[]; all: number }> {
  const c = emailSenderCounts.emailFrom;
  const [row] = await queryRows<{ matching: string[] | null; all: number }>(
    db,
    sql`with recursive sender(v) as (
          (select ${c} from ${emailSenderCounts} order by ${c} limit 1)
          union all
          select (select ${c} from ${emailSenderCounts} where ${c} > sender.v order by ${c} limit 1) from sender where sender.v is not null)
        select array_agg(v) filter (where ${containsText(sql`v`, text)}) as matching, count(v)::int as all from sender`,
  );
  return { matching: row?.matching ?? [], all: row?.all ?? 0 };
}

/**
 * Where a list's count and day buckets come from: the counter rows when no subject filter applies
 * (per sender when the sender is filtered), or null when only the emails themselves can say.
 */
function counterSource(filters: EmailListFilters, senders: string[] | null) {
  if (filters.subject) return null;
  const bySender = senders !== null;
  // The sender counters have no day of receipt: a sender and a month are counted on email_subjects.
  if (bySender && filters.receivedIn) return null;
  const received = filters.receivedIn;
  const c = bySender ? emailSenderCounts : emailCounts;
  return {
    table: c as typeof emailCounts,
    n: c.n,
    day: c.createdDay,
    where: and(
      selectionOf(filters.selection, c.category, c.isRead),
      bySender ? sql`${emailSenderCounts.emailFrom} = any(${sql.param(senders)}::text[])` : undefined,
      filters.createdFrom ? gte(c.createdDay, filters.createdFrom) : undefined,
      filters.createdTo ? lte(c.createdDay, filters.createdTo) : undefined,
      received ? and(gte(emailCounts.receivedDay, isoDay(received.from)), lt(emailCounts.receivedDay, isoDay(received.to))) : undefined,
    ),
  };
}

/** A subject filter matching at most this many emails is read whole and paged in memory. */
const fewMatches = 1000;

/**
 * A subject within one word goes by the words holding it when they are this few, in fewer emails
 * than this: functions.sql stops counting a word at 5,000 emails, so a count of 5,000 or more
 * says many, not how many.
 */
const fewWords = 64;
const fewWordEmails = 5000;

/**
 * The words of the subjects that hold a subject filter (email_subject_words), with longWord, or
 * null when the filter may span words (anything but letters and digits, as a space or a dash), is
 * too short for trigrams, or is held by too many. Letters and digits lie within one word wherever
 * they match, so the emails of these words are every email that can match: a search reads their
 * posting lists, which grow with its matches, not the trigrams' lists, which grow with the mail.
 */
async function wordsHolding(db: Db, subject: string): Promise<string[] | null> {
  if (!/^[A-Za-z0-9]{3,}$/.test(subject)) return null;
  const words = await queryRows<{ word: string; n: number }>(
    db,
    sql`select ${emailSubjectWords.word} as word, ${emailSubjectWords.n}::float8 as n from ${emailSubjectWords}
        where (${emailSubjectWords.word} like lower(${`%${subject}%`}) or ${emailSubjectWords.word} = ${longWord}) and ${emailSubjectWords.n} > 0
        limit ${fewWords + 1}`,
  );
  if (words.length > fewWords || words.reduce((sum, w) => sum + w.n, 0) >= fewWordEmails) return null;
  return words.map((w) => w.word);
}

/** Below this offset a plain index walk is cheap; beyond it, seek to the right day first. */
const seekFromOffset = 2000;

/**
 * A list's order: by creation time, newest first (the default) or oldest first, or by the last
 * update (Last Update) either way; ties by id the same way.
 */
export type EmailOrder = 'newest' | 'oldest' | { field: 'update_at'; descending: boolean };
const byUpdate = (order: EmailOrder) => typeof order === 'object';
const isDescending = (order: EmailOrder) => (typeof order === 'object' ? order.descending : order === 'newest');

export async function listEmails(db: Db, given: EmailListFilters, page: Page, order: EmailOrder = 'newest'): Promise<PageOf<EmailListRow>> {
  const dir = isDescending(order) ? desc : asc;
  // A sender filter is counted by the senders it matches; one that matches every sender filters nothing.
  let filters = given;
  let senders: string[] | null = null;
  if (filters.emailFrom && !filters.subject) {
    const found = await sendersMatching(db, filters.emailFrom);
    if (found.matching.length === 0) return { count: 0, rows: [] };
    if (found.matching.length === found.all) filters = { ...filters, emailFrom: undefined };
    else senders = found.matching;
  }
  const source = emailConditions(filters, senders);
  const counters = counterSource(filters, senders);
  let total: number;
  let exact = true;
  if (counters) {
    const [row] = await db
      .select({ n: sql<string>`coalesce(sum(${counters.n}), 0)` })
      .from(counters.table)
      .where(counters.where);
    total = Number(row?.n ?? 0);
  } else {
    // No counter holds these filters. A selective one (most subjects lack it) is found once, whole,
    // in order, and paged here: the trigram search is most of its cost, and the count and the page
    // each ran it. Past `fewMatches` the count and the page read it themselves.
    // The last update is the email's own (the narrow rows keep the creation time alone).
    const at = byUpdate(order) ? sql`(select ${emails.updateAt} from ${emails} where ${emails.id} = ${source.id})` : source.createAt;
    // The emails of the words first, under email_subjects' own name, then the filters over them:
    // in one scan the planner would also read the trigrams' lists, the cost the words avoid.
    const words = filters.subject ? await wordsHolding(db, filters.subject) : null;
    const ofWords = words
      ? sql`${emailSubjects} as materialized (select * from ${emailSubjects} where ${subjectWords(emailSubjects.folded)} && ${sql.param(words)}::text[]),`
      : sql``;
    const few = await queryRows<{ id: number }>(
      db,
      sql`with ${ofWords} hit as (select ${source.id} as id, ${at} as at from ${source.table} where ${source.where} limit ${fewMatches + 1})
          select id::float8 as id from hit order by ${isDescending(order) ? sql`at desc, id desc` : sql`at, id`}`,
    );
    if (few.length <= fewMatches) {
      const offset = (page.page - 1) * page.pageSize;
      return {
        count: few.length,
        rows: await rowsOf(
          db,
          few.slice(offset, offset + page.pageSize).map((r) => r.id),
          order,
        ),
      };
    }
    ({ n: total, exact } = await countRows(db, sql`${source.table}`, source.where, ['emails', 'email_subjects'], filters.counting));
  }

  // A deep page: the counter rows say which creation day holds the page's first row, so the index
  // walk starts at that day instead of at the newest (or oldest) email. A month of receipt always
  // seeks: its emails were created in and just after it, far from either end.
  let offset = (page.page - 1) * page.pageSize;
  let bound: SQL | undefined;
  if (counters && !byUpdate(order) && (offset >= seekFromOffset || filters.receivedIn) && offset < total) {
    const days = await db
      .select({ day: counters.day, n: sql<string>`sum(${counters.n})` })
      .from(counters.table)
      .where(counters.where)
      .groupBy(counters.day)
      .orderBy(dir(counters.day));
    let skipped = 0;
    for (const { day, n } of days) {
      if (skipped + Number(n) > offset) {
        bound = isDescending(order) ? lt(source.createAt, nextUtcDay(day)) : gte(source.createAt, new Date(`${day}T00:00:00Z`));
        offset -= skipped;
        break;
      }
      skipped += Number(n);
    }
  }

  if (byUpdate(order)) return { count: total, exact, rows: await updatedPage(db, source, filters, page, dir, offset) };
  // Page through ids alone (an index-only walk), then read the rows of that page.
  const ids = db
    .select({ id: source.id })
    .from(source.table)
    .where(and(source.where, bound))
    .orderBy(dir(source.createAt), dir(source.id))
    .limit(page.pageSize)
    .offset(offset)
    .as('page_ids');
  const rows = await db.select(listColumns).from(emails).innerJoin(ids, eq(emails.id, ids.id)).orderBy(dir(emails.createAt), dir(emails.id));
  return { count: total, exact, rows };
}

/**
 * A page by the last update: the emails' (selection, update_at, id) index walked, each email
 * checked against the filters; over the narrow rows (a subject), each matched to its email. An
 * email is updated no earlier than it was created (both are now() when it is stored; later
 * changes set update_at to now()): a creation bound is an update bound too, so an ascending walk
 * starts there, not at the oldest update (every email before a week ago, for the last week's).
 */
async function updatedPage(db: Db, source: ReturnType<typeof emailConditions>, filters: EmailListFilters, page: Page, dir: typeof desc, offset: number) {
  const { narrow } = source;
  const since = filters.createdFrom ? gte(emails.updateAt, new Date(`${filters.createdFrom}T00:00:00Z`)) : undefined;
  const ids = db
    .select({ id: emails.id })
    .from(emails)
    .where(and(narrow ? sql`exists (select 1 from ${source.table} where ${source.id} = ${emails.id} and ${source.where})` : source.where, since))
    .orderBy(dir(emails.updateAt), dir(emails.id))
    .limit(page.pageSize)
    .offset(offset)
    .as('page_ids');
  return db.select(listColumns).from(emails).innerJoin(ids, eq(emails.id, ids.id)).orderBy(dir(emails.updateAt), dir(emails.id));
}

const listColumns = { id: emails.id, email_from: emails.emailFrom, subject_name: emails.subject, create_at: emails.createAt, update_at: emails.updateAt };

/** The list rows of these emails, in the list's order. */
async function rowsOf(db: Db, ids: number[], order: EmailOrder): Promise<EmailListRow[]> {
  if (ids.length === 0) return [];
  const dir = isDescending(order) ? desc : asc;
  return db
    .select(listColumns)
    .from(emails)
    .where(inArray(emails.id, ids))
    .orderBy(dir(byUpdate(order) ? emails.updateAt : emails.createAt), dir(emails.id));
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
