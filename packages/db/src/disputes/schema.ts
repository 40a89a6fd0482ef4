// Disputes: the TAT rules (a dispute's clock), the disputes and their records, the clocks' counts
// (functions.sql keeps dispute_records' copies and dispute_counts exact) and each dispute's story.
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, updatedAt, money, inList } from '../columns.ts';
import { emails } from '../emails/schema.ts';
import { users } from '../identity/schema.ts';

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

/**
 * A dispute's life, in order: the customer's complaint, the issuer's chargeback, the acquirer's
 * representment (with the EJ) or acceptance (a credit adjustment), pre-arbitration, arbitration,
 * closed. Representment and acceptance are alternatives of one rank. The mail moves a dispute on,
 * never back; an operator may move it back with a note.
 */
export const disputeStages = ['complaint', 'chargeback_raised', 'representment', 'accepted', 'pre_arbitration', 'arbitration', 'closed'] as const;
export type DisputeStage = (typeof disputeStages)[number];
/** How far on a stage is: representment and acceptance are one step. */
export const stageRank: Record<DisputeStage, number> = {
  complaint: 0,
  chargeback_raised: 1,
  representment: 2,
  accepted: 2,
  pre_arbitration: 3,
  arbitration: 4,
  closed: 5,
};
export const costBearers = ['issuer', 'acquirer'] as const;
export type CostBearer = (typeof costBearers)[number];

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
    /** The operator working it (the lists' "Mine"); none until one takes it. */
    ownerId: integer('owner_id').references(() => users.id, { onDelete: 'set null' }),
    /** The day its owner means to look at it again (the lists' "Follow up today"). */
    followUpOn: date('follow_up_on'),
    /** The card network whose rules apply (NFS, Visa, ...); '' until the mail or an operator says. */
    network: text('network').notNull().default(''),
    /**
     * Where the dispute is in its life (disputeStages) while it is not resolved: a resolved dispute
     * is closed, on the day its clock stopped, and opened again it is back at this stage. The days
     * each stage was entered are in dispute_stages.
     */
    stage: text('stage').notNull().default('complaint'),
    /** Who bears the cost, said when it is closed: the issuer, or the acquirer where its delay caused the penalty. */
    costBearer: text('cost_bearer'),
    /**
     * The nearest due day of its running rule-set clocks, and that clock's name (null when none
     * runs): kept by dispute_rule_deadlines_refresh (functions.sql) as its stages, network, status
     * and the rule sets change.
     */
    ruleDeadline: date('rule_deadline'),
    ruleDeadlineClock: text('rule_deadline_clock'),
    /** The nearest open deadline of all its clocks (the TAT rule's and the rule sets'): the lists' clock order. */
    nextDeadline: date('next_deadline').generatedAlwaysAs(sql`CASE WHEN status <> 'resolved' THEN least(due_date, rule_deadline) END`),

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
    check('disputes_stage_check', sql`${t.stage} in (${inList(disputeStages)})`),
    check('disputes_cost_bearer_check', sql`${t.costBearer} is null or ${t.costBearer} in (${inList(costBearers)})`),
    // The disputes of a transaction, lowest id first (a new record joins the first that fits).
    index('disputes_txn_idx').on(t.txtNo, t.atmId, t.id),
    uniqueIndex('disputes_first_record_key').on(t.firstRecordId),
    // The open disputes by due date: breached, due today, due soon, and the due-date order.
    index('disputes_open_due_idx')
      .on(t.dueDate, t.id)
      .where(sql`${t.status} <> 'resolved'`),
    index('disputes_status_idx').on(t.status, t.id),
    index('disputes_rule_idx').on(t.ruleId),
    // The disputes of an ATM's day: a journal received finds the complaints it answers.
    index('disputes_atm_day_idx').on(t.atmId, t.transactionDate),
    // An operator's disputes, and the ones to follow up on a day: few of all, so partial indexes.
    index('disputes_owner_idx')
      .on(t.ownerId, t.id)
      .where(sql`${t.ownerId} is not null`),
    // The disputes with a rule-set clock due by a day: the alerts' warnings and digests read only these.
    index('disputes_rule_deadline_idx')
      .on(t.ruleDeadline)
      .where(sql`${t.ruleDeadline} is not null`),
    index('disputes_follow_up_idx')
      .on(t.followUpOn, t.id)
      .where(sql`${t.followUpOn} is not null`),
  ],
);

/**
 * Which dispute each dispute record belongs to (every record of kind dispute has one), with a copy
 * of its dispute's clock and of the record's counted fields, kept by triggers (0030), and of its
 * dispute's journal verdict (0046): the clock's and the verdict's filters and orders walk these
 * indexes, and dispute_counts is summed from these rows.
 */
export const disputeRecords = pgTable(
  'dispute_records',
  {
    /** Its EJ record: deleted with it by a trigger (ej_records is partitioned: no foreign key reaches it). */
    recordId: bigint('record_id', { mode: 'number' }).primaryKey(),
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
    /** The dispute's journal verdict (dispute_evidence's), null without one. */
    verdict: text('verdict'),
    /** The dispute's nearest open deadline (null when resolved or no clock runs). */
    nextDeadline: date('next_deadline'),
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
    // The resolved ones in id order: the newest disputes are open, and walking every dispute's id
    // order for resolved ones read past them (52,000 at 10,000,000 records: 6 ms a page).
    index('dispute_records_resolved_id_idx')
      .on(t.recordId)
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
    // The nearest-deadline order, none (resolved, no clock) last either way.
    index('dispute_records_next_asc_idx').on(sql`${t.nextDeadline} asc nulls last`, t.recordId),
    index('dispute_records_next_desc_idx').on(sql`${t.nextDeadline} desc nulls last`, sql`${t.recordId} desc`),
    // The EJ table's verdict filter: a verdict's records in id order, and their count, from this index alone.
    index('dispute_records_verdict_idx')
      .on(t.verdict, t.recordId)
      .where(sql`${t.verdict} is not null`),
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
    /** The stage it moved to, when the event is a stage's (null for a status's). */
    stage: text('stage'),
  },
  (t) => [index('dispute_events_dispute_idx').on(t.disputeId, t.id)],
);

/**
 * An operator's status change (one dispute or many at once), kept for a short while so that its
 * maker can undo it: what each dispute's status was before is in dispute_status_previous. A change
 * older than the undo window is of no more use and is removed by the next one.
 */
export const disputeStatusChanges = pgTable(
  'dispute_status_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    actor: text('actor').notNull(),
    /** The change's transaction time: the disputes it set carry it as their status_at until changed again. */
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    status: text('status').notNull(),
    outcome: text('outcome'),
    note: text('note').notNull(),
    disputes: integer('disputes').notNull(),
    undoneAt: timestamp('undone_at', { withTimezone: true }),
  },
  (t) => [index('dispute_status_changes_at_idx').on(t.at)],
);

/**
 * Each dispute's status before a change, to restore when the change is undone, with its clock: a
 * resolved dispute keeps the rule it was resolved under, and reopening it moves it to today's rules.
 */
export const disputeStatusPrevious = pgTable(
  'dispute_status_previous',
  {
    changeId: bigint('change_id', { mode: 'number' })
      .notNull()
      .references(() => disputeStatusChanges.id, { onDelete: 'cascade' }),
    disputeId: bigint('dispute_id', { mode: 'number' })
      .notNull()
      .references(() => disputes.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    outcome: text('outcome'),
    stoppedOn: date('stopped_on'),
    statusSource: text('status_source').notNull(),
    statusReason: text('status_reason').notNull(),
    statusBy: text('status_by').notNull(),
    statusAt: timestamp('status_at', { withTimezone: true }).notNull(),
    ruleId: integer('rule_id'),
    clockStartedOn: date('clock_started_on'),
    dueDate: date('due_date'),
    penaltyPerDay: money('penalty_per_day').notNull().default('0'),
    currency: text('currency').notNull().default(''),
  },
  (t) => [primaryKey({ columns: [t.changeId, t.disputeId] }), index('dispute_status_previous_dispute_idx').on(t.disputeId)],
);

/** Named lists of days off (a network's or a country's), for the clocks counted in working days. */
export const holidayCalendars = pgTable('holiday_calendars', {
  name: text('name').primaryKey(),
  description: text('description').notNull(),
  days: date('days')
    .array()
    .notNull()
    .default(sql`'{}'::date[]`),
});

export const clockParties = ['issuer', 'acquirer', 'bank'] as const;
/** What starts a rule set's clock: a date of the dispute, or the day it entered a stage. */
export const clockStarts = ['transaction', 'complaint', 'chargeback_raised', 'representment', 'pre_arbitration', 'arbitration', 'closed'] as const;
export type ClockStart = (typeof clockStarts)[number];

/**
 * A network's or a regulator's rules (NPCI NFS, Visa, Regulation E, PSD2): a set of clocks that run
 * on every dispute of its network ('' for every dispute) while it is active. The TAT Rules list is
 * the RBI's, with its penalty (tat_rules).
 */
export const ruleSets = pgTable(
  'rule_sets',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** Where the windows come from: the rule's own name and section. */
    source: text('source').notNull(),
    network: text('network').notNull().default(''),
    active: boolean('active').notNull().default(true),
    createAt: createdAt(),
    updateAt: updatedAt(),
  },
  (t) => [uniqueIndex('rule_sets_name_key').on(sql`lower(${t.name})`)],
);

/**
 * One window of a rule set: started by an event (a date of the dispute, or a stage entered),
 * `days` long in calendar or working days (the calendar's holidays off), met when the dispute
 * reaches one of `stops_at` in time (closed stops every clock).
 */
export const ruleClocks = pgTable(
  'rule_clocks',
  {
    id: serial('id').primaryKey(),
    ruleSetId: integer('rule_set_id')
      .notNull()
      .references(() => ruleSets.id, { onDelete: 'cascade' }),
    /** A stable name for code and tests: nfs.chargeback, rege.investigate, ... */
    key: text('key').notNull(),
    name: text('name').notNull(),
    /** Whose window it is. */
    party: text('party').notNull(),
    startsOn: text('starts_on').notNull(),
    stopsAt: text('stops_at').array().notNull(),
    days: integer('days').notNull(),
    dayKind: text('day_kind').notNull(),
    calendar: text('calendar').references(() => holidayCalendars.name),
    penaltyPerDay: money('penalty_per_day').notNull().default('0'),
    currency: text('currency').notNull().default(''),
  },
  (t) => [
    uniqueIndex('rule_clocks_key').on(t.key),
    index('rule_clocks_set_idx').on(t.ruleSetId),
    check('rule_clocks_party_check', sql`${t.party} in (${inList(clockParties)})`),
    check('rule_clocks_starts_on_check', sql`${t.startsOn} in (${inList(clockStarts)})`),
    check('rule_clocks_day_kind_check', sql`${t.dayKind} in (${inList(tatDayKinds)})`),
    check('rule_clocks_days_check', sql`${t.days} between 0 and 3650`),
  ],
);

/** The day a dispute first entered each stage it has been in (a stage's clocks start from it). */
export const disputeStageDays = pgTable(
  'dispute_stages',
  {
    disputeId: bigint('dispute_id', { mode: 'number' })
      .notNull()
      .references(() => disputes.id, { onDelete: 'cascade' }),
    stage: text('stage').notNull(),
    enteredOn: date('entered_on').notNull(),
  },
  (t) => [primaryKey({ columns: [t.disputeId, t.stage] })],
);
