// The dispute desk: the turnaround clock on each dispute record, a dispute's story, status changes
// (one dispute, or many by ids or by the list's filters), the ageing card, the TAT rules.
// The meaning beyond the shape (an outcome only with resolved, a note, a real date) is checked in
// packages/db (checkStatusChange, checkTatRule), whose 400s name the field.
import { Type } from 'typebox';
import { RequiredText, Timestamp } from './common.ts';
import { EjRecord, ejFilterFields } from './ej-records.ts';
import { Evidence, VerdictWord } from './journals.ts';

const Status = Type.Union([Type.Literal('open'), Type.Literal('awaiting_msp'), Type.Literal('resolved')]);
const Outcome = Type.Union([Type.Literal('credited'), Type.Literal('rejected'), Type.Literal('other')]);
const Day = Type.Union([Type.String(), Type.Null()]);

/** The clock of a dispute on the day asked: age and days overdue in days, the penalty as decimal text. */
const clockFields = {
  status: Status,
  outcome: Type.Union([Outcome, Type.Null()]),
  due_date: Day,
  age_days: Type.Union([Type.Integer(), Type.Null()]),
  overdue_days: Type.Integer(),
  penalty: Type.String(),
  currency: Type.String(),
  /** Not resolved, and the day asked is its last (the clock's "Due today"). */
  due_today: Type.Boolean(),
  /** The operator working it (their account's id and email) and the day they follow it up: null when none. */
  owner_id: Type.Union([Type.Integer(), Type.Null()]),
  owner: Type.Union([Type.String(), Type.Null()]),
  follow_up_on: Day,
  /** The nearest open deadline of all its clocks (the TAT rule's, its rule sets') and that clock's name: null when resolved or none runs. */
  next_deadline: Day,
  next_clock: Type.Union([Type.String(), Type.Null()]),
};

/**
 * A row of the EJ error table: the record, its dispute, the dispute's clock, and the verdict of the
 * journal transaction the dispute matched with the amount the customer took (null before a match).
 */
export const DisputeRecord = Type.Object({
  ...EjRecord.properties,
  dispute_id: Type.Union([Type.Integer(), Type.Null()]),
  ...clockFields,
  verdict: Type.Union([VerdictWord, Type.Null()]),
  dispensed_amount: Type.Union([Type.String(), Type.Null()]),
});

const StoryRow = Type.Object({
  source: Type.Union([Type.Literal('record'), Type.Literal('file_row')]),
  record_id: Type.Union([Type.Integer(), Type.Null()]),
  file_row_id: Type.Union([Type.Integer(), Type.Null()]),
  file_id: Type.Union([Type.Integer(), Type.Null()]),
  file_name: Type.String(),
  file_kind: Type.Union([Type.String(), Type.Null()]),
  email_id: Type.Union([Type.Integer(), Type.Null()]),
  email_subject: Type.Union([Type.String(), Type.Null()]),
  email_from: Type.Union([Type.String(), Type.Null()]),
  received_at: Type.Union([Timestamp, Type.Null()]),
  atm_id: Type.String(),
  card_no: Type.String(),
  txt_no: Type.String(),
  transaction_date: Day,
  transaction_amt: Day,
  dispute_amt: Day,
  complaint_date: Day,
  msp_remarks: Type.String(),
  msp_ref_no: Type.String(),
  short_description: Type.String(),
  bank_name: Type.String(),
});

/** A dispute's stage (docs/disputes.md, "Stages"). */
export const Stage = Type.Union([
  Type.Literal('complaint'),
  Type.Literal('chargeback_raised'),
  Type.Literal('representment'),
  Type.Literal('accepted'),
  Type.Literal('pre_arbitration'),
  Type.Literal('arbitration'),
  Type.Literal('closed'),
]);

/** A stage set by an operator: closed needs the outcome and who bears the cost. */
export const StageBody = Type.Object(
  {
    stage: Stage,
    note: RequiredText(2000),
    outcome: Type.Optional(Type.Union([Outcome, Type.Null()])),
    cost_bearer: Type.Optional(Type.Union([Type.Literal('issuer'), Type.Literal('acquirer'), Type.Null()])),
  },
  { additionalProperties: false },
);

/** The card network whose rule sets apply ('' for none known). */
export const NetworkBody = Type.Object({ network: Type.String({ maxLength: 40, pattern: '^[A-Za-z0-9 ._-]*$' }) }, { additionalProperties: false });

const HistoryEvent = Type.Object({
  id: Type.Integer(),
  at: Timestamp,
  source: Type.Union([Type.Literal('mail'), Type.Literal('operator')]),
  actor: Type.String(),
  status: Status,
  outcome: Type.Union([Outcome, Type.Null()]),
  reason: Type.String(),
  note: Type.String(),
  email_id: Type.Union([Type.Integer(), Type.Null()]),
  /** The stage it moved to, for a stage's event; null for a status's. */
  stage: Type.Union([Stage, Type.Null()]),
});

/**
 * One of a dispute's clocks on the day asked: the TAT rule's (with its penalty) and each clock of
 * the rule sets of its network. Running: started and not stopped; breached: running past its due
 * date; met or missed: stopped on or before its due date, or after.
 */
const DisputeClock = Type.Object({
  key: Type.String(),
  name: Type.String(),
  rule_set: Type.String(),
  party: Type.Union([Type.Literal('issuer'), Type.Literal('acquirer'), Type.Literal('bank')]),
  started_on: Type.String({ format: 'date' }),
  due_on: Type.String({ format: 'date' }),
  stopped_on: Day,
  state: Type.Union([Type.Literal('running'), Type.Literal('breached'), Type.Literal('met'), Type.Literal('missed')]),
  /** Days to the due date from the day asked (negative once past), for a running clock; null when stopped. */
  days_left: Type.Union([Type.Integer(), Type.Null()]),
});

/**
 * A dispute with its clock, the rule, every row that names it (in time order), its status history,
 * and its journal evidence (null until a journal transaction is looked for).
 */
export const DisputeStory = Type.Object({
  id: Type.Integer(),
  atm_id: Type.String(),
  txt_no: Type.String(),
  card_no: Type.String(),
  bank_name: Type.String(),
  transaction_date: Day,
  complaint_date: Day,
  ...clockFields,
  clock_started_on: Day,
  stopped_on: Day,
  penalty_per_day: Type.String(),
  status_source: Type.Union([Type.Literal('mail'), Type.Literal('operator')]),
  status_reason: Type.String(),
  status_by: Type.String(),
  status_at: Timestamp,
  rule_id: Type.Union([Type.Integer(), Type.Null()]),
  rule_name: Type.Union([Type.String(), Type.Null()]),
  stage: Stage,
  network: Type.String(),
  cost_bearer: Type.Union([Type.Literal('issuer'), Type.Literal('acquirer'), Type.Null()]),
  /** Every clock it runs, the running ones first, nearest deadline first. */
  clocks: Type.Array(DisputeClock),
  rows: Type.Array(StoryRow),
  history: Type.Array(HistoryEvent),
  evidence: Type.Union([Evidence, Type.Null()]),
});

export const DisputeIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });

const statusFields = {
  status: Status,
  outcome: Type.Optional(Type.Union([Outcome, Type.Null()])),
  note: RequiredText(2000),
};
export const StatusBody = Type.Object(statusFields, { additionalProperties: false });

/** Disputes by ids, or every dispute record the list's filters match ("all N matching"). */
const targetFields = {
  ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }), { minItems: 1, maxItems: 1000 })),
  filters: Type.Optional(Type.Object(ejFilterFields, { additionalProperties: false })),
};

/** The disputes of the ids, or of every record the list's filters match ("all N matching"). */
export const BulkStatusBody = Type.Object(
  {
    ...statusFields,
    ...targetFields,
  },
  { additionalProperties: false },
);
/** How many disputes changed, and the change to undo (null when none matched). */
export const BulkStatusAnswer = Type.Object({ updated: Type.Integer(), change_id: Type.Union([Type.Integer(), Type.Null()]) });

/**
 * Who works the disputes and when they look at them again, for one or many (ids or the list's
 * filters): owner_id an active account's id or null (nobody), follow_up_on a day or null (none).
 * What is left out stays as it is; at least one is given.
 */
export const FollowUpBody = Type.Object(
  {
    owner_id: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 2147483647 }), Type.Null()])),
    follow_up_on: Type.Optional(Type.Union([Type.String({ format: 'date' }), Type.Null()])),
    ...targetFields,
  },
  { additionalProperties: false },
);
export const FollowUpAnswer = Type.Object({ updated: Type.Integer() });

/** The accounts a dispute can be given to: the active ones. */
export const DisputeOwner = Type.Object({ id: Type.Integer(), email: Type.String() });

/** A status change, as bulk-status named it. */
export const StatusChangeParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });

/** How many disputes got back the status they had before the change. */
export const UndoAnswer = Type.Object({ restored: Type.Integer() });

/** The disputes to apply their verdict's suggestion to. */
export const ApplySuggestionBody = Type.Object(targetFields, { additionalProperties: false });

/** How many disputes changed, and how many were left: an operator had set their status, or their verdict suggests nothing. */
export const ApplySuggestionAnswer = Type.Object({
  updated: Type.Integer(),
  skipped_operator: Type.Integer(),
  skipped_no_suggestion: Type.Integer(),
  /** Already at the suggested status and outcome. */
  skipped_unchanged: Type.Integer(),
});

/** The disputes whose evidence packs the ZIP holds (those without evidence are left out). */
export const EvidenceZipBody = Type.Object(targetFields, { additionalProperties: false });

/** The open dispute records of a month by age in days, the breached ones and their penalty. */
export const DisputeAgeing = Type.Object({
  days_0_2: Type.Integer(),
  days_3_5: Type.Integer(),
  days_6_10: Type.Integer(),
  over_10: Type.Integer(),
  breached: Type.Integer(),
  due_today: Type.Integer(),
  penalty_exposure: Type.String(),
  currency: Type.String(),
});

const Scope = Type.Union([Type.Literal('all'), Type.Literal('bank'), Type.Literal('msp')]);
const ClockStart = Type.Union([Type.Literal('transaction_date'), Type.Literal('complaint_date')]);
const DayKind = Type.Union([Type.Literal('calendar'), Type.Literal('working')]);

export const TatRule = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  scope: Scope,
  scope_value: Type.String(),
  clock_start: ClockStart,
  days: Type.Integer(),
  day_kind: DayKind,
  holidays: Type.Array(Type.String()),
  penalty_per_day: Type.String(),
  currency: Type.String(),
  create_at: Timestamp,
  update_at: Timestamp,
});
export const TatRuleBody = Type.Object(
  {
    name: RequiredText(200),
    scope: Scope,
    scope_value: Type.Optional(Type.String({ maxLength: 200 })),
    clock_start: ClockStart,
    days: Type.Integer({ minimum: 0, maximum: 3650 }),
    day_kind: DayKind,
    holidays: Type.Optional(Type.Array(Type.String({ format: 'date' }), { maxItems: 1000 })),
    penalty_per_day: Type.Union([Type.Number({ minimum: 0, maximum: 999999999999 }), Type.String({ maxLength: 16, pattern: '^\\d{1,12}(\\.\\d{1,2})?$' })]),
    currency: Type.String({ minLength: 3, maxLength: 3, pattern: '^[A-Za-z]{3}$' }),
  },
  { additionalProperties: false },
);

/** A rule set with its clocks (admins' Rule Sets list). */
export const RuleSet = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  source: Type.String(),
  network: Type.String(),
  active: Type.Boolean(),
  clocks: Type.Array(
    Type.Object({
      key: Type.String(),
      name: Type.String(),
      party: Type.String(),
      starts_on: Type.String(),
      stops_at: Type.Array(Type.String()),
      days: Type.Integer(),
      day_kind: Type.Union([Type.Literal('calendar'), Type.Literal('working')]),
      calendar: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
});
export const RuleSetParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) });
export const RuleSetBody = Type.Object({ active: Type.Boolean() }, { additionalProperties: false });
