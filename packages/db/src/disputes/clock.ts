// A dispute's clock: the day it is in the clock's time zone, its age, days overdue and penalty on a
// day, and the TAT quick filters over disputes or over dispute records' copies of the clock.
import { SettingError, text as textSetting } from '@ejdesk/settings';
import { and, sql, type SQL } from 'drizzle-orm';
import { type Db, namedRows } from '../client.ts';
import { type disputeCounts, type DisputeOutcome, disputeRecords, disputes, type DisputeStatus } from './schema.ts';

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
  return dayFormat(timeZone).format(instant);
}

// Making a formatter loads the zone's rules (0.2 ms, every list request asks for today): one a zone.
const dayFormats = new Map<string, Intl.DateTimeFormat>();
function dayFormat(timeZone: string): Intl.DateTimeFormat {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format;
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
    ${clock.age}::int as age_days, coalesce(${clock.overdue}, 0)::int as overdue_days, ${clock.penalty}::text as penalty, ${disputes.currency} as currency,
    (${disputes.status} <> 'resolved' and ${disputes.dueDate} = ${today}::date) is true as due_today,
    ${disputes.ownerId} as owner_id, (select u.email from users u where u.id = ${disputes.ownerId}) as owner,
    ${disputes.followUpOn}::text as follow_up_on, ${disputes.nextDeadline}::text as next_deadline,
    case when ${disputes.nextDeadline} is null then null
         when ${disputes.nextDeadline} = ${disputes.dueDate} then (select r.name from tat_rules r where r.id = ${disputes.ruleId})
         else ${disputes.ruleDeadlineClock} end as next_clock`;
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
  /** Not resolved, and today is its last day. */
  due_today: boolean;
  /** The operator working it (id and email), and the day they follow it up; null when none. */
  owner_id: number | null;
  owner: string | null;
  follow_up_on: string | null;
  /** The nearest open deadline of all its clocks and that clock's name; null when resolved or none runs. */
  next_deadline: string | null;
  next_clock: string | null;
}

/** The clocks of the disputes the records belong to, by record id (a page's worth). */
export async function clocksOfRecords(db: Db, recordIds: number[], today: string): Promise<Map<number, DisputeClock>> {
  if (recordIds.length === 0) return new Map();
  // Named: every dispute page asks it, and its plan was made anew each time (0.5 ms).
  const rows = await namedRows<DisputeClock & { record_id: string | number; dispute_id: string | number }>(
    db,
    'clocks_of_records',
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
