// Electronic journals (EJ files) as received, their transactions with the parser's verdicts, the
// cassette counts they printed, and each dispute's evidence: the journal transaction it matched.
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { bytea, createdAt, inList, money } from '../columns.ts';
import { disputes } from '../disputes/schema.ts';
import { emails } from '../emails/schema.ts';
import { users } from '../identity/schema.ts';

export const journalSources = ['mail', 'upload', 'folder'] as const;
export type JournalSource = (typeof journalSources)[number];

/** How a dispute found its journal transaction: by which number, or by card, amount and day; or not. */
export const evidenceMatches = ['rrn', 'stan', 'serial', 'card_amount_day', 'ambiguous', 'none'] as const;
export type EvidenceMatch = (typeof evidenceMatches)[number];

export interface StoredAnomaly {
  line: number;
  kind: string;
  text: string;
}

export interface StoredCassette {
  position: number;
  denomination: number | null;
  dispensed: number | null;
  rejected: number | null;
  remaining: number | null;
}

/**
 * An ATM's electronic journal as received (by mail, upload or a watched folder), one row per
 * distinct file (by its SHA-256: the same file twice is stored once). What the parser read of it:
 * the family, ATM, first day, lines, and the anomalies (dispense failures, retracts, restarts,
 * cuts), their kinds also as an array for the list's filter. The file itself is in journal_pages.
 */
export const journals = pgTable(
  'journals',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    sha256: text('sha256').notNull(),
    fileName: text('file_name').notNull().default(''),
    atmId: text('atm_id'),
    day: date('day'),
    family: text('family').notNull(),
    lineCount: integer('line_count').notNull(),
    unknownLines: integer('unknown_lines').notNull().default(0),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    transactions: integer('transactions').notNull().default(0),
    /** 'utf-16le' or 'utf-16be' when the file begins with that BOM: pages after the first are decoded with it. */
    charset: text('charset'),
    anomalies: jsonb('anomalies').$type<StoredAnomaly[]>().notNull().default([]),
    anomalyKinds: text('anomaly_kinds')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    source: text('source').notNull(),
    emailId: bigint('email_id', { mode: 'number' }).references(() => emails.id, { onDelete: 'set null' }),
    uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    createAt: createdAt(),
  },
  (t) => [
    check('journals_source_check', sql`${t.source} in (${inList(journalSources)})`),
    uniqueIndex('journals_sha256_key').on(t.sha256),
    // The list: an ATM's journals by day, a range of days, newest first.
    index('journals_atm_day_idx').on(t.atmId, t.day, t.id),
    // The list's ATM filter matches part of an ID (ILIKE '%...%'): trigrams answer it from the index.
    index('journals_atm_trgm_idx').using('gin', sql`${t.atmId} gin_trgm_ops`),
    index('journals_day_idx').on(t.day, t.id),
    index('journals_anomaly_kinds_idx').using('gin', t.anomalyKinds),
    index('journals_email_idx').on(t.emailId),
  ],
);

/**
 * A journal's bytes exactly as received, deflated (zlib) in pages of up to 2,000 lines split at
 * line ends: the line viewer inflates only the pages of the lines asked, and the pages in order,
 * inflated and joined, are the file (its SHA-256 is the journal's).
 */
export const journalPages = pgTable(
  'journal_pages',
  {
    journalId: bigint('journal_id', { mode: 'number' })
      .notNull()
      .references(() => journals.id, { onDelete: 'cascade' }),
    /** The page's first line (1-based). */
    firstLine: integer('first_line').notNull(),
    lineCount: integer('line_count').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.journalId, t.firstLine] })],
);

/**
 * Each transaction the parser found in a journal, with its verdict on the cash (withdrawals) and
 * the lines it rests on. `at` is the ATM's local time as printed (journals print no zone). A
 * transaction cut by the end of one file and continued in the next carries the verdict of the
 * whole, with the continuation's journal and lines (in that file's own numbering); the
 * continuation's own part points back to it (`joined_to`) and is not matched on its own.
 */
export const journalTransactions = pgTable(
  'journal_transactions',
  {
    // Keyed with create_at: the table is partitioned by the month its journal was received
    // (migration 0063), like ej_records.
    id: bigserial('id', { mode: 'number' }).notNull(),
    journalId: bigint('journal_id', { mode: 'number' })
      .notNull()
      .references(() => journals.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    kind: text('kind').notNull(),
    atmId: text('atm_id'),
    at: timestamp('at', { withTimezone: false }),
    day: date('day'),
    cardLast4: text('card_last4'),
    rrn: text('rrn'),
    stan: text('stan'),
    serial: text('serial'),
    responseCode: text('response_code'),
    requestedAmount: money('requested_amount'),
    presented: integer('presented').array(),
    dispensedAmount: money('dispensed_amount'),
    verdict: text('verdict'),
    reason: text('reason').notNull().default(''),
    lineFrom: integer('line_from').notNull(),
    lineTo: integer('line_to').notNull(),
    evidence: integer('evidence')
      .array()
      .notNull()
      .default(sql`'{}'::int[]`),
    cut: text('cut'),
    continuationJournalId: bigint('continuation_journal_id', { mode: 'number' }).references((): AnyPgColumn => journals.id, { onDelete: 'set null' }),
    continuationLineFrom: integer('continuation_line_from'),
    continuationLineTo: integer('continuation_line_to'),
    continuationEvidence: integer('continuation_evidence').array(),
    /** The first part's transaction, when this one is the continuation of a cut one (set to null when it is deleted, by a trigger). */
    joinedTo: bigint('joined_to', { mode: 'number' }),
    /** When its journal was received (the journal's own create_at): the month it is stored under. */
    createAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.createAt] }),
    check('journal_transactions_cut_check', sql`${t.cut} is null or ${t.cut} in ('start', 'end')`),
    index('journal_transactions_atm_at_idx').on(t.atmId, t.at),
    index('journal_transactions_rrn_idx').on(t.rrn),
    index('journal_transactions_stan_idx').on(t.stan),
    // Serials are the ATM's own counter: looked up on one ATM.
    index('journal_transactions_atm_serial_idx').on(t.atmId, t.serial),
    index('journal_transactions_card_idx').on(t.atmId, t.day, t.cardLast4),
    // Unique with the partition key, as PostgreSQL asks: a journal's transactions share one create_at.
    uniqueIndex('journal_transactions_journal_seq_key').on(t.journalId, t.seq, t.createAt),
    index('journal_transactions_joined_idx')
      .on(t.joinedTo)
      .where(sql`${t.joinedTo} is not null`),
    index('journal_transactions_continuation_idx')
      .on(t.continuationJournalId)
      .where(sql`${t.continuationJournalId} is not null`),
  ],
);

/** The cassette tables a journal printed (NCR's CASH TOTAL, Hyosung's WITHDRAW COUNTER), at their line. */
export const journalCounters = pgTable(
  'journal_counters',
  {
    journalId: bigint('journal_id', { mode: 'number' })
      .notNull()
      .references(() => journals.id, { onDelete: 'cascade' }),
    line: integer('line').notNull(),
    at: timestamp('at', { withTimezone: false }),
    cassettes: jsonb('cassettes').$type<StoredCassette[]>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.journalId, t.line] })],
);

/**
 * What the journals say of each dispute: the journal transaction it matched (by RRN, STAN or the
 * journal's serial, else by card, amount and day where one withdrawal fits), its verdict and the
 * amount dispensed. Several candidates are 'ambiguous' (no verdict: a near twin never takes a
 * failed one's place); a journal of the ATM's day without the transaction is 'none'. No row:
 * no journal of the dispute's ATM and day yet. Each dispute record keeps a copy of its dispute's
 * verdict (dispute_records.verdict, by triggers on this table): the EJ list's verdict filter walks it.
 */
export const disputeEvidence = pgTable(
  'dispute_evidence',
  {
    disputeId: bigint('dispute_id', { mode: 'number' })
      .primaryKey()
      .references(() => disputes.id, { onDelete: 'cascade' }),
    /** The journal transaction matched (set to null when it is deleted, by a trigger: no foreign key reaches a partitioned table by id). */
    transactionId: bigint('transaction_id', { mode: 'number' }),
    verdict: text('verdict'),
    match: text('match').notNull(),
    candidates: integer('candidates').notNull().default(0),
    dispensedAmount: money('dispensed_amount'),
    matchedAt: timestamp('matched_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('dispute_evidence_match_check', sql`${t.match} in (${inList(evidenceMatches)})`),
    index('dispute_evidence_verdict_idx').on(t.verdict, t.disputeId),
    index('dispute_evidence_transaction_idx').on(t.transactionId),
  ],
);
