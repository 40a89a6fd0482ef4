// Whether the mail is flowing: what each watched mailbox last reported, its checkpoint,
// the queue, what was processed lately and the recent failures; whether ingestion has stalled; and
// one email put back on the queue (Reprocess).
import type { MailFlow as MailFlowSchema, Stall as StallSchema } from '@ejdesk/contract/schemas/mail-flow.ts';
import { eq, sql } from 'drizzle-orm';
import type { Static } from 'typebox';
import { auditLog } from '../audit/schema.ts';
import { type Db, mailChannel, notifySql, queryRows } from '../client.ts';
import { removeProcessedRecords } from '../disputes/index.ts';
import { emails } from '../emails/schema.ts';
import { emailSources } from './schema.ts';

/** A watched mailbox's state; `pnpm ingest --from` runs are sources too, importing then imported. */
export type MailboxState = 'connecting' | 'connected' | 'disconnected' | 'stopped' | 'importing' | 'imported';

/**
 * What an ingester says of its mailbox: its state, why it is not connected, and a finished sync.
 * While it tries again ('connecting'), the reason of the last failure stays on show.
 * Listeners are told only when the state or its reason changes: a watcher reports every poll, and
 * a sync that found nothing is no news for the screens (mail it stored notifies by itself).
 */
export async function reportMailbox(db: Db, source: string, report: { state: MailboxState; error?: string | null; synced?: boolean }): Promise<void> {
  const synced = report.synced ? sql`now()` : sql`null`;
  await db.execute(sql`with before as (select state, last_error from mailbox_status where source = ${source}),
    reported as (
      insert into mailbox_status (source, state, last_error, last_sync_at, update_at)
      values (${source}, ${report.state}, ${report.error ?? null}::text, ${synced}, now())
      on conflict (source) do update set state = excluded.state,
        last_error = case when excluded.state = 'connecting' then mailbox_status.last_error else excluded.last_error end,
        last_sync_at = coalesce(excluded.last_sync_at, mailbox_status.last_sync_at), update_at = now()
      returning state, last_error)
    select pg_notify(${mailChannel}, '') from reported
    where not exists (select 1 from before where before.state = reported.state and before.last_error is not distinct from reported.last_error)`);
}

/** Mail Flow as the API answers it (its schema in @ejdesk/contract): the query fills the schema's type. */
export type MailFlow = Static<typeof MailFlowSchema>;
export type MailboxFlow = MailFlow['mailboxes'][number];
export type MailFailure = MailFlow['failures'][number];
/** Why, in the operators' words (empty when the mail flows), and the threshold. */
export type Stall = Static<typeof StallSchema>;

const minutes = (seconds: number) => (seconds % 60 === 0 ? `${seconds / 60} minute${seconds === 60 ? '' : 's'}` : `${seconds} seconds`);

/**
 * Stalled: a watched mailbox has not finished a sync for longer than stallAfter (never synced:
 * since it was first watched), each named with why it is not connected (an import is a run, not
 * a watch: it never stalls); or the oldest queued
 * message has waited that long. One query, judged by the database's clock; the oldest waiting
 * message comes along for the Mail Flow answer.
 */
async function stallFacts(db: Db, stallAfterSeconds: number): Promise<{ stall: Stall; oldest: Date | null }> {
  const [row] = await queryRows<{
    stale: { source: string; last_error: string | null }[] | string | null;
    oldest: string | Date | null;
    waited_too_long: boolean;
  }>(
    db,
    sql`with oldest as (select q.create_at from email_sources q where q.processed_at is null order by q.email_id limit 1)
        select (select json_agg(json_build_object('source', m.source, 'last_error', m.last_error) order by m.source) from mailbox_status m
                 where m.state not in ('importing', 'imported') and coalesce(m.last_sync_at, m.create_at) < now() - make_interval(secs => ${stallAfterSeconds})) as stale,
               (select create_at from oldest) as oldest,
               coalesce((select create_at < now() - make_interval(secs => ${stallAfterSeconds}) from oldest), false) as waited_too_long`,
  );
  const stale: { source: string; last_error: string | null }[] = typeof row!.stale === 'string' ? JSON.parse(row!.stale) : (row!.stale ?? []);
  const reasons = stale.map((m) => `${m.source} has not synced for more than ${minutes(stallAfterSeconds)}${m.last_error ? `: ${m.last_error}` : ''}.`);
  if (row!.waited_too_long) reasons.push(`Mail has waited more than ${minutes(stallAfterSeconds)} to be processed.`);
  return { stall: { stalled: reasons.length > 0, reasons, stall_after_seconds: stallAfterSeconds }, oldest: row!.oldest ? new Date(row!.oldest) : null };
}

export const mailStall = async (db: Db, stallAfterSeconds: number): Promise<Stall> => (await stallFacts(db, stallAfterSeconds)).stall;

export async function mailFlow(db: Db, stallAfterSeconds: number, failureLimit = 20): Promise<MailFlow> {
  // Per source: messages are stored with origin `<source>#uid=N`; the counts read the queue's and
  // the processed_at index (the last day only).
  const counts = await queryRows<{ source: string; waiting: number; last_hour: number; last_day: number }>(
    db,
    sql`select split_part(origin, '#', 1) as source,
               count(*) filter (where processed_at is null)::int as waiting,
               count(*) filter (where processed_at > now() - interval '1 hour')::int as last_hour,
               count(*) filter (where processed_at > now() - interval '1 day')::int as last_day
        from email_sources
        where processed_at is null or processed_at > now() - interval '1 day'
        group by 1`,
  );
  const boxes = await queryRows<Omit<MailboxFlow, 'waiting' | 'processed_last_hour' | 'processed_last_day'>>(
    db,
    sql`select m.source, m.state, m.last_error, m.last_sync_at, m.update_at,
               c.uid_validity::float8 as uid_validity, c.last_uid::float8 as last_uid, c.update_at as checkpoint_at,
               case when l.expires_at > now() then l.holder end as worker
        from mailbox_status m left join ingest_checkpoints c on c.source = m.source left join mailbox_leases l on l.source = m.source
        order by m.source`,
  );
  const facts = await stallFacts(db, stallAfterSeconds);
  const failures = await queryRows<MailFailure>(
    db,
    sql`select e.id::float8 as email_id, e.email_from, e.subject, e.processing_error as reason, e.update_at as at, split_part(s.origin, '#', 1) as source
        from emails e left join email_sources s on s.email_id = e.id
        where e.processing_error is not null and e.category = 'ej_not_found'
        order by e.update_at desc, e.id desc
        limit ${failureLimit}`,
  );
  const of = (source: string) => counts.find((c) => c.source === source);
  const sum = (pick: (c: (typeof counts)[number]) => number) => counts.reduce((n, c) => n + pick(c), 0);
  return {
    mailboxes: boxes.map((b) => ({
      ...b,
      last_sync_at: b.last_sync_at && new Date(b.last_sync_at),
      update_at: new Date(b.update_at),
      checkpoint_at: b.checkpoint_at && new Date(b.checkpoint_at),
      waiting: of(b.source)?.waiting ?? 0,
      processed_last_hour: of(b.source)?.last_hour ?? 0,
      processed_last_day: of(b.source)?.last_day ?? 0,
    })),
    queue: {
      waiting: sum((c) => c.waiting),
      oldest_waiting_at: facts.oldest,
      processed_last_hour: sum((c) => c.last_hour),
      processed_last_day: sum((c) => c.last_day),
    },
    failures: failures.map((f) => ({ ...f, email_id: Number(f.email_id), at: new Date(f.at) })),
    stalled: facts.stall,
  };
}

/**
 * Put one stored email back on the queue, removing what processing made of it (its files, rows
 * and fingerprints), audited as a reprocess request. False when there is no raw message to
 * process again (seeded rows, or an unknown id).
 */
export async function requeueEmail(db: Db, userId: number, emailId: number, ip: string | null): Promise<boolean> {
  return db.transaction(async (tx) => {
    const taken = await tx.update(emailSources).set({ processedAt: null }).where(eq(emailSources.emailId, emailId)).returning({ id: emailSources.emailId });
    if (taken.length === 0) return false;
    await removeProcessedRecords(tx as unknown as Db, sql`(select ${emailId}::bigint)`);
    await tx.execute(sql`delete from data_files where email_id = ${emailId}`);
    await tx.execute(sql`delete from subject_fingerprints where email_id = ${emailId}`);
    await tx
      .update(emails)
      .set({ isRead: false, category: 'ej_not_found', jsonLoadData: [], processingError: null, updateAt: sql`now()` })
      .where(eq(emails.id, emailId));
    await tx.insert(auditLog).values({ userId, action: 'reprocess', entity: 'email', entityId: String(emailId), ip });
    await tx.execute(notifySql(mailChannel));
    return true;
  });
}

/** An email's category and processing failure now, and whether it waits on the queue; undefined for no such email. */
export async function emailProcessing(db: Db, emailId: number): Promise<{ category: string; processing_error: string | null; waiting: boolean } | undefined> {
  const [row] = await queryRows<{ category: string; processing_error: string | null; waiting: boolean }>(
    db,
    sql`select e.category, e.processing_error, (s.email_id is not null and s.processed_at is null) as waiting
        from emails e left join email_sources s on s.email_id = e.id where e.id = ${emailId}`,
  );
  return row;
}
