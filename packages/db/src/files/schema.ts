// The data files attached to mail (text, missing, excel, pdf, ...), their extracted rows, and the
// distinct names and subjects a file list filters by (functions.sql keeps those exact).
import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, date, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt, money, inList } from '../columns.ts';
import { emails } from '../emails/schema.ts';

export const dataFileKinds = ['text', 'missing', 'missing_txn', 'between_successful', 'excel', 'pdf', 'other'] as const;
export type DataFileKind = (typeof dataFileKinds)[number];

/** Files extracted from mail, by `kind` (text, missing, missing_txn, between_successful, excel, pdf, other), name, subject, email. */
export const dataFiles = pgTable(
  'data_files',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    subjectName: text('subject_name').notNull().default(''),
    emailId: bigint('email_id', { mode: 'number' }).references(() => emails.id, { onDelete: 'set null' }),
    createAt: createdAt(),
    updateAt: updatedAt(),
  },
  (t) => [
    check('data_files_kind_check', sql`${t.kind} in (${inList(dataFileKinds)})`),
    index('data_files_kind_create_idx').on(t.kind, t.createAt, t.id),
    // The lists' other orders: Last Update and the file's name (migration 0034).
    index('data_files_kind_update_idx').on(t.kind, t.updateAt, t.id),
    // INCLUDE (subject_name), in its migration (0041): the name order tests a subject filter on the index alone.
    index('data_files_kind_name_idx').on(t.kind, t.name, t.id),
    // Each subject's files in name order: a subject filter's page in name order merges one walk per
    // matching subject (a bank's daily subject, a few hundred) instead of walking every name before them.
    index('data_files_kind_subject_name_idx').on(t.kind, t.subjectName, t.name, t.id),
    index('data_files_email_idx').on(t.emailId),
    index('data_files_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
    index('data_files_subject_trgm_idx').using('gin', sql`${t.subjectName} gin_trgm_ops`),
  ],
);

/**
 * The distinct names and subjects of each kind's files, with how many files hold each: a file
 * list's text filter alone is counted by the sum of its matching values (lower-cased, matched with
 * LIKE) instead of testing every file with ILIKE. Kept exact by statement triggers on data_files
 * (file_values_apply in functions.sql), like ej_values.
 */
export const fileValues = pgTable(
  'file_values',
  {
    kind: text('kind').notNull(),
    field: text('field').notNull(),
    value: text('value').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
    folded: text('folded')
      .notNull()
      .generatedAlwaysAs(sql`lower(value)`),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.field, t.value] }),
    // A broad match reads one field's values in this index alone (it includes n: index-only); a
    // selective one finds its few values through the trigram index.
    index('file_values_folded_idx').on(t.kind, t.field, t.folded),
    index('file_values_folded_trgm_idx').using('gin', sql`${t.folded} gin_trgm_ops`),
  ],
);

/** One extracted row of a data file: the 16 labelled columns (docs/data-model.md). */
export const dataFileRows = pgTable(
  'data_file_rows',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    dataFileId: bigint('data_file_id', { mode: 'number' })
      .notNull()
      .references(() => dataFiles.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    atmId: text('atm_id').notNull().default(''),
    cardNo: text('card_no').notNull().default(''),
    txtNo: text('txt_no').notNull().default(''),
    txtDate: date('txt_date'),
    txtAmt: money('txt_amt'),
    disputeAmt: money('dispute_amt'),
    overage: money('overage'),
    mspRemarks: text('msp_remarks').notNull().default(''),
    mspRefNo: text('msp_ref_no').notNull().default(''),
    shortDesc: text('short_desc').notNull().default(''),
    ejError: text('ej_error').notNull().default(''),
    complaintDate: date('complaint_date'),
    shortDescription: text('short_description').notNull().default(''),
    mailReceivedFrom: text('mail_received_from').notNull().default(''),
    mailSubject: text('mail_subject').notNull().default(''),
    responseCode: text('response_code').notNull().default(''),
  },
  (t) => [
    index('data_file_rows_file_pos_idx').on(t.dataFileId, t.position),
    // A dispute's story finds the result rows that name its transaction (ATM ID and number).
    index('data_file_rows_txn_idx').on(t.txtNo, t.atmId),
  ],
);
