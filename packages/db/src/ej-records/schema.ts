// The EJ records extracted from mail (dispute, overage, succeeding), and the derived tables that
// count them, hold their filter values and block their ids (functions.sql keeps those exact).
import { sql } from 'drizzle-orm';
import { type AnyPgColumn, bigint, bigserial, boolean, check, date, index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt, money, inList } from '../columns.ts';
import { emails } from '../emails/schema.ts';
import { dataFiles } from '../files/schema.ts';

export const ejRecordKinds = ['dispute', 'overage', 'succeeding'] as const;
export type EjRecordKind = (typeof ejRecordKinds)[number];

/**
 * The EJ error rows: the 16 EJ fields, bank name, `kind` (dispute, overage, succeeding), file name, the email they came from.
 * Stored by the month they were received (create_at, UTC), one partition each, so that a month past its
 * retention is archived and dropped whole (retention/, docs/operations.md).
 */
export const ejRecords = pgTable(
  'ej_records',
  {
    // The key holds the month it is stored under (create_at): the table is partitioned by month
    // (migration 0062), and PostgreSQL keys a partitioned table with its partition column.
    id: bigserial('id', { mode: 'number' }).notNull(),
    kind: text('kind').notNull().default('dispute'),
    atmId: text('atm_id').notNull().default(''),
    cardNo: text('card_no').notNull().default(''),
    txtNo: text('txt_no').notNull().default(''),
    transactionDate: date('transaction_date'),
    transactionAmt: money('transaction_amt'),
    disputeAmt: money('dispute_amt'),
    overage: money('overage'),
    mspRemarks: text('msp_remarks').notNull().default(''),
    mspRefNo: text('msp_ref_no').notNull().default(''),
    shortDescEjError: text('short_desc_ej_error').notNull().default(''),
    ejError: text('ej_error').notNull().default(''),
    complaintDate: date('complaint_date'),
    shortDescription: text('short_description').notNull().default(''),
    responseCode: text('response_code').notNull().default(''),
    mailReceivedFrom: text('mail_received_from').notNull().default(''),
    mailSubject: text('mail_subject').notNull().default(''),
    bankName: text('bank_name').notNull().default(''),
    fileName: text('file_name').notNull().default(''),
    emailId: bigint('email_id', { mode: 'number' }).references(() => emails.id, { onDelete: 'set null' }),
    /** The attachment (data file) the record was read from; null for a mail body's table. */
    dataFileId: bigint('data_file_id', { mode: 'number' }).references((): AnyPgColumn => dataFiles.id, { onDelete: 'set null' }),
    createAt: createdAt(),
    updateAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.createAt] }),
    check('ej_records_kind_check', sql`${t.kind} in (${inList(ejRecordKinds)})`),
    index('ej_records_data_file_idx').on(t.dataFileId),
    // The table's orders (migration 0018): each walks (kind, column, id), an empty date or amount
    // counting as the smallest, so ascending and descending are the one index read either way.
    index('ej_records_kind_date_idx').on(t.kind, t.transactionDate.asc().nullsFirst(), t.id),
    index('ej_records_kind_amt_idx').on(t.kind, t.transactionAmt.asc().nullsFirst(), t.id),
    index('ej_records_kind_dispute_amt_idx').on(t.kind, t.disputeAmt.asc().nullsFirst(), t.id),
    index('ej_records_kind_id_idx').on(t.kind, t.id),
    // The complaint's date and the MSP's reference order the dispute table too (migration 0033).
    index('ej_records_kind_complaint_idx').on(t.kind, t.complaintDate.asc().nullsFirst(), t.id),
    index('ej_records_kind_msp_ref_idx').on(t.kind, t.mspRefNo.asc().nullsFirst(), t.id),
    // Exact values with kind and id: a sparse filter's values (matched in ej_values) give their
    // records' ids from the index alone, and only the page's records are read (migration 0014).
    // (kind, atm_id, id) also orders the table by ATM ID, an empty one first as the dates' and amounts'.
    index('ej_records_kind_atm_idx').on(t.kind, t.atmId.asc().nullsFirst(), t.id),
    // An ATM ID belongs to one bank and its MSP, so ordering by it under a bank or sender filter
    // would walk other banks' ATMs first: each bank's (and sender's) records in ATM order instead,
    // merged per value (migration 0021).
    index('ej_records_kind_bank_atm_idx').on(t.kind, t.bankName, t.atmId.asc().nullsFirst(), t.id),
    index('ej_records_kind_from_atm_idx').on(t.kind, t.mailReceivedFrom, t.atmId.asc().nullsFirst(), t.id),
    index('ej_records_card_idx').on(t.cardNo, t.kind, t.id),
    index('ej_records_subject_idx').on(t.mailSubject, t.kind, t.id),
    index('ej_records_email_idx').on(t.emailId),
    index('ej_records_atm_trgm_idx').using('gin', sql`${t.atmId} gin_trgm_ops`),
    index('ej_records_card_trgm_idx').using('gin', sql`${t.cardNo} gin_trgm_ops`),
    index('ej_records_bank_trgm_idx').using('gin', sql`${t.bankName} gin_trgm_ops`),
    index('ej_records_subject_trgm_idx').using('gin', sql`${t.mailSubject} gin_trgm_ops`),
    index('ej_records_from_trgm_idx').using('gin', sql`${t.mailReceivedFrom} gin_trgm_ops`),
  ],
);

/**
 * EJ records counted per kind, bank, sender and transaction day, kept exact by statement-level
 * triggers (functions.sql). Counts filtered only by dates, bank or sender read these rows.
 * Records without a transaction date count under '-infinity', which any date bound excludes.
 */
export const ejCounts = pgTable(
  'ej_counts',
  {
    kind: text('kind').notNull(),
    bankName: text('bank_name').notNull(),
    mailReceivedFrom: text('mail_received_from').notNull(),
    transactionDay: date('transaction_day').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
    /**
     * The earliest and latest complaint date of the row's records, and whether one had none
     * (migration 0065): the complaint order's bound under a range of transaction days, read from
     * these rows instead of the range's records. Widened by each insert, left by a delete (still
     * bounds), set anew when the row counts no record. complaintMissing null: not known (a row
     * counted before 0065).
     */
    complaintFirst: date('complaint_first'),
    complaintLast: date('complaint_last'),
    complaintMissing: boolean('complaint_missing'),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.bankName, t.mailReceivedFrom, t.transactionDay] }),
    index('ej_counts_bank_trgm_idx').using('gin', sql`${t.bankName} gin_trgm_ops`),
    index('ej_counts_from_trgm_idx').using('gin', sql`${t.mailReceivedFrom} gin_trgm_ops`),
  ],
);

/**
 * The distinct values of the EJ records' text columns that operators filter by substring (ATM ID,
 * bank, mail subject, sender), with how many records of each kind hold each. A filter matches the
 * few thousand values instead of scanning the million records, and its count is their sum. Kept
 * exact by statement triggers on ej_records (functions.sql), like ej_counts.
 */
export const ejValues = pgTable(
  'ej_values',
  {
    kind: text('kind').notNull(),
    field: text('field').notNull(),
    value: text('value').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
    /** lower(value): matched with LIKE, cheaper per value than ILIKE (migration 0013). */
    folded: text('folded')
      .notNull()
      .generatedAlwaysAs(sql`lower(value)`),
    /**
     * The earliest and latest create_at of the records that have held the value (migration 0064):
     * the months a lookup of its records reads, when ej_records is stored by month. Widened by each
     * insert, never narrowed by a delete (the records holding it stay within them), set anew when
     * no record holds it. Null: not known (a value counted before 0064), every month is read.
     */
    firstAt: timestamp('first_at', { withTimezone: true }),
    lastAt: timestamp('last_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.field, t.value] }),
    // A broad match reads one field's values in this index alone (index-only, with their counts);
    // a selective one finds its few values through the trigram index.
    index('ej_values_folded_idx').on(t.kind, t.field, t.folded),
    index('ej_values_folded_trgm_idx').using('gin', sql`${t.folded} gin_trgm_ops`),
    // Card numbers without their mask (x, *): in the folded trigram index, `xxx` lists every masked
    // card, so a search for a card's part goes by its digits here (migration 0015).
    index('ej_values_card_unmasked_trgm_idx')
      .using('gin', sql`translate(${t.folded}, 'x*', '') gin_trgm_ops`)
      .where(sql`${t.field} = 'card_no'`),
  ],
);

/**
 * How many records of each kind hold ids in each block of 1,024 ids, kept exact by statement
 * triggers on ej_records (functions.sql). A deep page of the id order (page 10,000) finds its
 * block by summing the blocks' counts, then skips only within that block, instead of walking
 * every record above it.
 */
export const ejIdBlocks = pgTable(
  'ej_id_blocks',
  {
    kind: text('kind').notNull(),
    block: bigint('block', { mode: 'number' }).notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.block] })],
);
