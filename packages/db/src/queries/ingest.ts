// What the mail ingester reads and writes: the raw-message queue, the IMAP checkpoint, the sender
// and ignore rules, and the results of processing one message.
import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type pg from 'pg';
import { decryptBankPass } from '../bank-pass-cipher.ts';
import { mailChannel, notifySql, queryRows, type Db } from '../client.ts';
import { applyMessageToDisputes, clockSettings, removeProcessedRecords } from './disputes.ts';

import {
  auditLog,
  bankMsps,
  bankPasswords,
  emails,
  emailSources,
  ignoreRules,
  mailSenders,
  subjectFingerprints,
  type DataFileKind,
  type EjRecordKind,
  type EmailCategory,
  type IgnoreRuleField,
} from '../schema.ts';

/** A transaction handle or the database: everything here runs inside the caller's transaction. */
type Tx = Pick<Db, 'execute' | 'select' | 'insert' | 'update' | 'delete'>;

export interface NewMessage {
  /** The Message-ID, else `sha256:` and the hash of the raw message. */
  messageId: string;
  emailFrom: string;
  emailTo: string;
  subject: string;
  normalizedSubject: string;
  receivedAt: Date;
  raw: Buffer;
  size: number;
  origin: string;
  /** Set when the message could not be stored whole (e.g. only its headers were fetched). */
  fetchError?: string | undefined;
}

/**
 * Store a message and queue it; false when it was stored before (by this or another worker).
 * One statement: the email row (skipped on a known Message-ID) and its raw source.
 */
export async function storeMessage(tx: Tx, message: NewMessage): Promise<boolean> {
  const rows = await queryRows<{ email_id: string | number }>(
    tx as Db,
    sql`with e as (
          insert into emails (message_id, email_from, email_to, subject, normalized_subject, received_at)
          values (${message.messageId}, ${message.emailFrom}, ${message.emailTo}, ${message.subject}, ${message.normalizedSubject},
                  ${message.receivedAt.toISOString()}::timestamptz)
          on conflict (message_id) do nothing
          returning id)
        , s as (
          insert into email_sources (email_id, raw, size, origin, normalized_subject, fetch_error)
          select id, ${message.raw}::bytea, ${message.size}::int, ${message.origin}::text, ${message.normalizedSubject}::text, ${message.fetchError ?? null}::text
          from e
          returning email_id)
        select email_id, pg_notify(${mailChannel}, '') from s`,
  );
  return rows.length > 0;
}

/**
 * Raw messages are read from the database in pieces of this size, and from a real server in
 * PostgreSQL's binary format: in text format node-postgres would receive bytea as hex, so one 40 MB
 * message would pass through an 80 MB string (and its copies) in the ingester's memory.
 */
const RAW_CHUNK = 4 * 1024 * 1024;

/** The node-postgres client under a drizzle transaction (none for the embedded database). */
const pgClientOf = (tx: Tx): pg.ClientBase | undefined => {
  const client = (tx as unknown as { session?: { client?: unknown } }).session?.client;
  // A pooled node-postgres client (duck-typed: the pg module may be loaded more than once).
  const looksLikePg = client && typeof (client as pg.ClientBase).query === 'function' && 'connectionParameters' in (client as object);
  return looksLikePg ? (client as pg.ClientBase) : undefined;
};

/**
 * A stored raw message in RAW_CHUNK pieces (until a short one), read as the caller takes them: a
 * 40 MB message is never whole in the ingester's memory. Read inside the claiming transaction.
 */
async function* readRaw(tx: Tx, emailId: number): AsyncGenerator<Buffer> {
  const client = pgClientOf(tx);
  for (let at = 0; ; at += RAW_CHUNK) {
    let piece: Buffer;
    if (client) {
      const query: pg.QueryConfig & { binary: boolean; types: pg.CustomTypesConfig } = {
        text: 'select substring(raw from $1 for $2) as raw from email_sources where email_id = $3',
        values: [at + 1, RAW_CHUNK, emailId],
        binary: true,
        // The value as the server sent it: in binary format, a bytea's bytes (pg-types would decode them as text).
        types: { getTypeParser: (() => (value: Buffer) => value) as unknown as pg.CustomTypesConfig['getTypeParser'] },
      };
      piece = (await client.query<{ raw: Buffer }>(query)).rows[0]!.raw;
    } else {
      const [row] = await queryRows<{ raw: Uint8Array | string }>(
        tx as Db,
        sql`select substring(raw from ${at + 1} for ${RAW_CHUNK}) as raw from email_sources where email_id = ${emailId}`,
      );
      // PGlite answers bytes; a text-format answer would be \x-prefixed hex.
      const value = row!.raw;
      piece = typeof value === 'string' ? Buffer.from(value.replace(/^\\x/, ''), 'hex') : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    }
    if (piece.length) yield piece;
    if (piece.length < RAW_CHUNK) return;
  }
}

export async function storedMessageIds(tx: Tx, messageIds: string[]): Promise<Set<string>> {
  if (messageIds.length === 0) return new Set();
  const rows = await tx.select({ id: emails.messageId }).from(emails).where(inArray(emails.messageId, messageIds));
  return new Set(rows.map((r) => r.id!));
}

export interface Checkpoint {
  uidValidity: number;
  lastUid: number;
}

/**
 * Lock a mailbox's checkpoint for this transaction, or null when another worker holds it (that
 * worker is fetching; this one should process the queue instead).
 */
export async function lockCheckpoint(tx: Tx, source: string): Promise<Checkpoint | null> {
  await tx.execute(sql`insert into ingest_checkpoints (source, uid_validity, last_uid) values (${source}, 0, 0) on conflict do nothing`);
  const [row] = await queryRows<{ uid_validity: string | number; last_uid: string | number }>(
    tx as Db,
    sql`select uid_validity, last_uid from ingest_checkpoints where source = ${source} for update skip locked`,
  );
  return row ? { uidValidity: Number(row.uid_validity), lastUid: Number(row.last_uid) } : null;
}

export async function saveCheckpoint(tx: Tx, source: string, checkpoint: Checkpoint): Promise<void> {
  await tx.execute(
    sql`update ingest_checkpoints set uid_validity = ${checkpoint.uidValidity}, last_uid = ${checkpoint.lastUid}, update_at = now() where source = ${source}`,
  );
}

export interface QueuedMessage {
  emailId: number;
  /** Its raw bytes in pieces, read as they are taken (inside the claiming transaction). */
  raw: Iterable<Buffer> | AsyncIterable<Buffer>;
  size: number;
  /** How many stored messages share its subject up to and including it (1 without a subject). */
  positionInSubject: number;
  normalizedSubject: string;
  receivedAt: Date;
  fetchError: string | null;
}

/**
 * Claim the next queued message for this transaction. Workers skip each other's claims (SKIP
 * LOCKED), and a message waits while an earlier one with the same subject is still queued, so a
 * subject's messages are always processed in order and "same subject" means the same with any
 * number of workers.
 */
export async function claimNextMessage(tx: Tx, beforeRead?: (bytes: number) => Promise<void>): Promise<QueuedMessage | null> {
  const [row] = await queryRows<{
    email_id: string | number;
    raw_length: number;
    raw: Uint8Array | null;
    normalized_subject: string;
    received_at: string | Date;
    fetch_error: string | null;
    position: number;
  }>(
    tx as Db,
    // A small message comes with the claim (one round trip); a big one is read in pieces after.
    // Taken off the queue in the same statement: the transaction's outcome decides (a rollback
    // puts it back), and it saves a statement per message.
    sql`with c as (
          select q.email_id, length(q.raw) as raw_length, case when length(q.raw) < ${RAW_CHUNK} then q.raw end as raw,
                 q.normalized_subject, q.fetch_error, e.received_at,
                 case when q.normalized_subject = '' then 1
                      else (select count(*) from email_sources p
                            where p.normalized_subject = q.normalized_subject and p.email_id <= q.email_id) end::int as position
          from email_sources q join emails e on e.id = q.email_id
          where q.processed_at is null
            and not exists (select 1 from email_sources p
                            where p.normalized_subject = q.normalized_subject and p.processed_at is null and p.email_id < q.email_id)
          order by q.email_id
          limit 1
          for update of q skip locked),
        taken as (update email_sources s set processed_at = now() from c where s.email_id = c.email_id returning s.email_id)
        select c.* from c join taken on taken.email_id = c.email_id`,
  );
  if (!row) return null;
  // Before its bytes are read: a lane may wait here for memory while it holds the claim.
  await beforeRead?.(Number(row.raw_length));
  return {
    emailId: Number(row.email_id),
    raw: row.raw ? [Buffer.from(row.raw)] : readRaw(tx, Number(row.email_id)),
    size: Number(row.raw_length),
    positionInSubject: Number(row.position),
    normalizedSubject: row.normalized_subject,
    receivedAt: new Date(row.received_at),
    fetchError: row.fetch_error,
  };
}

export async function countQueuedMessages(db: Db): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from email_sources where processed_at is null`);
  return row?.n ?? 0;
}

export interface IngestRules {
  /** lower-case address or @domain -> bank or MSP name. */
  senders: Map<string, string>;
  /** lower-case bank or MSP name -> the banks whose passwords may open its files. */
  banksOf: Map<string, string[]>;
  ignore: Record<IgnoreRuleField, string[]>;
  /** lower-case bank name -> its stored password (decrypted, kept in memory only). */
  passwords: Map<string, string>;
  /** The time zone of the turnaround clock's days (TAT_TIME_ZONE). */
  clockTimeZone: string;
}

export async function loadIngestRules(db: Db, bankPassKey: Buffer, clockTimeZone = clockSettings.TAT_TIME_ZONE.default!): Promise<IngestRules> {
  const [senders, pairs, ignore, stored] = await Promise.all([
    db.select().from(mailSenders),
    db.select().from(bankMsps),
    db.select().from(ignoreRules),
    db.select().from(bankPasswords),
  ]);
  const banksOf = new Map<string, string[]>();
  const add = (org: string, bank: string) => {
    const list = banksOf.get(org.toLowerCase()) ?? [];
    if (!list.includes(bank)) list.push(bank);
    banksOf.set(org.toLowerCase(), list);
  };
  for (const pair of pairs) {
    add(pair.bankName, pair.bankName);
    add(pair.msp, pair.bankName);
  }
  const passwords = new Map<string, string>();
  for (const row of stored) {
    try {
      passwords.set(row.bankName.toLowerCase(), decryptBankPass(bankPassKey, row.bankPassEncrypted));
    } catch {
      // Sealed with a key not in the ring: as if no password were stored (the failure names the file).
    }
  }
  return {
    senders: new Map(senders.map((s) => [s.sender.toLowerCase(), s.organisation])),
    banksOf,
    ignore: {
      sender: ignore.filter((r) => r.field === 'sender').map((r) => r.pattern.toLowerCase()),
      subject: ignore.filter((r) => r.field === 'subject').map((r) => r.pattern.toLowerCase()),
    },
    passwords,
    clockTimeZone,
  };
}

export interface RulesFile {
  senders?: { sender: string; organisation: string }[];
  ignore?: { field: IgnoreRuleField; pattern: string }[];
}

/** Replace the sender mapping and ignore rules (`pnpm ingest --rules FILE`), audited as one change. */
export async function replaceIngestRules(db: Db, rules: RulesFile): Promise<void> {
  await db.transaction(async (tx) => {
    const replaced = [rules.senders && `${rules.senders.length} sender mappings`, rules.ignore && `${rules.ignore.length} ignore rules`].filter(Boolean);
    await tx.insert(auditLog).values({ userId: null, action: 'replace', entity: 'ingest_rules', detail: `rules file: ${replaced.join(', ') || 'nothing'}` });
    if (rules.senders) {
      await tx.delete(mailSenders);
      if (rules.senders.length) await tx.insert(mailSenders).values(rules.senders);
    }
    if (rules.ignore) {
      await tx.delete(ignoreRules);
      if (rules.ignore.length) await tx.insert(ignoreRules).values(rules.ignore);
    }
  });
}

/** Which of these fingerprints are new for the subject, recording them as seen by this email. */
export async function claimFingerprints(tx: Tx, normalizedSubject: string, emailId: number, fingerprints: string[]): Promise<Set<string>> {
  if (fingerprints.length === 0) return new Set();
  const rows = await tx
    .insert(subjectFingerprints)
    .values([...new Set(fingerprints)].map((fingerprint) => ({ normalizedSubject, fingerprint, emailId })))
    .onConflictDoNothing()
    .returning({ fingerprint: subjectFingerprints.fingerprint });
  return new Set(rows.map((r) => r.fingerprint));
}

/** One extracted row: the 16 labelled columns (dates as YYYY-MM-DD, amounts as decimal text). */
export interface ExtractedRowValues {
  atmId: string;
  cardNo: string;
  txtNo: string;
  txtDate: string | null;
  txtAmt: string | null;
  disputeAmt: string | null;
  overage: string | null;
  mspRemarks: string;
  mspRefNo: string;
  shortDesc: string;
  ejError: string;
  complaintDate: string | null;
  shortDescription: string;
  mailReceivedFrom: string;
  mailSubject: string;
  responseCode: string;
}

const rowColumns = [
  ['atm_id', 'text'],
  ['card_no', 'text'],
  ['txt_no', 'text'],
  ['txt_date', 'date'],
  ['txt_amt', 'numeric'],
  ['dispute_amt', 'numeric'],
  ['overage', 'numeric'],
  ['msp_remarks', 'text'],
  ['msp_ref_no', 'text'],
  ['short_desc', 'text'],
  ['ej_error', 'text'],
  ['complaint_date', 'date'],
  ['short_description', 'text'],
  ['mail_received_from', 'text'],
  ['mail_subject', 'text'],
  ['response_code', 'text'],
] as const;
/** ej_records names three of the columns differently. */
const ejNames: Record<string, string> = { txt_date: 'transaction_date', txt_amt: 'transaction_amt', short_desc: 'short_desc_ej_error' };
const fileRowColumnList = rowColumns.map(([c]) => c).join(', ');
const fileRowColumnTypes = rowColumns.map(([c, t]) => `${c} ${t}`).join(', ');
const ejColumnList = rowColumns.map(([c]) => ejNames[c] ?? c).join(', ');

const fileRowColumns = (r: ExtractedRowValues) => ({
  atm_id: r.atmId,
  card_no: r.cardNo,
  txt_no: r.txtNo,
  txt_date: r.txtDate,
  txt_amt: r.txtAmt,
  dispute_amt: r.disputeAmt,
  overage: r.overage,
  msp_remarks: r.mspRemarks,
  msp_ref_no: r.mspRefNo,
  short_desc: r.shortDesc,
  ej_error: r.ejError,
  complaint_date: r.complaintDate,
  short_description: r.shortDescription,
  mail_received_from: r.mailReceivedFrom,
  mail_subject: r.mailSubject,
  response_code: r.responseCode,
});

export interface ProcessedMessage {
  emailId: number;
  fields: {
    emailFrom: string;
    emailTo: string;
    subject: string;
    emailBody: string;
    emailBodyHtml: string;
    receivedAt: Date;
    numOfEmail: number;
  };
  category: EmailCategory;
  jsonLoadData: Record<string, unknown>[];
  processingError: string | null;
  bankName: string;
  /** The MSP the message came from (its rows are the MSP's results), or null. */
  msp: string | null;
  /** The message's day on the turnaround clock (a resolution it brings stops the clock then). */
  clockDay: string;
  /** Dispute rows read from the message's body (EJ records with no file). */
  bodyRows: ExtractedRowValues[];
  /** Data files and their rows; a file with an ejKind also gives each row as an EJ record of that kind. */
  files: { kind: DataFileKind; name: string; subjectName: string; ejKind: EjRecordKind | null; rows: ExtractedRowValues[] }[];
}

/** Rows per insert statement (one JSON parameter each): a 20,000-row file is four statements, not one 10 MB text. */
const ROW_BATCH = 5000;

const rowsJson = (rows: ExtractedRowValues[], from: number) => JSON.stringify(rows.map((row, i) => ({ ...fileRowColumns(row), position: from + i })));
const rowsSource = (json: string) =>
  sql`src as materialized (select * from json_to_recordset(${json}::json) as r(position int, ${sql.raw(fileRowColumnTypes)}))`;

/**
 * Write a processed message's results; read = processed. (It was taken off the queue when it was
 * claimed, in this same transaction.) Rows go in as one JSON parameter per statement: building
 * thousands of bound parameters in JS cost more than parsing, and a file, its rows and its EJ
 * records are one statement, one round trip, reading that JSON once.
 */
export async function saveProcessedMessage(tx: Tx, message: ProcessedMessage): Promise<void> {
  const { emailId, bankName, fields } = message;
  // The email's own update rides along with the first statement that writes rows (one round trip fewer).
  let emailUpdate: SQL | null = sql`upd as (update emails set
      email_from = ${fields.emailFrom}, email_to = ${fields.emailTo}, subject = ${fields.subject},
      email_body = ${fields.emailBody}, email_body_html = ${fields.emailBodyHtml},
      received_at = ${fields.receivedAt.toISOString()}::timestamptz, num_of_email = ${fields.numOfEmail}::int,
      category = ${message.category}, is_read = true, json_load_data = ${JSON.stringify(message.jsonLoadData)}::json,
      processing_error = ${message.processingError}::text, update_at = now()
    where id = ${emailId})`;
  const withEmailUpdate = () => {
    const update = emailUpdate;
    emailUpdate = null;
    return update ? sql`${update}, ` : sql``;
  };
  for (let at = 0; at < message.bodyRows.length; at += ROW_BATCH) {
    await tx.execute(sql`with ${withEmailUpdate()}${rowsSource(rowsJson(message.bodyRows.slice(at, at + ROW_BATCH), at))}
      insert into ej_records (kind, file_name, data_file_id, bank_name, email_id, ${sql.raw(ejColumnList)})
      select 'dispute', '', null, ${bankName}, ${emailId}, ${sql.raw(fileRowColumnList)} from src order by position`);
  }
  for (const file of message.files) {
    let fileId: number | undefined;
    for (let at = 0; at === 0 || at < file.rows.length; at += ROW_BATCH) {
      const theFile =
        fileId === undefined
          ? sql`f as (insert into data_files (kind, name, subject_name, email_id) values (${file.kind}, ${file.name}, ${file.subjectName}, ${emailId}) returning id)`
          : sql`f as (select ${fileId}::bigint as id)`;
      const records = file.ejKind
        ? sql`, e as (insert into ej_records (kind, file_name, data_file_id, bank_name, email_id, ${sql.raw(ejColumnList)})
              select ${file.ejKind}, ${file.name}, f.id, ${bankName}, ${emailId}, ${sql.raw(fileRowColumnList)} from f, src order by position)`
        : sql``;
      const [row] = await queryRows<{ id: string | number }>(
        tx as Db,
        sql`with ${withEmailUpdate()}${theFile}, ${rowsSource(rowsJson(file.rows.slice(at, at + ROW_BATCH), at))},
          r as (insert into data_file_rows (data_file_id, position, ${sql.raw(fileRowColumnList)})
                select f.id, position, ${sql.raw(fileRowColumnList)} from f, src)
          ${records}
          select id from f`,
      );
      fileId = Number(row!.id);
    }
  }
  if (emailUpdate) await tx.execute(sql`with ${emailUpdate} select 1`);
  await applyMessageToDisputes(tx as Db, { emailId, msp: message.msp, day: message.clockDay });
  await tx.execute(notifySql(mailChannel));
}

/**
 * Put every stored message back on the queue, removing what processing made of them, so that
 * they are processed again (`pnpm ingest --reprocess`). Seeded rows without a raw message stay.
 */
export async function requeueStoredMessages(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    const sourced = sql`(select email_id from email_sources)`;
    await removeProcessedRecords(tx as Db, sourced);
    await tx.execute(sql`delete from data_files where email_id in ${sourced}`);
    await tx.execute(sql`delete from subject_fingerprints`);
    const rows = await tx.update(emailSources).set({ processedAt: null }).returning({ id: emailSources.emailId });
    await tx.execute(sql`update emails set is_read = false, category = 'ej_not_found', json_load_data = '[]', update_at = now() where id in ${sourced}`);
    return rows.length;
  });
}

/** Take a message off the queue as ej_not_found with the reason, keeping what was stored of it. */
export async function markProcessingFailed(db: Db, emailId: number, reason: string): Promise<void> {
  await db.transaction(async (tx) => {
    const taken = await tx
      .update(emailSources)
      .set({ processedAt: sql`now()` })
      .where(and(eq(emailSources.emailId, emailId), isNull(emailSources.processedAt)))
      .returning({ id: emailSources.emailId });
    if (taken.length === 0) return; // another worker finished it meanwhile
    await tx
      .update(emails)
      .set({ category: 'ej_not_found', isRead: true, processingError: reason, updateAt: sql`now()` })
      .where(eq(emails.id, emailId));
    await tx.execute(notifySql(mailChannel));
  });
}
