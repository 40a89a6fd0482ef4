// The ingester's queue (the raw messages stored, each mailbox's IMAP checkpoint), which worker
// watches which mailbox (leases), and the rules it sorts mail by (sender mappings, ignore rules,
// same-subject fingerprints).
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { bytea, createdAt, updatedAt, inList } from '../columns.ts';
import { emails } from '../emails/schema.ts';

/**
 * The raw message of every email the ingester stored, kept so that any message can be processed
 * again after a fix. Rows with processed_at null are the mail queue the ingest workers share
 * (claimed with FOR UPDATE SKIP LOCKED; see apps/ingest/src/process.ts).
 */
export const emailSources = pgTable(
  'email_sources',
  {
    emailId: bigint('email_id', { mode: 'number' })
      .primaryKey()
      .references(() => emails.id, { onDelete: 'cascade' }),
    raw: bytea('raw').notNull(),
    size: integer('size').notNull(),
    /** Where the message came from, e.g. `imap://user@host:143/INBOX#uid=42`, `file:/folder#x.eml` or `mbox:/path/box.mbox#3`: the source, then the message within it. */
    origin: text('origin').notNull(),
    normalizedSubject: text('normalized_subject').notNull(),
    /** Why the message could not be kept whole (e.g. over the size limit, only headers fetched). */
    fetchError: text('fetch_error'),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    createAt: createdAt(),
  },
  (t) => [
    index('email_sources_pending_idx')
      .on(t.emailId)
      .where(sql`${t.processedAt} is null`),
    // What was processed in the last hour and day (the Mail flow screen).
    index('email_sources_processed_idx')
      .on(t.processedAt)
      .where(sql`${t.processedAt} is not null`),
    // A subject's messages in order: the claim skips a message while an earlier one is pending.
    index('email_sources_subject_idx').on(t.normalizedSubject, t.emailId),
  ],
);

/** The IMAP position of a mailbox: committed in the same transaction as the messages it covers. */
export const ingestCheckpoints = pgTable('ingest_checkpoints', {
  /** `imap://user@host:port/mailbox` (never the password). */
  source: text('source').primaryKey(),
  uidValidity: bigint('uid_validity', { mode: 'number' }).notNull(),
  lastUid: bigint('last_uid', { mode: 'number' }).notNull(),
  updateAt: updatedAt(),
});

/**
 * Which worker watches a mailbox: one at a time, however many workers run on the database. The
 * holder renews its lease while it watches; a lease not renewed before it expires (its worker
 * died) is taken by the next worker that asks, and a worker that stops gives its leases back.
 */
export const mailboxLeases = pgTable('mailbox_leases', {
  /** As mailbox_status.source. */
  source: text('source').primaryKey(),
  /** The worker: host, process id and a random part (`host:pid:xxxx`). */
  holder: text('holder').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  /** When this holder took it (a renewal keeps it). */
  takenAt: timestamp('taken_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Which bank or MSP mails from which address: `sender` is a full address or `@domain`, and
 * `organisation` a bank_name or msp of the Bank MSP list. Mail from no known sender is ignored.
 */
export const mailSenders = pgTable(
  'mail_senders',
  {
    id: serial('id').primaryKey(),
    sender: text('sender').notNull(),
    organisation: text('organisation').notNull(),
    createAt: createdAt(),
    updateAt: updatedAt(),
  },
  (t) => [uniqueIndex('mail_senders_sender_key').on(sql`lower(${t.sender})`)],
);

export const ignoreRuleFields = ['sender', 'subject'] as const;
export type IgnoreRuleField = (typeof ignoreRuleFields)[number];

/** Mail whose sender or subject contains `pattern` (case-insensitive) is ignored. */
export const ignoreRules = pgTable(
  'ignore_rules',
  {
    id: serial('id').primaryKey(),
    field: text('field').notNull(),
    pattern: text('pattern').notNull(),
    createAt: createdAt(),
    updateAt: updatedAt(),
  },
  (t) => [
    check('ignore_rules_field_check', sql`${t.field} in (${inList(ignoreRuleFields)})`),
    uniqueIndex('ignore_rules_key').on(t.field, sql`lower(${t.pattern})`),
  ],
);

/**
 * What each normalised subject has already delivered: one fingerprint per extracted table or file.
 * A later message with the same subject is same_subject when it brings no new fingerprint.
 */
export const subjectFingerprints = pgTable(
  'subject_fingerprints',
  {
    normalizedSubject: text('normalized_subject').notNull(),
    fingerprint: text('fingerprint').notNull(),
    emailId: bigint('email_id', { mode: 'number' })
      .notNull()
      .references(() => emails.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.normalizedSubject, t.fingerprint] }), index('subject_fingerprints_email_idx').on(t.emailId)],
);
