// The emails the ingester wrote, and the derived tables that count and list them (functions.sql
// keeps those exact).
import { sql, type SQLWrapper } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, date, index, integer, json, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt, inList } from '../columns.ts';

export const emailCategories = ['processed', 'ej_not_found', 'ignored', 'same_subject', 'same_subject_processing'] as const;
export type EmailCategory = (typeof emailCategories)[number];

/** Every mail read: from, to, subject, bodies, received and created times, `category` (ej_not_found, ignored, same_subject, same_subject_processing, processed), read flag, the extracted rows as `json_load_data`. */
export const emails = pgTable(
  'emails',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    messageId: text('message_id'),
    emailFrom: text('email_from').notNull().default(''),
    emailTo: text('email_to').notNull().default(''),
    subject: text('subject').notNull().default(''),
    normalizedSubject: text('normalized_subject').notNull().default(''),
    emailBody: text('email_body').notNull().default(''),
    emailBodyHtml: text('email_body_html').notNull().default(''),
    numOfEmail: integer('num_of_email').notNull().default(1),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    category: text('category').notNull().default('ej_not_found'),
    isRead: boolean('is_read').notNull().default(false),
    // json, not jsonb: the senders' column order is kept (the first record's keys are the columns).
    jsonLoadData: json('json_load_data').$type<Record<string, unknown>[]>().notNull().default([]),
    processingError: text('processing_error'),
    createAt: createdAt(),
    updateAt: updatedAt(),
  },
  (t) => [
    check('emails_category_check', sql`${t.category} in (${inList(emailCategories)})`),
    uniqueIndex('emails_message_id_key').on(t.messageId),
    // Lists are newest first (ORDER BY create_at DESC, id DESC): ascending indexes read backwards
    // serve that order; drizzle's .desc() would add NULLS LAST, which cannot.
    index('emails_create_idx').on(t.createAt, t.id),
    index('emails_category_create_idx').on(t.category, t.createAt, t.id),
    index('emails_read_create_idx').on(t.isRead, t.createAt, t.id),
    // The lists by Last Update (migration 0035): all, a category, read or unread.
    index('emails_update_idx').on(t.updateAt, t.id),
    index('emails_category_update_idx').on(t.category, t.updateAt, t.id),
    index('emails_read_update_idx').on(t.isRead, t.updateAt, t.id),
    // A list filtered by the month of receipt (the dashboard's month) counts that month when the
    // counters cannot (a sender filter as well).
    index('emails_received_idx').on(t.receivedAt, t.id),
    // The recent processing failures (the Mail flow screen): few rows, newest first.
    index('emails_failures_idx')
      .on(t.updateAt, t.id)
      .where(sql`${t.processingError} is not null and ${t.category} = 'ej_not_found'`),
    index('emails_from_trgm_idx').using('gin', sql`${t.emailFrom} gin_trgm_ops`),
  ],
);

/**
 * Emails counted per category, read flag, day of receipt and day of creation (UTC), kept exact by
 * statement-level triggers on emails (their functions: functions.sql). The dashboard and every list count without
 * a text filter read a few hundred of these rows instead of scanning emails, and deep pages use
 * them to seek to the right day.
 */
export const emailCounts = pgTable(
  'email_counts',
  {
    category: text('category').notNull(),
    isRead: boolean('is_read').notNull(),
    receivedDay: date('received_day').notNull(),
    createdDay: date('created_day').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.category, t.isRead, t.receivedDay, t.createdDay] }),
    index('email_counts_received_idx').on(t.receivedDay),
    index('email_counts_created_idx').on(t.createdDay),
  ],
);

/**
 * What a subject filter reads, one narrow row per email (kept by statement triggers on emails,
 * functions.sql): the lower-cased subject and the list columns. A broad subject scans these ~90 MB
 * instead of the emails' 850 MB of bodies; a selective one goes through the trigram index.
 */
export const emailSubjects = pgTable(
  'email_subjects',
  {
    id: bigint('id', { mode: 'number' }).primaryKey(),
    emailFrom: text('email_from').notNull(),
    category: text('category').notNull(),
    isRead: boolean('is_read').notNull(),
    createAt: timestamp('create_at', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    folded: text('folded').notNull(),
  },
  (t) => [
    index('email_subjects_create_idx').on(t.createAt, t.id),
    // A sender with a month of receipt (no counter holds both) reads that month's entries alone:
    // migration 0017 adds INCLUDE (email_from, category, is_read, create_at), as drizzle cannot.
    index('email_subjects_received_idx').on(t.receivedAt, t.id),
    index('email_subjects_folded_trgm_idx').using('gin', sql`${t.folded} gin_trgm_ops`),
    // A subject filter that lies within one word reads the posting lists of the few words that
    // hold it (email_subject_words), not the trigrams' lists, which grow with the mail (0068).
    index('email_subjects_words_idx').using('gin', subjectWords(t.folded)),
  ],
);

/**
 * The word a run of more than 64 letters and digits becomes in subject_words (functions.sql), so
 * that no entry outgrows an index page: a search matches its emails through it too, and checks
 * their subjects.
 */
export const longWord = 'zzlongwordzz';

/** A folded subject's words (functions.sql): its runs of letters and digits, '' where it starts or ends with neither. */
export const subjectWords = (folded: SQLWrapper) => sql`subject_words(${folded})`;

/**
 * Every word of the subjects (subjectWords), with how many emails hold it: a subject filter
 * matches these few tens of thousands through their trigrams, then reads only the emails of the
 * words found. Kept by a statement trigger on email_subjects (functions.sql); a word counted to
 * 5,000 is many and no longer counted, and a word no email holds any more stays, with n = 0.
 */
export const emailSubjectWords = pgTable(
  'email_subject_words',
  {
    word: text('word').primaryKey(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [index('email_subject_words_trgm_idx').using('gin', sql`${t.word} gin_trgm_ops`)],
);

/** The same counts per sender and creation day, for lists filtered by sender (functions.sql). */
export const emailSenderCounts = pgTable(
  'email_sender_counts',
  {
    emailFrom: text('email_from').notNull(),
    category: text('category').notNull(),
    isRead: boolean('is_read').notNull(),
    createdDay: date('created_day').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.emailFrom, t.category, t.isRead, t.createdDay] }),
    index('email_sender_counts_from_trgm_idx').using('gin', sql`${t.emailFrom} gin_trgm_ops`),
  ],
);
