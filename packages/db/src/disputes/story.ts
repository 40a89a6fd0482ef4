// A dispute's story, and the ageing of the open ones.
import type { DisputeAgeing as DisputeAgeingSchema, DisputeStory as DisputeStorySchema } from '@ejdesk/contract/schemas/disputes.ts';
import { eq, sql } from 'drizzle-orm';
import type { Static } from 'typebox';
import { type Db, queryRows } from '../client.ts';
import { clockFields } from './clock.ts';
import { disputeClocks } from './stages.ts';
import { disputeCounts, disputeEvents } from './schema.ts';

/** The dispute, its clock on `today`, the rule, every row that names it (in time order) and its history. */
export type DisputeStory = Static<typeof DisputeStorySchema>;
export type DisputeAgeing = Static<typeof DisputeAgeingSchema>;

export async function disputeStory(db: Db, id: number, today: string): Promise<DisputeStory | null> {
  const [dispute] = await queryRows<Omit<DisputeStory, 'rows' | 'history' | 'clocks'>>(
    db,
    sql`select ${sql.join(
      ['id', 'atm_id', 'txt_no', 'card_no', 'bank_name', 'status_source', 'status_reason', 'status_by', 'status_at', 'rule_id', 'network', 'cost_bearer'].map(
        (c) => sql`disputes.${sql.identifier(c)}`,
      ),
      sql`, `,
    )}, ${sql.join(
      ['transaction_date', 'complaint_date', 'clock_started_on', 'penalty_per_day', 'stopped_on'].map(
        (c) => sql`disputes.${sql.identifier(c)}::text as ${sql.identifier(c)}`,
      ),
      sql`, `,
    )}, ${clockFields(today)}, r.name as rule_name, case when disputes.status = 'resolved' then 'closed' else disputes.stage end as stage
        from disputes left join tat_rules r on r.id = disputes.rule_id
        where disputes.id = ${id}`,
  );
  if (!dispute) return null;
  const rows = await queryRows<DisputeStory['rows'][number]>(
    db,
    sql`select * from (
          select 'record' as source, r.id as record_id, null::bigint as file_row_id, r.data_file_id as file_id, r.file_name,
                 f.kind as file_kind, r.email_id, e.subject as email_subject, e.email_from, e.received_at,
                 r.atm_id, r.card_no, r.txt_no, r.transaction_date::text, r.transaction_amt::text, r.dispute_amt::text,
                 r.complaint_date::text, r.msp_remarks, r.msp_ref_no, r.short_description, r.bank_name
          from dispute_records l join ej_records r on r.id = l.record_id
          left join emails e on e.id = r.email_id left join data_files f on f.id = r.data_file_id
          where l.dispute_id = ${id}
          union all
          select 'file_row', null, fr.id, f.id, f.name, f.kind, f.email_id, e.subject, e.email_from, e.received_at,
                 fr.atm_id, fr.card_no, fr.txt_no, fr.txt_date::text, fr.txt_amt::text, fr.dispute_amt::text,
                 fr.complaint_date::text, fr.msp_remarks, fr.msp_ref_no, fr.short_description, ''
          from data_file_rows fr join data_files f on f.id = fr.data_file_id left join emails e on e.id = f.email_id
          where fr.txt_no = ${dispute.txt_no as string} and fr.atm_id = ${dispute.atm_id as string} and fr.atm_id <> '' and fr.txt_no <> ''
            and (${dispute.card_no as string} = '' or fr.card_no = '' or fr.card_no = ${dispute.card_no as string})
            and f.kind in ('missing', 'missing_txn', 'between_successful')
        ) story order by received_at nulls first, coalesce(record_id, 0), coalesce(file_row_id, 0)`,
  );
  const history = await db
    .select({
      id: disputeEvents.id,
      at: disputeEvents.at,
      source: disputeEvents.source,
      actor: disputeEvents.actor,
      status: disputeEvents.status,
      outcome: disputeEvents.outcome,
      reason: disputeEvents.reason,
      note: disputeEvents.note,
      email_id: disputeEvents.emailId,
      stage: disputeEvents.stage,
    })
    .from(disputeEvents)
    .where(eq(disputeEvents.disputeId, id))
    .orderBy(disputeEvents.id);
  // bigint ids arrive as text from node-postgres.
  const numeric = <T>(value: T) => (value === null ? null : Number(value));
  return {
    ...dispute,
    id: Number(dispute.id),
    rows: rows.map((r) => ({
      ...r,
      record_id: numeric(r.record_id),
      file_row_id: numeric(r.file_row_id),
      file_id: numeric(r.file_id),
      email_id: numeric(r.email_id),
    })),
    history: history as DisputeStory['history'],
    clocks: await disputeClocks(db, id, today),
  };
}

/** The ageing buckets of the dashboard's card, in days since the clock started. */
export const ageingBuckets = [
  { key: 'days_0_2', from: 0, to: 2 },
  { key: 'days_3_5', from: 3, to: 5 },
  { key: 'days_6_10', from: 6, to: 10 },
  { key: 'over_10', from: 11, to: undefined },
] as const;

/**
 * The open dispute records of a month of transactions (from, to: YYYY-MM-DD) by age, how many are
 * breached, how many are due today, and the penalty they have accrued: the counts the list gives for the same filters.
 */
export async function disputeAgeing(db: Db, from: string, to: string, today: string): Promise<DisputeAgeing> {
  // From dispute_counts (kept by triggers): a few thousand rows for any month of a million records.
  const c = disputeCounts;
  const age = sql`(${today}::date - ${c.clockStartedOn})`;
  const buckets = ageingBuckets.map(
    (b) =>
      sql`coalesce(sum(${c.n}) filter (where ${age} >= ${b.from}${b.to === undefined ? sql`` : sql` and ${age} <= ${b.to}`}), 0)::int as ${sql.identifier(b.key)}`,
  );
  const [row] = await queryRows<DisputeAgeing>(
    db,
    sql`select ${sql.join(buckets, sql`, `)},
          coalesce(sum(${c.n}) filter (where ${c.dueDate} < ${today}::date), 0)::int as breached,
          coalesce(sum(${c.n}) filter (where ${c.dueDate} = ${today}::date), 0)::int as due_today,
          coalesce(sum(${c.n} * greatest(0, ${today}::date - ${c.dueDate}) * ${c.penaltyPerDay}) filter (where ${c.dueDate} < ${today}::date), 0)::text as penalty_exposure,
          coalesce(max(${c.currency}) filter (where ${c.n} > 0), '') as currency
        from ${c}
        where ${c.open} and ${c.transactionDay} between ${from}::date and ${to}::date`,
  );
  return row!;
}
