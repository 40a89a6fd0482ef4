// The dispute desk: each dispute's turnaround clock (due date, age, days overdue, penalty), its
// status from the mail or an operator, its story, and the ageing of the open ones. A dispute is the
// EJ records of one transaction (dispute_records_link in migration 0029 groups them); its clock is
// the most specific TAT rule's (dispute_clocks_refresh). Age, days overdue and the penalty depend on
// the day, so they are computed for the day asked, never stored.
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Static } from 'typebox';
import type { DisputeAgeing as DisputeAgeingSchema, DisputeStory as DisputeStorySchema } from '@ejdesk/contract/schemas/disputes.ts';
import { SettingError, text as textSetting } from '@ejdesk/settings';
import { mailChannel, notifySql, queryRows, type Db } from '../client.ts';
import {
  auditLog,
  disputeCounts,
  disputeEvents,
  disputeRecords,
  disputeOutcomes,
  disputes,
  disputeStatuses,
  tatClockStarts,
  tatDayKinds,
  tatRules,
  tatScopes,
  type DisputeOutcome,
  type DisputeStatus,
  type TatClockStart,
  type TatDayKind,
  type TatScope,
} from '../schema.ts';
import { RuleProblem, auditedList } from './rules.ts';

export const clockSettings = {
  TAT_TIME_ZONE: textSetting({
    default: 'Asia/Kolkata',
    pattern: '^[A-Za-z_]+(/[A-Za-z0-9_+-]+)*$',
    accepts: 'an IANA time zone such as Asia/Kolkata or UTC',
    description: "The time zone of the turnaround clock's days: when a day ends, a dispute is a day older and may be breached.",
  }),
};

/** YYYY-MM-DD of an instant in a time zone (the clock's day). */
export function dayIn(timeZone: string, instant: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);
}

/** TAT_TIME_ZONE when Intl knows it; else a SettingError stops the process. */
export function clockTimeZoneOf(settings: { TAT_TIME_ZONE: string }): string {
  try {
    dayIn(settings.TAT_TIME_ZONE);
    return settings.TAT_TIME_ZONE;
  } catch {
    throw new SettingError(`TAT_TIME_ZONE is '${settings.TAT_TIME_ZONE}', which is not a time zone; it accepts an IANA time zone such as Asia/Kolkata or UTC.`);
  }
}

// ---------------------------------------------------------------------------------------------
// TAT rules: an admin list; every write applies the rules to the open disputes in its transaction.

export interface TatRuleInput {
  name: string;
  scope: TatScope;
  scopeValue: string;
  clockStart: TatClockStart;
  days: number;
  dayKind: TatDayKind;
  holidays: string[];
  penaltyPerDay: string;
  currency: string;
}

const isoDate = /^\d{4}-\d{2}-\d{2}$/;
const realDate = (value: string) => isoDate.test(value) && new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;

/** The checked, normal form of a TAT rule (names trimmed, holidays sorted and unique), or a RuleProblem. */
export function checkTatRule(value: Record<string, unknown>): TatRuleInput {
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const name = text(value.name);
  if (!name || name.length > 200) throw new RuleProblem('name must be a text of 1 to 200 characters');
  const scope = value.scope as TatScope;
  if (!tatScopes.includes(scope)) throw new RuleProblem(`scope must be one of ${tatScopes.join(', ')}`);
  const scopeValue = text(value.scope_value);
  if (scope === 'all' && scopeValue) throw new RuleProblem('scope_value must be empty when the scope is all');
  if (scope !== 'all' && (!scopeValue || scopeValue.length > 200)) throw new RuleProblem(`scope_value must name the ${scope} (1 to 200 characters)`);
  const clockStart = value.clock_start as TatClockStart;
  if (!tatClockStarts.includes(clockStart)) throw new RuleProblem(`clock_start must be one of ${tatClockStarts.join(', ')}`);
  const days = value.days;
  if (typeof days !== 'number' || !Number.isInteger(days) || days < 0 || days > 3650) throw new RuleProblem('days must be a whole number from 0 to 3650');
  const dayKind = value.day_kind as TatDayKind;
  if (!tatDayKinds.includes(dayKind)) throw new RuleProblem(`day_kind must be one of ${tatDayKinds.join(', ')}`);
  const holidays = value.holidays ?? [];
  if (!Array.isArray(holidays) || holidays.length > 1000 || !holidays.every((d) => typeof d === 'string' && realDate(d)))
    throw new RuleProblem('holidays must be a list of at most 1000 dates (YYYY-MM-DD)');
  const penalty = value.penalty_per_day;
  const penaltyText = typeof penalty === 'number' ? String(penalty) : text(penalty);
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(penaltyText)) throw new RuleProblem('penalty_per_day must be an amount of 0 or more with at most 2 decimals');
  const currency = text(value.currency).toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) throw new RuleProblem('currency must be a three-letter code such as INR');
  return {
    name,
    scope,
    scopeValue,
    clockStart,
    days,
    dayKind,
    holidays: [...new Set(holidays as string[])].sort(),
    penaltyPerDay: penaltyText,
    currency,
  };
}

const tatRuleColumns = {
  id: tatRules.id,
  name: tatRules.name,
  scope: tatRules.scope,
  scope_value: tatRules.scopeValue,
  clock_start: tatRules.clockStart,
  days: tatRules.days,
  day_kind: tatRules.dayKind,
  holidays: tatRules.holidays,
  penalty_per_day: tatRules.penaltyPerDay,
  currency: tatRules.currency,
  create_at: tatRules.createAt,
  update_at: tatRules.updateAt,
};
export type TatRuleRow = {
  id: number;
  name: string;
  scope: string;
  scope_value: string;
  clock_start: string;
  days: number;
  day_kind: string;
  holidays: string[];
  penalty_per_day: string;
  currency: string;
  create_at: Date;
  update_at: Date;
};

const ruleValues = (input: TatRuleInput) => ({
  name: input.name,
  scope: input.scope,
  scopeValue: input.scopeValue,
  clockStart: input.clockStart,
  days: input.days,
  dayKind: input.dayKind,
  holidays: input.holidays,
  penaltyPerDay: input.penaltyPerDay,
  currency: input.currency,
});

/** Apply the rules to every open dispute (or the ones given): returns how many changed. */
export async function refreshDisputeClocks(db: Db, ids: number[] | null = null): Promise<number> {
  const [row] = await queryRows<{ changed: number }>(db, sql`select dispute_clocks_refresh(${ids === null ? null : sql.param(ids)}::bigint[]) as changed`);
  return Number(row?.changed ?? 0);
}

/** Runs a write, then moves the open disputes onto the rules as they now are. */
const thenRefresh =
  <A extends unknown[]>(write: (tx: Db, ...args: A) => Promise<TatRuleRow | undefined>) =>
  async (tx: Db, ...args: A) => {
    const row = await write(tx, ...args);
    if (row) await refreshDisputeClocks(tx);
    return row;
  };

const describeTatRule = (r: TatRuleRow) =>
  `${r.name}: ${r.scope === 'all' ? 'all disputes' : `${r.scope} ${r.scope_value}`}, ${r.days} ${r.day_kind} days from the ${r.clock_start.replace('_', ' ')}, ${r.penalty_per_day} ${r.currency} a day after`;

export const tatRuleList = auditedList<TatRuleInput, TatRuleRow>({
  entity: 'tat_rule',
  list: (db) => db.select(tatRuleColumns).from(tatRules).orderBy(tatRules.scope, tatRules.scopeValue, tatRules.id) as Promise<TatRuleRow[]>,
  insert: thenRefresh(
    async (tx, input: TatRuleInput) =>
      (await tx.insert(tatRules).values(ruleValues(input)).onConflictDoNothing().returning(tatRuleColumns))[0] as TatRuleRow | undefined,
  ),
  update: thenRefresh(
    async (tx, id: number, input: TatRuleInput) =>
      (
        await tx
          .update(tatRules)
          .set({ ...ruleValues(input), updateAt: sql`now()` })
          .where(eq(tatRules.id, id))
          .returning(tatRuleColumns)
      )[0] as TatRuleRow | undefined,
  ),
  remove: thenRefresh(async (tx, id: number) => (await tx.delete(tatRules).where(eq(tatRules.id, id)).returning(tatRuleColumns))[0] as TatRuleRow | undefined),
  describe: describeTatRule,
});

// ---------------------------------------------------------------------------------------------
// The clock of a dispute on a day.

/** A dispute's clock on the day `today` (YYYY-MM-DD): age, days overdue, penalty, as SQL over `disputes`. */
export const clockOn = (today: string) => {
  const day = sql`coalesce(${disputes.stoppedOn}, ${today}::date)`;
  const overdue = sql`greatest(0, ${day} - ${disputes.dueDate})`;
  return {
    age: sql`(${day} - ${disputes.clockStartedOn})`,
    overdue,
    penalty: sql`(coalesce(${overdue}, 0) * ${disputes.penaltyPerDay})`,
  };
};

/** The clock's fields as the lists and the story give them. */
export const clockFields = (today: string) => {
  const clock = clockOn(today);
  return sql`${disputes.status} as status, ${disputes.outcome} as outcome, ${disputes.dueDate}::text as due_date,
    ${clock.age}::int as age_days, coalesce(${clock.overdue}, 0)::int as overdue_days, ${clock.penalty}::text as penalty, ${disputes.currency} as currency`;
};

export interface DisputeClock {
  dispute_id: number;
  status: DisputeStatus;
  outcome: DisputeOutcome | null;
  due_date: string | null;
  age_days: number | null;
  overdue_days: number;
  penalty: string;
  currency: string;
}

/** The clocks of the disputes the records belong to, by record id (a page's worth). */
export async function clocksOfRecords(db: Db, recordIds: number[], today: string): Promise<Map<number, DisputeClock>> {
  if (recordIds.length === 0) return new Map();
  const rows = await queryRows<DisputeClock & { record_id: string | number; dispute_id: string | number }>(
    db,
    sql`select l.record_id, disputes.id as dispute_id, ${clockFields(today)}
        from dispute_records l join disputes on disputes.id = l.dispute_id
        where l.record_id = any(${sql.param(recordIds)}::bigint[])`,
  );
  return new Map(rows.map((r) => [Number(r.record_id), { ...r, dispute_id: Number(r.dispute_id) }]));
}

/** The TAT quick filters: open (awaiting the MSP too), breached, due today, due within 2 days, resolved. */
export const tatFilters = ['open', 'breached', 'due_today', 'due_soon', 'resolved'] as const;
export type TatFilter = (typeof tatFilters)[number];

/** The condition of a quick filter (and an age range, in days) on `disputes`, on the day `today`. */
export function tatCondition(filter: TatFilter | undefined, today: string, age?: { from?: number | undefined; to?: number | undefined }): SQL | undefined {
  const open = sql`${disputes.status} <> 'resolved'`;
  const clock = clockOn(today);
  const byFilter: Record<TatFilter, SQL> = {
    open,
    breached: sql`${open} and ${disputes.dueDate} < ${today}::date`,
    due_today: sql`${open} and ${disputes.dueDate} = ${today}::date`,
    due_soon: sql`${open} and ${disputes.dueDate} between ${today}::date and ${today}::date + 2`,
    resolved: sql`${disputes.status} = 'resolved'`,
  };
  return and(
    filter ? byFilter[filter] : undefined,
    age?.from !== undefined ? sql`${clock.age} >= ${age.from}` : undefined,
    age?.to !== undefined ? sql`${clock.age} <= ${age.to}` : undefined,
  );
}

/** The columns of a copy of the clock: a dispute record's (dispute_records) or a count's (dispute_counts). */
type ClockCopy = typeof disputeRecords | typeof disputeCounts;

/**
 * tatCondition on a copy of the clock (0030 keeps them): the same records, read from the copies'
 * indexes and counts instead of a join to every dispute. Null for an age range not limited to open
 * disputes: a resolved dispute's age ends on the day it stopped, which the copies do not keep.
 */
export function copiedClockCondition(
  copy: ClockCopy,
  filter: TatFilter | undefined,
  today: string,
  age?: { from?: number | undefined; to?: number | undefined },
): SQL | undefined | null {
  const aged = age?.from !== undefined || age?.to !== undefined;
  if (aged && (filter === undefined || filter === 'resolved')) return null;
  const open = sql`${copy.open}`;
  const byFilter: Record<TatFilter, SQL> = {
    open,
    breached: sql`${open} and ${copy.dueDate} < ${today}::date`,
    due_today: sql`${open} and ${copy.dueDate} = ${today}::date`,
    due_soon: sql`${open} and ${copy.dueDate} between ${today}::date and ${today}::date + 2`,
    resolved: sql`not ${open}`,
  };
  const days = sql`(${today}::date - ${copy.clockStartedOn})`;
  return and(
    filter ? byFilter[filter] : undefined,
    age?.from !== undefined ? sql`${days} >= ${age.from}` : undefined,
    age?.to !== undefined ? sql`${days} <= ${age.to}` : undefined,
  );
}

/** A dispute record's penalty on `today`, from its copy of the clock (clockOn's penalty). */
export const copiedPenalty = (today: string) =>
  sql`(case when ${disputeRecords.open} then coalesce(greatest(0, ${today}::date - ${disputeRecords.dueDate}), 0) * ${disputeRecords.penaltyPerDay}
       else ${disputeRecords.settledPenalty} end)`;

// ---------------------------------------------------------------------------------------------
// The status from the mail.

export interface MailVerdict {
  status: DisputeStatus;
  outcome: DisputeOutcome | null;
  reason: string;
}

const notDone = /\bnot\s+(?:yet\s+)?(?:credited|refunded|reversed|resolved)\b/i;
const credited = /\b(?:credited|refunded|reversed|reversal\s+(?:done|processed|successful))\b/i;
const rejected =
  /\b(?:rejected|declined|not\s+eligible|not\s+genuine|(?:txn|transaction)\s+(?:was\s+)?successful|successful\s+(?:txn|transaction|dispense)|cash\s+(?:was\s+)?dispensed)\b/i;
const pending = /\b(?:pending|under\s+(?:process|processing|investigation|review)|in\s+progress|forwarded\s+to\s+msp)\b/i;

/**
 * What a row says of its dispute, by its remarks: credited or rejected (resolved), pending
 * (awaiting the MSP), or, in a file from an MSP, resolved whatever its words (an MSP's result
 * is its answer). Null when it says nothing of the status.
 */
export function verdictOfRow(row: { mspRemarks: string; shortDescription: string }, from: { msp: string | null; fileName: string }): MailVerdict | null {
  const remarks = [row.mspRemarks, row.shortDescription].map((r) => r.trim()).filter(Boolean);
  const words = remarks.join(' / ');
  const where = from.msp
    ? `${from.msp}'s result${from.fileName ? ` (${from.fileName})` : ''}`
    : from.fileName
      ? `a row of ${from.fileName}`
      : 'a row of the mail';
  const said = `"${words.length > 120 ? `${words.slice(0, 117)}...` : words}"`;
  if (words && !notDone.test(words)) {
    if (credited.test(words)) return { status: 'resolved', outcome: 'credited', reason: `Remark says credited: ${said} in ${where}` };
    if (rejected.test(words)) return { status: 'resolved', outcome: 'rejected', reason: `Remark says rejected: ${said} in ${where}` };
  }
  if (words && pending.test(words)) return { status: 'awaiting_msp', outcome: null, reason: `Remark says pending: ${said} in ${where}` };
  if (from.msp)
    return {
      status: 'resolved',
      outcome: 'other',
      reason: `Result from the MSP ${from.msp}${words ? `: ${said}` : ''}${from.fileName ? ` (${from.fileName})` : ''}`,
    };
  return null;
}

/** How far on a status is: disputeStatuses lists them in order (open, awaiting the MSP, resolved). */
const statusRank = (status: DisputeStatus) => disputeStatuses.indexOf(status);
const statusRankSql = (status: SQL) => sql`array_position(${sql.param([...disputeStatuses])}::text[], ${status})`;

/**
 * Link a processed message's dispute records to their disputes (new disputes get their clocks),
 * then move each dispute the message speaks of on: its EJ records and the rows of its result files
 * (missing, missing transactions, successful between) that name the same transaction. The mail
 * only moves a dispute forward (open, awaiting the MSP, resolved) and never over an operator's
 * status. `day` is the message's day on the clock: a resolution stops the clock then.
 */
export async function applyMessageToDisputes(tx: Db, message: { emailId: number; msp: string | null; day: string }): Promise<void> {
  await tx.execute(sql`select dispute_records_link(${message.emailId}::bigint)`);
  const rows = await queryRows<{ dispute_id: string | number; msp_remarks: string; short_description: string; file_name: string }>(
    tx,
    sql`select l.dispute_id, r.msp_remarks, r.short_description, r.file_name, r.id as at
        from ej_records r join dispute_records l on l.record_id = r.id
        where r.email_id = ${message.emailId} and r.kind = 'dispute'
        union all
        select m.id, fr.msp_remarks, fr.short_description, f.name, fr.id
        from data_files f join data_file_rows fr on fr.data_file_id = f.id
        cross join lateral (
          select d.id from disputes d
          where d.txt_no = fr.txt_no and d.atm_id = fr.atm_id and (d.card_no = '' or fr.card_no = '' or d.card_no = fr.card_no)
          order by d.id limit 1
        ) m
        where f.email_id = ${message.emailId} and f.kind in ('missing', 'missing_txn', 'between_successful') and fr.atm_id <> '' and fr.txt_no <> ''
        order by at`,
  );
  // The furthest word of the message on each dispute (the last row saying it, of equals).
  const verdicts = new Map<number, MailVerdict>();
  for (const row of rows) {
    const verdict = verdictOfRow({ mspRemarks: row.msp_remarks, shortDescription: row.short_description }, { msp: message.msp, fileName: row.file_name });
    if (!verdict) continue;
    const id = Number(row.dispute_id);
    const before = verdicts.get(id);
    if (!before || statusRank(verdict.status) >= statusRank(before.status)) verdicts.set(id, verdict);
  }
  if (verdicts.size === 0) return;
  const ids = [...verdicts.keys()];
  const list = ids.map((id) => verdicts.get(id)!);
  await tx.execute(sql`
    with v as (
      select * from unnest(${sql.param(ids)}::bigint[], ${sql.param(list.map((v) => v.status))}::text[],
                           ${sql.param(list.map((v) => v.outcome))}::text[], ${sql.param(list.map((v) => v.reason))}::text[])
        as v(id, status, outcome, reason)
    ), moved as (
      update disputes d set status = v.status, outcome = v.outcome,
        stopped_on = case when v.status = 'resolved' then ${message.day}::date end,
        status_source = 'mail', status_reason = v.reason, status_by = '', status_at = now(), update_at = now()
      from v
      where d.id = v.id and d.status_source = 'mail'
        and ${statusRankSql(sql`v.status`)} > ${statusRankSql(sql`d.status`)}
      returning d.id, d.status, d.outcome, d.status_reason
    )
    insert into dispute_events (dispute_id, source, status, outcome, reason, email_id)
    select id, 'mail', status, outcome, status_reason, ${message.emailId} from moved`);
}

/**
 * Remove what processing made of emails (their EJ records), then the disputes left without a
 * record, unless an operator set their status: processed again, the records find them by their
 * transaction. `emailIds` is a subquery of the emails (all stored ones, or one).
 */
export async function removeProcessedRecords(tx: Db, emailIds: SQL): Promise<void> {
  const touched = await queryRows<{ id: string | number }>(
    tx,
    sql`select distinct l.dispute_id as id from dispute_records l join ej_records r on r.id = l.record_id where r.email_id in ${emailIds}`,
  );
  await tx.execute(sql`delete from ej_records where email_id in ${emailIds}`);
  if (touched.length === 0) return;
  await tx.execute(sql`delete from disputes d where d.id in (select unnest(${sql.param(touched.map((t) => Number(t.id)))}::bigint[]))
    and d.status_source = 'mail' and not exists (select 1 from dispute_records l where l.dispute_id = d.id)`);
}

// ---------------------------------------------------------------------------------------------
// The status from an operator.

export interface StatusChange {
  status: DisputeStatus;
  outcome: DisputeOutcome | null;
  note: string;
}

/** The checked status change, or a RuleProblem: an outcome with resolved (only), a note. */
export function checkStatusChange(value: { status?: unknown; outcome?: unknown; note?: unknown }): StatusChange {
  const status = value.status as DisputeStatus;
  if (!disputeStatuses.includes(status)) throw new RuleProblem(`status must be one of ${disputeStatuses.join(', ')}`);
  const outcome = (value.outcome ?? null) as DisputeOutcome | null;
  if (status === 'resolved' && !disputeOutcomes.includes(outcome as DisputeOutcome))
    throw new RuleProblem(`outcome must be one of ${disputeOutcomes.join(', ')} when the status is resolved`);
  if (status !== 'resolved' && outcome !== null) throw new RuleProblem('outcome is given only when the status is resolved');
  const note = typeof value.note === 'string' ? value.note.trim() : '';
  if (!note || note.length > 2000) throw new RuleProblem('note must say why, in 1 to 2000 characters');
  return { status, outcome, note };
}

export interface Operator {
  id: number;
  email: string;
}

/**
 * Set the status of disputes (the ids, or those `where` picks, in one statement), as an operator:
 * each changed row gets a history event, the change one audit entry, and a dispute opened again
 * gets its clock back from the rules. Rows are locked in id order, so parallel changes of one
 * dispute queue one behind the other and the history stays in the order they were made.
 */
export async function setDisputeStatus(
  db: Db,
  target: { ids: number[] } | { where: SQL },
  change: StatusChange,
  by: Operator,
  today: string,
): Promise<number[]> {
  return db.transaction(async (trx) => {
    const tx = trx as unknown as Db;
    const picked = 'ids' in target ? sql`select unnest(${sql.param(target.ids)}::bigint[])` : target.where;
    const changed = await queryRows<{ id: string | number }>(
      tx,
      sql`with locked as (select id from disputes where id in (${picked}) order by id for update),
          changed as (
            update disputes d set status = ${change.status}, outcome = ${change.outcome}::text,
              stopped_on = ${change.status === 'resolved' ? sql`coalesce(case when d.status = 'resolved' then d.stopped_on end, ${today}::date)` : sql`null::date`},
              status_source = 'operator', status_reason = ${change.note}, status_by = ${by.email}, status_at = now(), update_at = now()
            from locked where d.id = locked.id
            returning d.id
          ),
          events as (
            insert into dispute_events (dispute_id, source, user_id, actor, status, outcome, note)
            select id, 'operator', ${by.id}::int, ${by.email}, ${change.status}, ${change.outcome}::text, ${change.note} from changed
          )
          select id from changed order by id`,
    );
    const ids = changed.map((r) => Number(r.id));
    if (ids.length === 0) return ids;
    await tx.insert(auditLog).values({
      userId: by.id,
      action: 'status',
      entity: 'dispute',
      entityId: ids.length === 1 ? String(ids[0]) : null,
      detail: `${ids.length === 1 ? `dispute ${ids[0]}` : `${ids.length} disputes`} set to ${change.status}${change.outcome ? ` (${change.outcome})` : ''}: ${change.note}`,
    });
    if (change.status !== 'resolved') await refreshDisputeClocks(tx, ids);
    // The open dashboards count again (the ageing card, the breached count), as after new mail.
    await tx.execute(notifySql(mailChannel));
    return ids;
  });
}

// ---------------------------------------------------------------------------------------------
// A dispute's story, and the ageing of the open ones.

/** The dispute, its clock on `today`, the rule, every row that names it (in time order) and its history. */
export type DisputeStory = Static<typeof DisputeStorySchema>;
export type DisputeAgeing = Static<typeof DisputeAgeingSchema>;

export async function disputeStory(db: Db, id: number, today: string): Promise<DisputeStory | null> {
  const [dispute] = await queryRows<Omit<DisputeStory, 'rows' | 'history'>>(
    db,
    sql`select ${sql.join(
      ['id', 'atm_id', 'txt_no', 'card_no', 'bank_name', 'status_source', 'status_reason', 'status_by', 'status_at', 'rule_id'].map(
        (c) => sql`disputes.${sql.identifier(c)}`,
      ),
      sql`, `,
    )}, ${sql.join(
      ['transaction_date', 'complaint_date', 'clock_started_on', 'penalty_per_day', 'stopped_on'].map(
        (c) => sql`disputes.${sql.identifier(c)}::text as ${sql.identifier(c)}`,
      ),
      sql`, `,
    )}, ${clockFields(today)}, r.name as rule_name
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
 * breached and the penalty they have accrued: the counts the list gives for the same filters.
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
          coalesce(sum(${c.n} * greatest(0, ${today}::date - ${c.dueDate}) * ${c.penaltyPerDay}) filter (where ${c.dueDate} < ${today}::date), 0)::text as penalty_exposure,
          coalesce(max(${c.currency}) filter (where ${c.n} > 0), '') as currency
        from ${c}
        where ${c.open} and ${c.transactionDay} between ${from}::date and ${to}::date`,
  );
  return row!;
}
