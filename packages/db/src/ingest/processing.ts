// What processing one message writes: its email, EJ records and data files (with their rows) in one
// transaction; the same-subject fingerprints; putting messages back on the queue; a failure.
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { type Db, mailChannel, notifySql, queryRows } from '../client.ts';
import { applyMessageToDisputes, removeProcessedRecords } from '../disputes/index.ts';
import type { EjRecordKind } from '../ej-records/schema.ts';
import { type EmailCategory, emails } from '../emails/schema.ts';
import type { DataFileKind } from '../files/schema.ts';
import { matchDisputes } from '../journals/index.ts';
import { emailSources, subjectFingerprints } from './schema.ts';

/** A transaction handle or the database: everything here runs inside the caller's transaction. */
type Tx = Pick<Db, 'execute' | 'select' | 'insert' | 'update' | 'delete'>;

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
  // A complaint arriving after its journal finds it (under the linking's lock, still held).
  await matchDisputes(tx as Db, { emailId });
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
