// The EJ Desk data model (docs/data-model.md). One schema for PGlite and PostgreSQL;
// drizzle-kit turns it into the SQL under ../migrations, which run from code on both.
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  json,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

const createdAt = () => timestamp('create_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('update_at', { withTimezone: true }).notNull().defaultNow();
const money = (name: string) => numeric(name, { precision: 14, scale: 2 });

export const emailCategories = ['processed', 'ej_not_found', 'ignored', 'same_subject', 'same_subject_processing'] as const;
export type EmailCategory = (typeof emailCategories)[number];

export const ejRecordKinds = ['dispute', 'overage', 'succeeding'] as const;
export type EjRecordKind = (typeof ejRecordKinds)[number];

export const dataFileKinds = ['text', 'missing', 'missing_txn', 'between_successful', 'excel', 'pdf', 'other'] as const;
export type DataFileKind = (typeof dataFileKinds)[number];

const inList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

/** operator: every screen but the admin lists; admin: those too. */
export const userRoles = ['operator', 'admin'] as const;
export type UserRole = (typeof userRoles)[number];

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    role: text('role').$type<UserRole>().notNull().default('operator'),
    /** Set by an admin's password reset: the user chooses a new one before anything else. */
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    lastLogin: timestamp('last_login', { withTimezone: true }),
    /** The identity provider's subject (`sub`) of a user who signs in through single sign-on. */
    oidcSubject: text('oidc_subject'),
    /**
     * Tokens issued before this moment are refused: the provider's back-channel logout, an admin's
     * password reset, the user's own password change.
     */
    sessionsRevokedAt: timestamp('sessions_revoked_at', { withTimezone: true }),
    /** The one session that outlived that moment: the one the user changed their own password in. */
    sessionsKeptId: text('sessions_kept_id'),
    createAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    uniqueIndex('users_oidc_subject_key').on(t.oidcSubject),
    check('users_role_check', sql`${t.role} in (${inList(userRoles)})`),
  ],
);

/**
 * Single sign-on requests sent to the identity provider and not yet answered: what the callback
 * must find again (the state, by its hash; the browser's binding cookie, by its hash), the nonce
 * and the PKCE verifier. Kept in the database so that any API instance can take the callback; a
 * row is deleted when its callback comes, so a replayed callback finds nothing.
 */
export const ssoRequests = pgTable(
  'sso_requests',
  {
    stateHash: text('state_hash').primaryKey(),
    bindingHash: text('binding_hash').notNull(),
    nonce: text('nonce').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    createAt: createdAt(),
  },
  (t) => [index('sso_requests_create_at_idx').on(t.createAt)],
);

/**
 * Sessions begun through single sign-on: the one-time code the console exchanges for its tokens
 * (by hash, until used), then the refresh token it got (its jti), with the provider's ID token and
 * session id for the provider's logout.
 */
export const ssoSessions = pgTable(
  'sso_sessions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    handoffHash: text('handoff_hash'),
    refreshJti: text('refresh_jti'),
    idToken: text('id_token').notNull(),
    sid: text('sid'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createAt: createdAt(),
  },
  (t) => [
    uniqueIndex('sso_sessions_handoff_key').on(t.handoffHash),
    uniqueIndex('sso_sessions_refresh_jti_key').on(t.refreshJti),
    index('sso_sessions_expires_at_idx').on(t.expiresAt),
  ],
);

/** Failed logins only: throttling counts these per account and per IP. */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    email: text('email').notNull(),
    ip: text('ip').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('login_failures_email_at_idx').on(t.email, t.at), index('login_failures_ip_at_idx').on(t.ip, t.at), index('login_failures_at_idx').on(t.at)],
);

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
 * statement-level triggers on emails (their functions: derived.sql). The dashboard and every list count without
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
 * derived.sql): the lower-cased subject and the list columns. A broad subject scans these ~90 MB
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
  ],
);

/** The same counts per sender and creation day, for lists filtered by sender (derived.sql). */
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

export const ejRecords = pgTable(
  'ej_records',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
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
 * triggers (derived.sql). Counts filtered only by dates, bank or sender read these rows.
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
 * exact by statement triggers on ej_records (derived.sql), like ej_counts.
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
 * triggers on ej_records (derived.sql). A deep page of the id order (page 10,000) finds its
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
    index('data_files_email_idx').on(t.emailId),
    index('data_files_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
    index('data_files_subject_trgm_idx').using('gin', sql`${t.subjectName} gin_trgm_ops`),
  ],
);

/**
 * The distinct names and subjects of each kind's files, with how many files hold each: a file
 * list's text filter alone is counted by the sum of its matching values (lower-cased, matched with
 * LIKE) instead of testing every file with ILIKE. Kept exact by statement triggers on data_files
 * (file_values_apply in derived.sql), like ej_values.
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

/** bank_pass is AES-256-GCM ciphertext (iv | tag | data); never stored or logged in clear. */
export const bankPasswords = pgTable(
  'bank_passwords',
  {
    id: serial('id').primaryKey(),
    bankName: text('bank_name').notNull(),
    bankPassEncrypted: bytea('bank_pass_encrypted').notNull(),
    createAt: createdAt(),
    updateAt: updatedAt(),
  },
  (t) => [uniqueIndex('bank_passwords_bank_lower_key').on(sql`lower(${t.bankName})`)],
);

export const bankMsps = pgTable(
  'bank_msps',
  {
    id: serial('id').primaryKey(),
    msp: text('msp').notNull(),
    bankName: text('bank_name').notNull(),
    createAt: createdAt(),
    updateAt: updatedAt(),
  },
  (t) => [uniqueIndex('bank_msps_pair_key').on(sql`lower(${t.bankName})`, sql`lower(${t.msp})`)],
);

/**
 * What an operator chose for the console (a table's columns: which show, in what order), kept on the
 * server so the choice follows the operator to another machine. One row per operator and key.
 */
export const userPreferences = pgTable(
  'user_preferences',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    value: jsonb('value').notNull(),
    updateAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

/**
 * Saved views of a list (GET /api/views/): a name for a query string (filters, order, page size)
 * and, optionally, the columns. Kept by their owner; an admin may share one with everyone.
 * `list` is the list's name as its column choice names it ('email', 'text-email-data', ...).
 */
export const savedViews = pgTable(
  'saved_views',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    list: text('list').notNull(),
    name: text('name').notNull(),
    query: text('query').notNull(),
    columns: jsonb('columns'),
    shared: boolean('shared').notNull().default(false),
    createAt: createdAt(),
    updateAt: updatedAt(),
  },
  // One name per owner and list; the list's views read by owner or by shared.
  (t) => [
    uniqueIndex('saved_views_user_list_name_key').on(t.userId, t.list, t.name),
    index('saved_views_list_shared_idx')
      .on(t.list)
      .where(sql`${t.shared}`),
  ],
);

/** The view each operator opens a list with when the list is opened without a query. */
export const savedViewDefaults = pgTable(
  'saved_view_defaults',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    list: text('list').notNull(),
    viewId: integer('view_id')
      .notNull()
      .references(() => savedViews.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.list] }), index('saved_view_defaults_view_id_idx').on(t.viewId)],
);

/**
 * Refresh tokens ended by a logout (their jti), kept until they would have expired anyway: a copied
 * refresh token is worth nothing after its owner logs out.
 */
export const revokedTokens = pgTable(
  'revoked_tokens',
  {
    jti: text('jti').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('revoked_tokens_expires_idx').on(t.expiresAt)],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    /** Where the request came from (logins), and what the user said (a reveal's reason). */
    ip: text('ip'),
    detail: text('detail'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_log_at_idx').on(t.at.desc())],
);

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
 * The mailboxes an admin added on the Mailboxes screen: every enabled one is watched at once.
 * Secrets (a password or client secret, a refresh token) are sealed like the bank passwords and
 * never leave the database but to sign in. The bootstrap mailbox in IMAP_* is not here.
 */
export const mailboxes = pgTable(
  'mailboxes',
  {
    id: serial('id').primaryKey(),
    host: text('host').notNull(),
    port: integer('port').notNull(),
    tls: boolean('tls').notNull().default(true),
    /** The mailbox signed in to (with OAuth2, the address the token is used for). */
    username: text('username').notNull(),
    folder: text('folder').notNull().default('INBOX'),
    /** password | oauth2-client-credentials | oauth2-refresh-token */
    authMethod: text('auth_method').notNull(),
    tokenUrl: text('token_url'),
    clientId: text('client_id'),
    scope: text('scope'),
    /** The password (password) or the client secret (OAuth2), sealed. */
    secretEncrypted: bytea('secret_encrypted'),
    /** The refresh token (oauth2-refresh-token), sealed; a rotated one replaces it. */
    refreshTokenEncrypted: bytea('refresh_token_encrypted'),
    enabled: boolean('enabled').notNull().default(true),
    createAt: createdAt(),
    updateAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('mailboxes_key').on(sql`lower(${t.username})`, sql`lower(${t.host})`, t.port, t.folder),
    check('mailboxes_auth_method_check', sql`${t.authMethod} in ('password', 'oauth2-client-credentials', 'oauth2-refresh-token')`),
  ],
);

/**
 * What each ingester watching a mailbox last said of it (the Mail flow screen and the stalled
 * banner read it): connected or not and why, and when a sync last finished.
 */
export const mailboxStatus = pgTable('mailbox_status', {
  /** As ingest_checkpoints.source: `imap://user@host:port/mailbox`. */
  source: text('source').primaryKey(),
  /** connecting | connected | disconnected | stopped */
  state: text('state').notNull(),
  lastError: text('last_error'),
  /** When a sync round last finished: the mailbox was read up to its newest message. */
  lastSyncAt: timestamp('last_sync_at', { withTimezone: true }),
  /** When it was first watched: a mailbox that never synced is stalled once this is long ago. */
  createAt: createdAt(),
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

/**
 * The remote registry: every release of a remote that `pnpm remote deploy` accepted.
 * A release is immutable (one row per name and version) and stays loadable at its manifest URL, so
 * a page opened on it keeps working after the next deploy; remote_current says which one the shell
 * loads now. Every shell server reads these through the API, so they all agree.
 */
export const remoteReleases = pgTable(
  'remote_releases',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    name: text('name').notNull(),
    version: text('version').notNull(),
    manifest: text('manifest').notNull(),
    /** What the build declared (ejdesk-remote.json): section, role, paths, nav, contract. */
    descriptor: jsonb('descriptor').notNull(),
    deployedBy: text('deployed_by').notNull(),
    deployedAt: timestamp('deployed_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The entry script the manifest names, and the SHA-384 of it and of the manifest as the API
     * fetched them at deploy (SRI form, sha384-BASE64): the shell loads the entry with this
     * integrity. Null for releases recorded before the API checked them itself.
     */
    entry: text('entry'),
    entryIntegrity: text('entry_integrity'),
    manifestIntegrity: text('manifest_integrity'),
    /** Withdrawn: never served or returned to again. */
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
    /** Rolled back from (as current, or as a canary ended): a later rollback never returns to it. */
    rolledBackAt: timestamp('rolled_back_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('remote_releases_version_key').on(t.name, t.version)],
);

/**
 * The origins a remote's manifests and files may come from, beyond the one EJ Desk serves it from
 * (REMOTE_ORIGINS): added and removed by admins. A release elsewhere is refused at deploy and never
 * served.
 */
export const remoteOrigins = pgTable(
  'remote_origins',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    remote: text('remote').notNull(),
    /** scheme://host[:port], as URL.origin writes it. */
    origin: text('origin').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createAt: createdAt(),
  },
  (t) => [uniqueIndex('remote_origins_key').on(t.remote, t.origin)],
);

export const remoteCurrent = pgTable(
  'remote_current',
  {
    name: text('name').primaryKey(),
    releaseId: bigint('release_id', { mode: 'number' })
      .notNull()
      .references(() => remoteReleases.id),
    updateAt: updatedAt(),
    /** A canary: this release for canary_percent of the operators (the same ones each time), the current one for the rest. */
    canaryReleaseId: bigint('canary_release_id', { mode: 'number' }).references(() => remoteReleases.id),
    canaryPercent: integer('canary_percent'),
    canaryAt: timestamp('canary_at', { withTimezone: true }),
  },
  (t) => [
    check(
      'remote_current_canary_check',
      sql`(${t.canaryReleaseId} is null and ${t.canaryPercent} is null) or (${t.canaryReleaseId} is not null and ${t.canaryPercent} between 1 and 99)`,
    ),
  ],
);

/** The operators a release failed to load for (a remote that failed to load or threw at render), once each. */
export const remoteLoadFailures = pgTable(
  'remote_load_failures',
  {
    releaseId: bigint('release_id', { mode: 'number' })
      .notNull()
      .references(() => remoteReleases.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.releaseId, t.userId] })],
);

/**
 * The deploy tokens: each lets `pnpm remote` deploy and roll back one remote (its team's), or every
 * remote (remote null: the configured REMOTE_DEPLOY_TOKEN, recorded here so an admin can revoke it).
 * Only a SHA-256 of the token is kept (it is 32 random bytes: no slow hash is needed); it is shown
 * once, when created. A revoked token keeps its row (revoked_at) so the configured one stays revoked.
 */
export const deployTokens = pgTable(
  'deploy_tokens',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    name: text('name').notNull(),
    remote: text('remote'),
    tokenHash: bytea('token_hash').notNull(),
    /** The one from the configuration (REMOTE_DEPLOY_TOKEN), not created in the console. */
    configured: boolean('configured').notNull().default(false),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('deploy_tokens_hash_key').on(t.tokenHash),
    // A name says which token did a deploy in the audit log: one live token per name.
    uniqueIndex('deploy_tokens_live_name_key')
      .on(t.name)
      .where(sql`${t.revokedAt} is null`),
  ],
);

export const tatScopes = ['all', 'bank', 'msp'] as const;
export type TatScope = (typeof tatScopes)[number];
export const tatClockStarts = ['transaction_date', 'complaint_date'] as const;
export type TatClockStart = (typeof tatClockStarts)[number];
export const tatDayKinds = ['calendar', 'working'] as const;
export type TatDayKind = (typeof tatDayKinds)[number];

/**
 * Turnaround rules: how many days a dispute may stay open, counted from which of its dates, and
 * the penalty per day past the due date. The most specific rule covering a dispute applies (its
 * bank's, then its MSP's, then the one for all); one rule per scope. Working days skip Saturdays,
 * Sundays and the rule's holidays; calendar days count every day.
 */
export const tatRules = pgTable(
  'tat_rules',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    scope: text('scope').notNull(),
    /** The bank or MSP the rule covers; '' for all. */
    scopeValue: text('scope_value').notNull().default(''),
    clockStart: text('clock_start').notNull(),
    days: integer('days').notNull(),
    dayKind: text('day_kind').notNull(),
    holidays: date('holidays')
      .array()
      .notNull()
      .default(sql`'{}'::date[]`),
    penaltyPerDay: money('penalty_per_day').notNull().default('0'),
    currency: text('currency').notNull(),
    createAt: createdAt(),
    updateAt: updatedAt(),
  },
  (t) => [
    check('tat_rules_scope_check', sql`${t.scope} in (${inList(tatScopes)}) and (${t.scope} = 'all') = (${t.scopeValue} = '')`),
    check('tat_rules_clock_start_check', sql`${t.clockStart} in (${inList(tatClockStarts)})`),
    check('tat_rules_day_kind_check', sql`${t.dayKind} in (${inList(tatDayKinds)})`),
    check('tat_rules_days_check', sql`${t.days} between 0 and 3650`),
    check('tat_rules_penalty_check', sql`${t.penaltyPerDay} >= 0`),
    uniqueIndex('tat_rules_scope_key').on(t.scope, sql`lower(${t.scopeValue})`),
    uniqueIndex('tat_rules_name_key').on(sql`lower(${t.name})`),
  ],
);

export const disputeStatuses = ['open', 'awaiting_msp', 'resolved'] as const;
export type DisputeStatus = (typeof disputeStatuses)[number];
export const disputeOutcomes = ['credited', 'rejected', 'other'] as const;
export type DisputeOutcome = (typeof disputeOutcomes)[number];
/** Who set a status: the mail (a later row said so) or an operator, who wins over later mail. */
export const disputeStatusSources = ['mail', 'operator'] as const;
export type DisputeStatusSource = (typeof disputeStatusSources)[number];

/**
 * One dispute: the EJ records of one transaction (the same ATM ID and transaction number, and card
 * where both have one), with its turnaround clock and status. The clock's columns are the rule's as
 * it was applied (changed rules are applied to open disputes at once); age, days overdue and the
 * penalty follow from them and the day (docs/disputes.md).
 */
export const disputes = pgTable(
  'disputes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    atmId: text('atm_id').notNull(),
    txtNo: text('txt_no').notNull(),
    cardNo: text('card_no').notNull().default(''),
    bankName: text('bank_name').notNull().default(''),
    transactionDate: date('transaction_date'),
    complaintDate: date('complaint_date'),
    /** The first record of the dispute (the complaint, usually). */
    firstRecordId: bigint('first_record_id', { mode: 'number' }).notNull(),
    ruleId: integer('rule_id').references(() => tatRules.id, { onDelete: 'set null' }),
    clockStartedOn: date('clock_started_on'),
    dueDate: date('due_date'),
    penaltyPerDay: money('penalty_per_day').notNull().default('0'),
    currency: text('currency').notNull().default(''),
    status: text('status').notNull().default('open'),
    outcome: text('outcome'),
    /** The day a resolution stopped the clock. */
    stoppedOn: date('stopped_on'),
    statusSource: text('status_source').notNull().default('mail'),
    /** Why the status is what it is: the mail rule that set it, or the operator's note. */
    statusReason: text('status_reason').notNull().default(''),
    statusBy: text('status_by').notNull().default(''),
    statusAt: timestamp('status_at', { withTimezone: true }).notNull().defaultNow(),
    createAt: createdAt(),
    updateAt: updatedAt(),
  },
  (t) => [
    check('disputes_status_check', sql`${t.status} in (${inList(disputeStatuses)})`),
    check(
      'disputes_outcome_check',
      sql`(${t.status} = 'resolved') = (${t.outcome} is not null) and (${t.outcome} is null or ${t.outcome} in (${inList(disputeOutcomes)}))`,
    ),
    check('disputes_status_source_check', sql`${t.statusSource} in (${inList(disputeStatusSources)})`),
    // The disputes of a transaction, lowest id first (a new record joins the first that fits).
    index('disputes_txn_idx').on(t.txtNo, t.atmId, t.id),
    uniqueIndex('disputes_first_record_key').on(t.firstRecordId),
    // The open disputes by due date: breached, due today, due soon, and the due-date order.
    index('disputes_open_due_idx')
      .on(t.dueDate, t.id)
      .where(sql`${t.status} <> 'resolved'`),
    index('disputes_status_idx').on(t.status, t.id),
    index('disputes_rule_idx').on(t.ruleId),
  ],
);

/**
 * Which dispute each dispute record belongs to (every record of kind dispute has one), with a copy
 * of its dispute's clock and of the record's counted fields, kept by triggers (0030): the clock's
 * filters and orders walk these indexes, and dispute_counts is summed from these rows.
 */
export const disputeRecords = pgTable(
  'dispute_records',
  {
    recordId: bigint('record_id', { mode: 'number' })
      .primaryKey()
      .references(() => ejRecords.id, { onDelete: 'cascade' }),
    disputeId: bigint('dispute_id', { mode: 'number' })
      .notNull()
      .references(() => disputes.id, { onDelete: 'cascade' }),
    /** Not resolved (open or awaiting the MSP): the clock runs. */
    open: boolean('open').notNull().default(true),
    dueDate: date('due_date'),
    clockStartedOn: date('clock_started_on'),
    penaltyPerDay: money('penalty_per_day').notNull().default('0'),
    currency: text('currency').notNull().default(''),
    /** A resolved dispute's penalty, fixed when its clock stopped (null while open). */
    settledPenalty: money('settled_penalty'),
    transactionDate: date('transaction_date'),
    bankName: text('bank_name').notNull().default(''),
    mailReceivedFrom: text('mail_received_from').notNull().default(''),
  },
  (t) => [
    index('dispute_records_dispute_idx').on(t.disputeId, t.recordId),
    // The open ones in id order, their clock at hand (open, breached, due soon with the id order).
    index('dispute_records_open_idx')
      .on(t.recordId)
      .where(sql`${t.open}`),
    index('dispute_records_resolved_idx')
      .on(t.settledPenalty, t.recordId)
      .where(sql`not ${t.open}`),
    // Due today and due soon; the penalty order, one rate at a time (the penalty grows as the due date recedes).
    index('dispute_records_open_due_idx')
      .on(t.penaltyPerDay, t.dueDate, sql`${t.recordId} desc`)
      .where(sql`${t.open}`),
    index('dispute_records_open_due_day_idx')
      .on(t.dueDate, t.recordId)
      .where(sql`${t.open}`),
    // A clock filter within a range of transaction dates (a week two months back) in id order.
    index('dispute_records_day_idx').on(t.transactionDate, t.recordId),
    // The penalty order's zeros among the open: no rate, or no due date.
    index('dispute_records_open_free_idx')
      .on(t.recordId)
      .where(sql`${t.open} and (${t.penaltyPerDay} = 0 or ${t.dueDate} is null)`),
    // The due-date order, none last either way.
    index('dispute_records_due_asc_idx').on(sql`${t.dueDate} asc nulls last`, t.recordId),
    index('dispute_records_due_desc_idx').on(sql`${t.dueDate} desc nulls last`, sql`${t.recordId} desc`),
  ],
);

/**
 * How many dispute records there are per clock (open ones: due date, start, rate) and per
 * transaction day, bank and sender: the clock filters' counts and the ageing card, summed from a
 * few thousand rows instead of a million records. Kept by triggers on dispute_records (0030).
 */
export const disputeCounts = pgTable(
  'dispute_counts',
  {
    open: boolean('open').notNull(),
    dueDate: date('due_date'),
    clockStartedOn: date('clock_started_on'),
    penaltyPerDay: money('penalty_per_day').notNull(),
    currency: text('currency').notNull(),
    transactionDay: date('transaction_day'),
    bankName: text('bank_name').notNull(),
    mailReceivedFrom: text('mail_received_from').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [
    unique('dispute_counts_key')
      .on(t.open, t.dueDate, t.clockStartedOn, t.penaltyPerDay, t.currency, t.transactionDay, t.bankName, t.mailReceivedFrom)
      .nullsNotDistinct(),
    // The bank and sender filters are substrings (as on ej_counts).
    index('dispute_counts_bank_trgm_idx').using('gin', sql`${t.bankName} gin_trgm_ops`),
    index('dispute_counts_from_trgm_idx').using('gin', sql`${t.mailReceivedFrom} gin_trgm_ops`),
  ],
);

/** A dispute's status history: every change, by mail or by an operator, with its reason or note. */
export const disputeEvents = pgTable(
  'dispute_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    disputeId: bigint('dispute_id', { mode: 'number' })
      .notNull()
      .references(() => disputes.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    source: text('source').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    actor: text('actor').notNull().default(''),
    status: text('status').notNull(),
    outcome: text('outcome'),
    reason: text('reason').notNull().default(''),
    note: text('note').notNull().default(''),
    emailId: bigint('email_id', { mode: 'number' }).references(() => emails.id, { onDelete: 'set null' }),
  },
  (t) => [index('dispute_events_dispute_idx').on(t.disputeId, t.id)],
);

/**
 * The answers to writes, by the caller's Idempotency-Key (apps/api/src/plugins/idempotency.ts): a
 * repeated request gets the stored answer instead of writing again. Written in the write's own
 * transaction, so a key is stored exactly when its write is; kept a day. `owner` scopes a key to
 * its user (user:ID, deploy:NAME, anonymous); `body` null: the answer held a secret, not kept.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    owner: text('owner').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    status: integer('status').notNull(),
    contentType: text('content_type'),
    body: text('body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.owner, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);
