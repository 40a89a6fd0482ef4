// What the mail ingester reads and writes: the raw-message queue, the IMAP checkpoint, the sender
// and ignore rules, and the results of processing one message.
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type pg from 'pg';
import { decryptBankPass } from '../bank-pass-cipher.ts';
import { queryRows, type Db } from '../client.ts';
import {
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

/**
 * Commit without waiting for the WAL flush. Safe for the ingester: a transaction lost in a database
 * crash takes its checkpoint with it, so its messages are fetched (or processed) again, and
 * storing is idempotent. It saves a disk flush per message, most of the cost of a small message.
 */
export async function relaxDurability(tx: Tx): Promise<void> {
  await tx.execute(sql`set local synchronous_commit = off`);
}

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

/** Store a message and queue it; false when it was stored before (by this or another worker). */
export async function storeMessage(tx: Tx, message: NewMessage): Promise<boolean> {
  const [row] = await tx
    .insert(emails)
    .values({
      messageId: message.messageId,
      emailFrom: message.emailFrom,
      emailTo: message.emailTo,
      subject: message.subject,
      normalizedSubject: message.normalizedSubject,
      receivedAt: message.receivedAt,
    })
    .onConflictDoNothing({ target: emails.messageId })
    .returning({ id: emails.id });
  if (!row) return false;
  await tx.insert(emailSources).values({
    emailId: row.id,
    raw: message.raw,
    size: message.size,
    origin: message.origin,
    normalizedSubject: message.normalizedSubject,
    fetchError: message.fetchError ?? null,
  });
  return true;
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

/** A stored raw message, read in RAW_CHUNK pieces (until a short one) and joined. */
async function readRaw(tx: Tx, emailId: number): Promise<Buffer> {
  const pieces: Uint8Array[] = [];
  const client = pgClientOf(tx);
  for (let at = 0; ; at += RAW_CHUNK) {
    let piece: Uint8Array;
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
      piece = typeof value === 'string' ? Buffer.from(value.replace(/^\\x/, ''), 'hex') : value;
    }
    pieces.push(piece);
    if (piece.length < RAW_CHUNK) return Buffer.concat(pieces);
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
  raw: Buffer;
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
  const [row] = await queryRows<{ email_id: string | number; raw_length: number; raw: Uint8Array | null; normalized_subject: string; received_at: string | Date; fetch_error: string | null; position: number }>(
    tx as Db,
    // A small message comes with the claim (one round trip); a big one is read in pieces after.
    sql`select q.email_id, length(q.raw) as raw_length, case when length(q.raw) < ${RAW_CHUNK} then q.raw end as raw,
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
        for update of q skip locked`,
  );
  if (!row) return null;
  // Before its bytes are read: a lane may wait here for memory while it holds the claim.
  await beforeRead?.(Number(row.raw_length));
  return {
    emailId: Number(row.email_id),
    raw: row.raw ? Buffer.from(row.raw) : await readRaw(tx, Number(row.email_id)),
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
}

export async function loadIngestRules(db: Db, bankPassKey: Buffer): Promise<IngestRules> {
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
      // Sealed with another key: as if no password were stored (the failure names the file).
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
  };
}

export interface RulesFile {
  senders?: { sender: string; organisation: string }[];
  ignore?: { field: IgnoreRuleField; pattern: string }[];
}

/** Replace the sender mapping and ignore rules (`pnpm ingest --rules FILE`). */
export async function replaceIngestRules(db: Db, rules: RulesFile): Promise<void> {
  await db.transaction(async (tx) => {
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
  ['atm_id', 'text'], ['card_no', 'text'], ['txt_no', 'text'], ['txt_date', 'date'], ['txt_amt', 'numeric'],
  ['dispute_amt', 'numeric'], ['overage', 'numeric'], ['msp_remarks', 'text'], ['msp_ref_no', 'text'],
  ['short_desc', 'text'], ['ej_error', 'text'], ['complaint_date', 'date'], ['short_description', 'text'],
  ['mail_received_from', 'text'], ['mail_subject', 'text'], ['response_code', 'text'],
] as const;
/** ej_records names three of the columns differently. */
const ejNames: Record<string, string> = { txt_date: 'transaction_date', txt_amt: 'transaction_amt', short_desc: 'short_desc_ej_error' };
const fileRowColumnList = rowColumns.map(([c]) => c).join(', ');
const fileRowColumnTypes = rowColumns.map(([c, t]) => `${c} ${t}`).join(', ');
const ejColumnList = rowColumns.map(([c]) => ejNames[c] ?? c).join(', ');
const ejColumnTypes = rowColumns.map(([c, t]) => `${ejNames[c] ?? c} ${t}`).join(', ');

const fileRowColumns = (r: ExtractedRowValues) => ({
  atm_id: r.atmId, card_no: r.cardNo, txt_no: r.txtNo, txt_date: r.txtDate, txt_amt: r.txtAmt, dispute_amt: r.disputeAmt,
  overage: r.overage, msp_remarks: r.mspRemarks, msp_ref_no: r.mspRefNo, short_desc: r.shortDesc, ej_error: r.ejError,
  complaint_date: r.complaintDate, short_description: r.shortDescription, mail_received_from: r.mailReceivedFrom,
  mail_subject: r.mailSubject, response_code: r.responseCode,
});
const ejColumns = (r: ExtractedRowValues) => {
  const { txt_date, txt_amt, short_desc, ...rest } = fileRowColumns(r);
  return { ...rest, transaction_date: txt_date, transaction_amt: txt_amt, short_desc_ej_error: short_desc };
};

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
  /** fileIndex: the record was read from files[fileIndex] (linked by data_file_id). */
  ejRecords: { kind: EjRecordKind; fileName: string; fileIndex?: number; row: ExtractedRowValues }[];
  files: { kind: DataFileKind; name: string; subjectName: string; rows: ExtractedRowValues[] }[];
}

/** Rows per insert statement (one JSON parameter each). */
const ROW_BATCH = 5000;

/** Write a processed message's results and take it off the queue; read = processed. */
export async function saveProcessedMessage(tx: Tx, message: ProcessedMessage): Promise<void> {
  const { emailId } = message;
  await tx
    .update(emails)
    .set({
      ...message.fields,
      category: message.category,
      isRead: true,
      jsonLoadData: message.jsonLoadData,
      processingError: message.processingError,
      updateAt: sql`now()`,
    })
    .where(eq(emails.id, emailId));
  // Rows go in as one JSON parameter per statement: building thousands of bound parameters in JS
  // cost more than parsing, and one statement is one round trip. Files first: the EJ records read
  // from a file are linked to it.
  const fileIds: number[] = [];
  for (const file of message.files) {
    const [created] = await queryRows<{ id: string | number }>(
      tx as Db,
      sql`insert into data_files (kind, name, subject_name, email_id) values (${file.kind}, ${file.name}, ${file.subjectName}, ${emailId}) returning id`,
    );
    fileIds.push(Number(created!.id));
    // In batches: a 20,000-row file is four statements, not one 10 MB JSON text.
    for (let at = 0; at < file.rows.length; at += ROW_BATCH) {
      const rows = file.rows.slice(at, at + ROW_BATCH).map((row, i) => ({ ...fileRowColumns(row), position: at + i }));
      await tx.execute(sql`insert into data_file_rows (data_file_id, position, ${sql.raw(fileRowColumnList)})
        select ${fileIds.at(-1)!}, position, ${sql.raw(fileRowColumnList)}
        from json_to_recordset(${JSON.stringify(rows)}::json) as r(position int, ${sql.raw(fileRowColumnTypes)})`);
    }
  }
  for (let at = 0; at < message.ejRecords.length; at += ROW_BATCH) {
    const records = message.ejRecords.slice(at, at + ROW_BATCH).map((r) => ({
      ...ejColumns(r.row),
      kind: r.kind,
      file_name: r.fileName,
      data_file_id: r.fileIndex === undefined ? null : (fileIds[r.fileIndex] ?? null),
    }));
    await tx.execute(sql`insert into ej_records (kind, file_name, data_file_id, bank_name, email_id, ${sql.raw(ejColumnList)})
      select kind, file_name, data_file_id, ${message.bankName}, ${emailId}, ${sql.raw(ejColumnList)}
      from json_to_recordset(${JSON.stringify(records)}::json) as r(kind text, file_name text, data_file_id bigint, ${sql.raw(ejColumnTypes)})`);
  }
  await tx.update(emailSources).set({ processedAt: sql`now()` }).where(and(eq(emailSources.emailId, emailId), isNull(emailSources.processedAt)));
}

/**
 * Put every stored message back on the queue, removing what processing made of them, so that
 * they are processed again (`pnpm ingest --reprocess`). Seeded rows without a raw message stay.
 */
export async function requeueStoredMessages(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    const sourced = sql`(select email_id from email_sources)`;
    await tx.execute(sql`delete from ej_records where email_id in ${sourced}`);
    await tx.execute(sql`delete from data_files where email_id in ${sourced}`);
    await tx.execute(sql`delete from subject_fingerprints`);
    const rows = await tx.update(emailSources).set({ processedAt: null }).returning({ id: emailSources.emailId });
    await tx.execute(
      sql`update emails set is_read = false, category = 'ej_not_found', json_load_data = '[]', update_at = now() where id in ${sourced}`,
    );
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
  });
}
