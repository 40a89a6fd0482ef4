// What an EJ filter matches: the conditions on ej_records (and on the dispute clock), and the
// distinct filter values (ej_values) a substring filter is matched against and counted from.
import { and, type AnyColumn, eq, gte, lte, or, sql, type SQL, type Table } from 'drizzle-orm';
import { type Db, queryRows } from '../client.ts';
import { type Counting, keptAnswer, listCounting, plannedRows } from '../counts/index.ts';
import { copiedClockCondition, disputeRecords, disputes, tatCondition, type TatFilter } from '../disputes/index.ts';
import { containsText, foldedContains, likeEscaped } from '../filters.ts';
import { ejCounts, type EjRecordKind, ejRecordKinds, ejRecords, ejValues } from './schema.ts';

export interface EjFilters {
  kind: EjRecordKind;
  startDate?: string | undefined;
  endDate?: string | undefined;
  atmId?: string | undefined;
  bankName?: string | undefined;
  cardNo?: string | undefined;
  mailSubject?: string | undefined;
  mailReceivedFrom?: string | undefined;
  /** The dispute's clock (dispute records only): a quick filter, an age range in days. */
  tat?: TatFilter | undefined;
  ageFrom?: number | undefined;
  ageTo?: number | undefined;
  /** The clock's day (YYYY-MM-DD), needed by the clock's filters and orders. */
  today?: string | undefined;
  /** Records of disputes whose journal evidence has this verdict (dispensed, partial, ...). */
  verdict?: string | undefined;
  /** The records of these disputes only (the rows an operator ticked, for an export). */
  disputeIds?: number[] | undefined;
  /** Records of the disputes this account works (the lists' "Mine"). */
  ownerId?: number | undefined;
  /** Records of disputes not resolved to follow up today, or today and before (missed ones too). */
  followUp?: 'today' | 'due' | undefined;
  /** How a count that reads the records reads them (counts/counts.ts): the list's bound unless given. */
  counting?: Counting | undefined;
}

export const followUpFiltered = (f: EjFilters) => f.ownerId !== undefined || f.followUp !== undefined;

/**
 * The records of an owner's disputes, or of those to follow up: few (an operator's own), so their
 * ids are read first from the disputes' partial indexes, then checked against the other filters.
 */
export function followUpSet(f: EjFilters): SQL | undefined {
  if (!followUpFiltered(f)) return undefined;
  const today = f.followUp ? todayOf(f) : '';
  const conditions = and(
    f.ownerId !== undefined ? sql`${disputes.ownerId} = ${f.ownerId}` : undefined,
    f.followUp === 'today' ? sql`${disputes.followUpOn} = ${today}::date and ${disputes.status} <> 'resolved'` : undefined,
    f.followUp === 'due' ? sql`${disputes.followUpOn} <= ${today}::date and ${disputes.status} <> 'resolved'` : undefined,
  );
  return sql`${ejRecords.id} = any(array(select ${disputeRecords.recordId} from ${disputes} join ${disputeRecords} on ${disputeRecords.disputeId} = ${disputes.id} where ${conditions}))`;
}

export const clockFiltered = (f: EjFilters) => f.tat !== undefined || f.ageFrom !== undefined || f.ageTo !== undefined;

export const todayOf = (f: EjFilters) => {
  if (!f.today) throw new Error('the clock filters and orders need the day (today)');
  return f.today;
};

export const ageOf = (f: EjFilters) => ({ from: f.ageFrom, to: f.ageTo });
export const withoutClock = (f: EjFilters): EjFilters => ({ ...f, tat: undefined, ageFrom: undefined, ageTo: undefined });

/**
 * The clock filters on the record's row in dispute_records (joined by the caller): its copy of
 * the clock, or, for an age range that may take in resolved disputes, the dispute itself.
 */
export function recordClockCondition(f: EjFilters): SQL | undefined {
  if (!clockFiltered(f)) return undefined;
  const onCopy = copiedClockCondition(disputeRecords, f.tat, todayOf(f), ageOf(f));
  if (onCopy !== null) return onCopy;
  return sql`exists (select 1 from ${disputes} where ${disputes.id} = ${disputeRecords.disputeId} and ${tatCondition(f.tat, todayOf(f), ageOf(f))})`;
}

/** Records whose dispute's clock matches the quick filter and age range. */
export function clockConditions(f: EjFilters): SQL | undefined {
  if (!clockFiltered(f)) return undefined;
  return sql`exists (select 1 from ${disputeRecords} where ${disputeRecords.recordId} = ${ejRecords.id} and ${recordClockCondition(f)})`;
}

/** Records of disputes whose evidence has the verdict: each record's copy of it in dispute_records (its primary key). */
export const verdictCondition = (verdict: string | undefined): SQL | undefined =>
  verdict
    ? sql`exists (select 1 from ${disputeRecords} where ${disputeRecords.recordId} = ${ejRecords.id} and ${disputeRecords.verdict} = ${verdict})`
    : undefined;

/** The records of the verdict's disputes, all of them, read first: a range of dispute_records' (verdict, record_id). */
export const verdictSet = (verdict: string): SQL =>
  sql`${ejRecords.id} = any(array(select ${disputeRecords.recordId} from ${disputeRecords} where ${disputeRecords.verdict} = ${verdict}))`;

export const ejRecordColumns = {
  id: ejRecords.id,
  atm_id: ejRecords.atmId,
  card_no: ejRecords.cardNo,
  txt_no: ejRecords.txtNo,
  transaction_date: ejRecords.transactionDate,
  transaction_amt: ejRecords.transactionAmt,
  dispute_amt: ejRecords.disputeAmt,
  overage: ejRecords.overage,
  msp_remarks: ejRecords.mspRemarks,
  msp_ref_no: ejRecords.mspRefNo,
  short_desc_ej_error: ejRecords.shortDescEjError,
  ej_error: ejRecords.ejError,
  complaint_date: ejRecords.complaintDate,
  short_description: ejRecords.shortDescription,
  mail_received_from: ejRecords.mailReceivedFrom,
  mail_subject: ejRecords.mailSubject,
  file_name: ejRecords.fileName,
};

/** An exact value (a btree lookup) or a substring (the trigram index): whichever the operator typed. */
const exactOrContains = (column: AnyColumn, text: string | undefined) => (text ? or(eq(column, text), containsText(column, text)) : undefined);

/**
 * The kind written into the statement, not a parameter: one of three (checked), it leaves a
 * statement with no parameter for PostgreSQL to plan for each value, so a first page's kept plan
 * (rowsOfKeptPlan) is used; with the kind a parameter the planner's guess for any kind made the
 * kept plan look dearer than planning anew, every time.
 */
export function kindIs(kind: EjRecordKind): SQL {
  if (!(ejRecordKinds as readonly string[]).includes(kind)) throw new Error(`not a kind of EJ record: ${String(kind)}`);
  return sql`${ejRecords.kind} = ${sql.raw(`'${kind}'`)}`;
}

export function ejConditions(filters: EjFilters): SQL | undefined {
  return and(
    kindIs(filters.kind),
    filters.startDate ? gte(ejRecords.transactionDate, filters.startDate) : undefined,
    filters.endDate ? lte(ejRecords.transactionDate, filters.endDate) : undefined,
    exactOrContains(ejRecords.atmId, filters.atmId),
    exactOrContains(ejRecords.cardNo, filters.cardNo),
    containsText(ejRecords.bankName, filters.bankName),
    containsText(ejRecords.mailSubject, filters.mailSubject),
    containsText(ejRecords.mailReceivedFrom, filters.mailReceivedFrom),
    clockConditions(filters),
    verdictCondition(filters.verdict),
    followUpSet(filters),
    filters.disputeIds
      ? sql`${ejRecords.id} = any(array(select ${disputeRecords.recordId} from ${disputeRecords} where ${disputeRecords.disputeId} = any(${sql.param(filters.disputeIds)}::bigint[])))`
      : undefined,
  );
}

/** The disputes of the records the filters match (a bulk status change of "all N matching"). */
export const disputesMatching = (filters: EjFilters): SQL =>
  sql`select ${disputeRecords.disputeId} from ${ejRecords} join ${disputeRecords} on ${disputeRecords.recordId} = ${ejRecords.id} where ${ejConditions(filters)}`;

/** The text filters: each field's column in ej_records and its key in EjFilters. */
export const valueFields = {
  atm_id: { column: ejRecords.atmId, filter: 'atmId' },
  bank_name: { column: ejRecords.bankName, filter: 'bankName' },
  card_no: { column: ejRecords.cardNo, filter: 'cardNo' },
  mail_subject: { column: ejRecords.mailSubject, filter: 'mailSubject' },
  mail_received_from: { column: ejRecords.mailReceivedFrom, filter: 'mailReceivedFrom' },
} as const;
export type ValueField = keyof typeof valueFields;

/** The text filters given, as (field, text) pairs. */
export const textFilters = (f: EjFilters) =>
  (Object.keys(valueFields) as ValueField[]).flatMap((field) => {
    const text = f[valueFields[field].filter];
    return text ? [[field, text] as const] : [];
  });

/** Matches under this share of the kind's records are few: found by their values' btree. */
const DENSE = 0.02;

interface ValueMatch {
  field: ValueField;
  text: string;
  /** Records of the kind holding a matching value; a lower bound when `dense`. */
  total: number;
  /** At least DENSE of the kind's records match: walking the id order finds a page soonest. */
  dense: boolean;
  /** The matching values, when all were read (fewer than the dense threshold). */
  exact: string[] | null;
}

export const valuesOf = (kind: EjRecordKind, field: ValueField, text: string) =>
  sql`${ejValues.kind} = ${kind} and ${ejValues.field} = ${field} and ${field === 'card_no' ? cardContains(text) : foldedContains(ejValues.folded, text)} and ${ejValues.n} > 0`;

/**
 * A part of a card number. When it holds three or more characters besides the mask (x, *), the
 * unmasked card index finds the candidates by them (a value containing the text contains its
 * unmasked characters in a row once its own mask is dropped), and strpos, which no index serves,
 * keeps the planner off the folded trigram index whose `xxx` entry lists every masked card.
 */
function cardContains(text: string): SQL {
  const unmasked = text.toLowerCase().replace(/[x*]/g, '');
  if (unmasked.length < 3) return foldedContains(ejValues.folded, text);
  return sql`strpos(${ejValues.folded}, lower(${text})) > 0 and translate(${ejValues.folded}, 'x*', '') like translate(lower(${`%${likeEscaped(text)}%`}), 'x*', '')`;
}

/**
 * Each text filter matched against its field's distinct values, in one statement: how many
 * records hold a matching value, and the values themselves. Each field reads at most as many
 * values as the records that would make it dense (every value is held by at least one record), so
 * a broad card filter beside others stops early instead of reading a value per record.
 */
export async function matchValues(db: Db, kind: EjRecordKind, texts: ReadonlyArray<readonly [ValueField, string]>): Promise<ValueMatch[]> {
  const perField = texts.map(
    ([field, text]) => sql`(select ${field}::text as field, count(*) as values, coalesce(sum(n), 0) as total, (select few from threshold) as few,
        case when count(*) < (select few from threshold) then array_agg(value) end as kept
      from (select ${ejValues.value} as value, ${ejValues.n} as n from ${ejValues}
            where ${valuesOf(kind, field, text)} limit (select few from threshold)) matched)`,
  );
  const matched = sql`with threshold as (select ${denseThreshold(kind)} as few) ${sql.join(perField, sql` union all `)}`;
  // Each filter's values read among the field's (6 ms for all seven filters at 10,000,000 records):
  // kept with ej_records' write version, as the counts are.
  const rows = await keptAnswer(db, matched, ['ej_records'], (read) =>
    queryRows<{ field: ValueField; values: string; total: string; few: string; kept: string[] | null }>(read, matched),
  );
  return rows.map((r) => {
    const few = Number(r.few);
    const total = Number(r.total);
    const values = Number(r.values);
    return {
      field: r.field,
      text: texts.find(([f]) => f === r.field)![1],
      total,
      dense: values >= few || total >= few,
      exact: r.kept,
    };
  });
}

/**
 * How many records hold a value matching the text (one filter alone, whose count this is), and the
 * dense threshold of the kind. At most `counting.upTo` matching values are read (each holds a
 * record or more): past them the total is estimated, the planner's count of matching values times
 * the records per value of those read (a masked card number's part matches a million cards).
 */
export async function sumOfValues(
  db: Db,
  kind: EjRecordKind,
  field: ValueField,
  text: string,
  counting: Counting = listCounting,
): Promise<{ total: number; few: number; exact: boolean }> {
  const matching = sql`select ${ejValues.n} as n from ${ejValues} where ${valuesOf(kind, field, text)}`;
  const bounded = counting.exact ? matching : sql`${matching} limit ${counting.upTo + 1}`;
  const summed = sql`select coalesce(sum(n), 0) as total, count(*) as read, ${denseThreshold(kind)} as few from (${bounded}) v`;
  // Kept with the records' write version (ej_values is theirs, written with them), as a count is.
  return keptAnswer(
    db,
    summed,
    ['ej_records'],
    async (read) => {
      const [row] = await queryRows<{ total: string; read: string; few: string }>(read, summed);
      const total = Number(row?.total ?? 0);
      const few = Number(row?.few ?? 0);
      const seen = Number(row?.read ?? 0);
      if (counting.exact || seen <= counting.upTo) return { total, few, exact: true };
      const values = await plannedRows(read, matching);
      return { total: Math.max(total, Math.round((total / seen) * values)), few, exact: false };
    },
    (kept) => kept.exact || !counting.exact,
  );
}

/** The values matching the text (a sparse match: few). */
export async function exactValues(db: Db, kind: EjRecordKind, field: ValueField, text: string): Promise<string[]> {
  const rows = await db
    .select({ value: ejValues.value })
    .from(ejValues)
    .where(valuesOf(kind, field, text));
  return rows.map((r) => r.value);
}

/** The records holding one of the values: through the column's (value, kind, id) index. */
export const holding = (field: ValueField, values: string[]) => sql`${valueFields[field].column} = any(${sql.param(values)}::text[])`;

/** The kind's record count: every record has one bank value (possibly ''), so their sum. */
const kindRecords = (kind: EjRecordKind) =>
  sql`(select coalesce(sum(${ejValues.n}), 0) from ${ejValues} where ${ejValues.kind} = ${kind} and ${ejValues.field} = 'bank_name' and ${ejValues.n} > 0)`;

/** At most this many records make a sparse match, whatever the table's size... */
const SPARSE_MOST = 5_000;

/**
 * Under this many of the kind's records, a match is sparse (DENSE of them, rounded up, and at most
 * SPARSE_MOST): its values are read whole and looked up. The share alone grew with the table (a
 * broad card filter read 160,000 values at 10,000,000 records to learn it was dense).
 */
const denseThreshold = (kind: EjRecordKind) => sql`least(ceil(${kindRecords(kind)} * ${DENSE})::bigint, ${SPARSE_MOST})`;

export async function kindTotal(db: Db, kind: EjRecordKind): Promise<number> {
  const [row] = await queryRows<{ n: string }>(db, sql`select ${kindRecords(kind)} as n`);
  return Number(row?.n ?? 0);
}

/** Dates, bank and sender in any mix: the sum of their ej_counts rows. */
export async function countFromEjCounts(db: Db, filters: EjFilters): Promise<number> {
  // A week's rows (a bank's sender's day each) took 3.7 ms of each page at 10,000,000 records.
  return keptSum(db, ejCounts, eq(ejCounts.kind, filters.kind), filters, 'ej_records');
}

/** A table of counts by transaction day, bank and sender: ej_counts, dispute_counts. */
type DayCounts = { n: AnyColumn; transactionDay: AnyColumn; bankName: AnyColumn; mailReceivedFrom: AnyColumn };

/**
 * The sum of a counts table's rows under `condition` and the filters' days, bank and sender, kept
 * like a count with the write version of `writtenWith`, the table whose rows' triggers write it.
 */
export async function keptSum(db: Db, counts: DayCounts & Table, condition: SQL | undefined, filters: EjFilters, writtenWith: string): Promise<number> {
  const summed = (read: Db) =>
    read
      .select({ n: sql<string>`coalesce(sum(${counts.n}), 0)` })
      .from(counts)
      .where(
        and(
          condition,
          filters.startDate ? gte(counts.transactionDay, filters.startDate) : undefined,
          filters.endDate ? lte(counts.transactionDay, filters.endDate) : undefined,
          containsText(counts.bankName, filters.bankName),
          containsText(counts.mailReceivedFrom, filters.mailReceivedFrom),
        ),
      );
  return keptAnswer(db, summed(db).getSQL(), [writtenWith], async (read) => {
    const [row] = await summed(read);
    return Number(row?.n ?? 0);
  });
}
