// The ingester's queue: the raw messages stored (each batch with its mailbox's IMAP checkpoint, in
// one transaction) and claimed by the workers one at a time.
import { inArray, sql } from 'drizzle-orm';
import type pg from 'pg';
import { type Db, mailChannel, queryRows } from '../client.ts';
import { emails } from '../emails/schema.ts';

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
