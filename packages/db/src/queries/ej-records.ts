// EJ records: the dispute table (/email), the overage and succeeding lists, and batches for
// streaming exports. Newest first means the most recently extracted record first (id order).
import { and, count, desc, eq, gte, inArray, lt, lte, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../client.ts';
import { disputeCounts, disputeRecords, disputes, ejCounts, ejIdBlocks, ejRecords, ejValues, type EjRecordKind } from '../schema.ts';
import { copiedClockCondition, copiedPenalty, tatCondition, type TatFilter } from './disputes.ts';
import { containsText, foldedContains, likeEscaped, type Page, type PageOf } from './filters.ts';

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
}

const clockFiltered = (f: EjFilters) => f.tat !== undefined || f.ageFrom !== undefined || f.ageTo !== undefined;

const todayOf = (f: EjFilters) => {
  if (!f.today) throw new Error('the clock filters and orders need the day (today)');
  return f.today;
};

const ageOf = (f: EjFilters) => ({ from: f.ageFrom, to: f.ageTo });
const withoutClock = (f: EjFilters): EjFilters => ({ ...f, tat: undefined, ageFrom: undefined, ageTo: undefined });

/**
 * The clock filters on the record's row in dispute_records (joined by the caller): its copy of
 * the clock, or, for an age range that may take in resolved disputes, the dispute itself.
 */
function recordClockCondition(f: EjFilters): SQL | undefined {
  if (!clockFiltered(f)) return undefined;
  const onCopy = copiedClockCondition(disputeRecords, f.tat, todayOf(f), ageOf(f));
  if (onCopy !== null) return onCopy;
  return sql`exists (select 1 from ${disputes} where ${disputes.id} = ${disputeRecords.disputeId} and ${tatCondition(f.tat, todayOf(f), ageOf(f))})`;
}

/** Records whose dispute's clock matches the quick filter and age range. */
function clockConditions(f: EjFilters): SQL | undefined {
  if (!clockFiltered(f)) return undefined;
  return sql`exists (select 1 from ${disputeRecords} where ${disputeRecords.recordId} = ${ejRecords.id} and ${recordClockCondition(f)})`;
}

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

export function ejConditions(filters: EjFilters): SQL | undefined {
  return and(
    eq(ejRecords.kind, filters.kind),
    filters.startDate ? gte(ejRecords.transactionDate, filters.startDate) : undefined,
    filters.endDate ? lte(ejRecords.transactionDate, filters.endDate) : undefined,
    exactOrContains(ejRecords.atmId, filters.atmId),
    exactOrContains(ejRecords.cardNo, filters.cardNo),
    containsText(ejRecords.bankName, filters.bankName),
    containsText(ejRecords.mailSubject, filters.mailSubject),
    containsText(ejRecords.mailReceivedFrom, filters.mailReceivedFrom),
    clockConditions(filters),
  );
}

/** The disputes of the records the filters match (a bulk status change of "all N matching"). */
export const disputesMatching = (filters: EjFilters): SQL =>
  sql`select ${disputeRecords.disputeId} from ${ejRecords} join ${disputeRecords} on ${disputeRecords.recordId} = ${ejRecords.id} where ${ejConditions(filters)}`;

export type EjRecordRow = Awaited<ReturnType<typeof listEjRecords>>['rows'][number];

/** The text filters: each field's column in ej_records and its key in EjFilters. */
const valueFields = {
  atm_id: { column: ejRecords.atmId, filter: 'atmId' },
  bank_name: { column: ejRecords.bankName, filter: 'bankName' },
  card_no: { column: ejRecords.cardNo, filter: 'cardNo' },
  mail_subject: { column: ejRecords.mailSubject, filter: 'mailSubject' },
  mail_received_from: { column: ejRecords.mailReceivedFrom, filter: 'mailReceivedFrom' },
} as const;
type ValueField = keyof typeof valueFields;

/** The text filters given, as (field, text) pairs. */
const textFilters = (f: EjFilters) =>
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

const valuesOf = (kind: EjRecordKind, field: ValueField, text: string) =>
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
async function matchValues(db: Db, kind: EjRecordKind, texts: ReadonlyArray<readonly [ValueField, string]>): Promise<ValueMatch[]> {
  const perField = texts.map(
    ([field, text]) => sql`(select ${field}::text as field, count(*) as values, coalesce(sum(n), 0) as total, (select few from threshold) as few,
        case when count(*) < (select few from threshold) then array_agg(value) end as kept
      from (select ${ejValues.value} as value, ${ejValues.n} as n from ${ejValues}
            where ${valuesOf(kind, field, text)} limit (select few from threshold)) matched)`,
  );
  const rows = await queryRows<{ field: ValueField; values: string; total: string; few: string; kept: string[] | null }>(
    db,
    sql`with threshold as (select ${denseThreshold(kind)} as few) ${sql.join(perField, sql` union all `)}`,
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
 * How many records hold a value matching the text (all of them, however many: one filter alone,
 * whose count this is), and the dense threshold of the kind.
 */
async function sumOfValues(db: Db, kind: EjRecordKind, field: ValueField, text: string): Promise<{ total: number; few: number }> {
  const [row] = await queryRows<{ total: string; few: string }>(
    db,
    sql`select coalesce(sum(${ejValues.n}), 0) as total, ${denseThreshold(kind)} as few from ${ejValues} where ${valuesOf(kind, field, text)}`,
  );
  return { total: Number(row?.total ?? 0), few: Number(row?.few ?? 0) };
}

/** The values matching the text (a sparse match: few). */
async function exactValues(db: Db, kind: EjRecordKind, field: ValueField, text: string): Promise<string[]> {
  const rows = await db
    .select({ value: ejValues.value })
    .from(ejValues)
    .where(valuesOf(kind, field, text));
  return rows.map((r) => r.value);
}

/** The records holding one of the values: through the column's (value, kind, id) index. */
const holding = (field: ValueField, values: string[]) => sql`${valueFields[field].column} = any(${sql.param(values)}::text[])`;

/** The kind's record count: every record has one bank value (possibly ''), so their sum. */
const kindRecords = (kind: EjRecordKind) =>
  sql`(select coalesce(sum(${ejValues.n}), 0) from ${ejValues} where ${ejValues.kind} = ${kind} and ${ejValues.field} = 'bank_name' and ${ejValues.n} > 0)`;

/** Under this many of the kind's records, a match is sparse (DENSE of them, rounded up). */
const denseThreshold = (kind: EjRecordKind) => sql`ceil(${kindRecords(kind)} * ${DENSE})::bigint`;

async function kindTotal(db: Db, kind: EjRecordKind): Promise<number> {
  const [row] = await queryRows<{ n: string }>(db, sql`select ${kindRecords(kind)} as n`);
  return Number(row?.n ?? 0);
}

/** Dates, bank and sender in any mix: the sum of their ej_counts rows. */
async function countFromEjCounts(db: Db, filters: EjFilters): Promise<number> {
  const [row] = await db
    .select({ n: sql<string>`coalesce(sum(${ejCounts.n}), 0)` })
    .from(ejCounts)
    .where(
      and(
        eq(ejCounts.kind, filters.kind),
        filters.startDate ? gte(ejCounts.transactionDay, filters.startDate) : undefined,
        filters.endDate ? lte(ejCounts.transactionDay, filters.endDate) : undefined,
        containsText(ejCounts.bankName, filters.bankName),
        containsText(ejCounts.mailReceivedFrom, filters.mailReceivedFrom),
      ),
    );
  return Number(row?.n ?? 0);
}

/** The table's orders, each walking an index (kind, column, id); `id` is the order of extraction. */
export const ejOrderFields = ['id', 'transaction_date', 'transaction_amt', 'dispute_amt', 'atm_id', 'complaint_date', 'msp_ref_no'] as const;
/** The dispute table's orders by its clock: the due date (none last either way), the penalty so far. */
export const disputeOrderFields = [...ejOrderFields, 'due_date', 'penalty'] as const;
export type EjOrder = { field: (typeof disputeOrderFields)[number]; descending: boolean };
const clockOrdered = (order: EjOrder) => order.field === 'due_date' || order.field === 'penalty';
export const newestFirst: EjOrder = { field: 'id', descending: true };

/**
 * ORDER BY for an order: the column, then id the same way so ties keep one order across pages. An
 * empty date or amount counts as the smallest (first ascending, last descending): the index's
 * NULLS FIRST read forward or backward.
 */
function orderTerms(order: EjOrder): SQL[] {
  const id = order.descending ? desc(ejRecords.id) : sql`${ejRecords.id} asc`;
  if (order.field === 'id') return [id];
  if (clockOrdered(order)) throw new Error('the clock orders are served by clockPage');
  const column = ejRecordColumns[order.field as (typeof ejOrderFields)[number]];
  return [order.descending ? sql`${column} desc nulls last` : sql`${column} asc nulls first`, id];
}

/**
 * Complaint dates follow transaction dates, so the complaint order's walk under a range of
 * transaction dates read every earlier complaint first (587,334 records for a week two months back:
 * 1 s). The range's earliest complaint (latest, descending) bounds the walk instead, read from the
 * date index alone (it carries complaint_date: migration 0039). The bound holds for any other
 * filter too (it narrows the range's records). A record in the range with no complaint date leaves
 * the walk as it was: undated records come first ascending and last descending, outside any bound.
 */
async function complaintBound(db: Db, filters: EjFilters, order: EjOrder): Promise<SQL | undefined> {
  if (order.field !== 'complaint_date' || (!filters.startDate && !filters.endDate)) return undefined;
  const [row] = await queryRows<{ low: string | null; high: string | null; undated: boolean | null }>(
    db,
    sql`select min(complaint_date)::text as low, max(complaint_date)::text as high, bool_or(complaint_date is null) as undated
        from ej_records where ${ejConditions({ kind: filters.kind, startDate: filters.startDate, endDate: filters.endDate })}`,
  );
  if (!row || row.undated !== false) return undefined;
  return order.descending ? lte(ejRecords.complaintDate, row.high!) : gte(ejRecords.complaintDate, row.low!);
}

/** The page of records under `where` in the order (`skip` records above it). */
async function pageOf(db: Db, where: SQL | undefined, page: Page, order: EjOrder, skip = (page.page - 1) * page.pageSize) {
  const terms = orderTerms(order);
  const ids = db
    .select({ id: ejRecords.id })
    .from(ejRecords)
    .where(where)
    .orderBy(...terms)
    .limit(page.pageSize)
    .offset(skip)
    .as('page_ids');
  return db
    .select(ejRecordColumns)
    .from(ejRecords)
    .innerJoin(ids, eq(ejRecords.id, ids.id))
    .orderBy(...terms);
}

/** Up to this many bank or sender values, an ATM-ordered page merges one index range per value. */
const MERGED_VALUES = 64;

/**
 * A page in ATM ID order under a bank or sender filter. ATM IDs follow their bank (HRB... are
 * Harbor's), so walking the ATM order and checking the bank read every other bank's ATMs first
 * (0.5 s at 1,000,000 records). Instead each matching value's records are read in ATM order from
 * (kind, value, atm_id, id), as many as the page needs, and merged.
 */
async function atmOrderedPage(db: Db, kind: EjRecordKind, field: 'bank_name' | 'mail_received_from', values: string[], page: Page, order: EjOrder) {
  if (values.length === 0) return [];
  const skip = (page.page - 1) * page.pageSize;
  const column = sql.identifier(field);
  const atm = order.descending ? sql`atm_id desc nulls last` : sql`atm_id asc nulls first`;
  const id = order.descending ? sql`id desc` : sql`id asc`;
  const picked = await queryRows<{ id: number | string }>(
    db,
    sql`select r.id from unnest(${sql.param(values)}::text[]) as v(value)
        cross join lateral (
          select id, atm_id from ej_records where kind = ${kind} and ${column} = v.value order by ${atm}, ${id} limit ${skip + page.pageSize}
        ) r
        order by r.${atm}, r.${id} limit ${page.pageSize} offset ${skip}`,
  );
  if (picked.length === 0) return [];
  return db
    .select(ejRecordColumns)
    .from(ejRecords)
    .where(
      inArray(
        ejRecords.id,
        picked.map((p) => Number(p.id)),
      ),
    )
    .orderBy(...orderTerms(order));
}

/** Past this many records, an unfiltered page starts from its block in ej_id_blocks. */
const DEEP = 2000;

/**
 * A page of the whole kind, newest first. A deep one (page 10,000 skips 99,990 records) finds the
 * block of 1,024 ids holding its first record from the blocks' running counts, then skips only
 * within that block: a few hundred index entries instead of every record above the page.
 */
async function unfilteredPage(db: Db, kind: EjRecordKind, page: Page, order: EjOrder) {
  const skip = (page.page - 1) * page.pageSize;
  // Other orders skip along their index alone (an index-only read of the entries above the page).
  if (skip < DEEP || order.field !== 'id' || !order.descending) return pageOf(db, eq(ejRecords.kind, kind), page, order);
  const [at] = await queryRows<{ block: string; newer: string }>(
    db,
    sql`select block, upto - n as newer from (
          select ${ejIdBlocks.block} as block, ${ejIdBlocks.n} as n, sum(${ejIdBlocks.n}) over (order by ${ejIdBlocks.block} desc) as upto
          from ${ejIdBlocks} where ${ejIdBlocks.kind} = ${kind} and ${ejIdBlocks.n} > 0
        ) b where upto > ${skip} order by block desc limit 1`,
  );
  if (!at) return [];
  const below = (Number(at.block) + 1) * 1024;
  return pageOf(db, and(eq(ejRecords.kind, kind), lt(ejRecords.id, below)), page, order, skip - Number(at.newer));
}

/**
 * A page of the EJ table and the filter's count, from the smallest sets that answer them:
 * - no filter: the count is the sum of the kind's values in ej_values, deep pages start from
 *   ej_id_blocks;
 * - dates, bank and sender in any mix: the count sums ej_counts;
 * - text filters: each is matched against its field's distinct values in ej_values (a few
 *   thousand, not a million records). One text filter alone is counted by the sum of its values.
 *   When a filter's values are held by few records (under 2% of the kind), those values replace
 *   its substring condition, so the column's btree finds the candidate records and every other
 *   condition is checked on them alone (the count too). When every filter is broad, the page walks
 *   the id order (nearly every record read is on it) and the count reads the records: measured in
 *   the README beside the least it could read.
 */
export async function listEjRecords(db: Db, filters: EjFilters, page: Page, order: EjOrder = newestFirst) {
  if (clockFiltered(filters) || clockOrdered(order)) return clockPage(db, filters, page, order);
  const texts = textFilters(filters);
  if (texts.length === 0) {
    if (!filters.startDate && !filters.endDate)
      return { count: await kindTotal(db, filters.kind), rows: await unfilteredPage(db, filters.kind, page, order) } satisfies PageOf<unknown>;
    return {
      count: await countFromEjCounts(db, filters),
      rows: await pageOf(db, and(ejConditions(filters), await complaintBound(db, filters, order)), page, order),
    } satisfies PageOf<unknown>;
  }
  if (texts.length === 1 && !filters.startDate && !filters.endDate) {
    // One text filter alone: its values' sum is the count; few records go by their exact values.
    const [field, text] = texts[0]!;
    const { total, few } = await sumOfValues(db, filters.kind, field, text);
    if (total === 0) return { count: 0, rows: [] } satisfies PageOf<unknown>;
    if (order.field === 'atm_id' && (field === 'bank_name' || field === 'mail_received_from')) {
      const values = await exactValues(db, filters.kind, field, text);
      if (values.length <= MERGED_VALUES)
        return { count: total, rows: await atmOrderedPage(db, filters.kind, field, values, page, order) } satisfies PageOf<unknown>;
    }
    const where = total < few ? and(eq(ejRecords.kind, filters.kind), holding(field, await exactValues(db, filters.kind, field, text))) : ejConditions(filters);
    return { count: total, rows: await pageOf(db, where, page, order) } satisfies PageOf<unknown>;
  }
  const where = await narrowedConditions(db, filters, texts);
  if (where === null) return { count: 0, rows: [] } satisfies PageOf<unknown>;
  const onlyCounted = !filters.atmId && !filters.cardNo && !filters.mailSubject; // bank, sender, dates
  const count = onlyCounted ? await countFromEjCounts(db, filters) : await countWhere(db, where);
  return { count, rows: await pageOf(db, and(where, await complaintBound(db, filters, order)), page, order) } satisfies PageOf<unknown>;
}

/**
 * The filters' conditions, the narrowest sparse text filter replaced by its exact values (the
 * column's btree then finds the candidates, every other condition is checked on them alone);
 * null when a text filter matches no value at all.
 */
async function narrowedConditions(db: Db, filters: EjFilters, texts = textFilters(filters)): Promise<SQL | undefined | null> {
  if (texts.length === 0) return ejConditions(filters);
  const matches = await matchValues(db, filters.kind, texts);
  if (matches.some((m) => m.total === 0)) return null;
  const narrowest = matches.filter((m) => !m.dense && m.exact).sort((a, b) => a.total - b.total)[0];
  return narrowest
    ? and(ejConditions({ ...filters, [valueFields[narrowest.field].filter]: undefined }), holding(narrowest.field, narrowest.exact!))
    : ejConditions(filters);
}

/**
 * A page under the dispute clock's filters or in its orders (docs/benchmarks.md measures them at
 * 1,000,000 disputes). The count sums dispute_counts unless a text filter (ATM, card, subject) or
 * an age range over resolved disputes asks for the records themselves. The orders walk
 * dispute_records' copies of the clocks (clockOrderedIds).
 */
async function clockPage(db: Db, filters: EjFilters, page: Page, order: EjOrder) {
  // The table's own filters first, narrowed as listEjRecords narrows them (an ATM ID's few records).
  const base = await narrowedConditions(db, withoutClock(filters));
  if (base === null) return { count: 0, rows: [] } satisfies PageOf<unknown>;
  const count = await clockCount(db, filters, and(base, clockConditions(filters)));
  if (count === 0) return { count, rows: [] } satisfies PageOf<unknown>;
  if (!clockOrdered(order)) {
    const onCopy = copyOnlyCondition(filters, order);
    if (onCopy) {
      // The page is dispute_records' own, walked in record order (its open index, or its day index
      // for a range of transaction dates): checking each candidate in ej_records cost 80 ms for
      // 14,000 due soon, and 140 ms for the open disputes of a week two months back.
      const l = disputeRecords;
      const picked = await queryRows<{ id: string | number }>(
        db,
        sql`select ${l.recordId} as id from ${l} where ${onCopy}
            order by ${order.descending ? sql`${l.recordId} desc` : sql`${l.recordId} asc`}
            limit ${page.pageSize} offset ${(page.page - 1) * page.pageSize}`,
      );
      return {
        count,
        rows: await rowsInOrder(
          db,
          picked.map((p) => Number(p.id)),
        ),
      } satisfies PageOf<unknown>;
    }
    const set = await clockSet(db, filters);
    const where = and(base, set.condition);
    // The due-date sets' ids are read first already: the order's index then serves their page.
    const few = count <= FEW_MATCHES && !set.read;
    return {
      count,
      rows: few ? await fewPage(db, where, page, order) : await pageOf(db, and(where, await complaintBound(db, filters, order)), page, order),
    } satisfies PageOf<unknown>;
  }
  return { count, rows: await rowsInOrder(db, await clockOrderedIds(db, filters, base, page, order)) } satisfies PageOf<unknown>;
}

/**
 * The whole filter on dispute_records' copies, when it can be: disputes in id order under the
 * clock and at most a range of transaction dates (the other filters need ej_records' own indexes).
 */
function copyOnlyCondition(filters: EjFilters, order: EjOrder): SQL | undefined {
  if (filters.kind !== 'dispute' || order.field !== 'id') return undefined;
  if (filters.atmId || filters.bankName || filters.cardNo || filters.mailSubject || filters.mailReceivedFrom) return undefined;
  const onCopy = copiedClockCondition(disputeRecords, filters.tat, todayOf(filters), ageOf(filters));
  if (!onCopy) return undefined;
  return and(
    onCopy,
    filters.startDate ? gte(disputeRecords.transactionDate, filters.startDate) : undefined,
    filters.endDate ? lte(disputeRecords.transactionDate, filters.endDate) : undefined,
  );
}

/** Up to this many matches, a page is picked from all of them rather than by walking an order. */
const FEW_MATCHES = 5_000;

/**
 * A page of few matches: every match found first (planned for all of them: the date, bank or
 * clock index that holds them), then ordered. Walking the table's order for them instead reads
 * every record above them when they lie far down it (the open disputes of a week two months ago:
 * 0.5 s).
 */
async function fewPage(db: Db, where: SQL | undefined, page: Page, order: EjOrder) {
  // Named ej_records, so that the order's terms read the subquery's columns; OFFSET 0 keeps it whole.
  const picked = await queryRows<{ id: string | number }>(
    db,
    sql`select ej_records.id from (
          select id, ${sql.raw(ejOrderFields.filter((f) => f !== 'id').join(', '))} from ej_records where ${where} offset 0
        ) as ej_records
        order by ${sql.join(orderTerms(order), sql`, `)} limit ${page.pageSize} offset ${(page.page - 1) * page.pageSize}`,
  );
  return rowsInOrder(
    db,
    picked.map((p) => Number(p.id)),
  );
}

/** The records of these ids, in this order. */
async function rowsInOrder(db: Db, ids: number[]) {
  if (ids.length === 0) return [];
  const rows = await db.select(ejRecordColumns).from(ejRecords).where(inArray(ejRecords.id, ids));
  const at = new Map(ids.map((id, i) => [id, i]));
  return rows.sort((a, b) => at.get(a.id)! - at.get(b.id)!);
}

/** Up to this many records, a due-date quick filter's own records are read first. */
const FEW_DUE = 20_000;

/**
 * The clock filters as a condition on the records. Due today and due within 2 days hold few
 * records (a few days of due dates): read first, their ids checked against the other filters,
 * instead of walking the table's order until a page of them turns up (0.5 s when none does, as
 * for a week of transactions two months ago).
 */
async function clockSet(db: Db, filters: EjFilters): Promise<{ condition: SQL | undefined; read: boolean }> {
  // An ATM ID, card or subject narrows the records further: they are the candidates then.
  const narrowed = filters.atmId || filters.cardNo || filters.mailSubject;
  const onCopy =
    !narrowed && (filters.tat === 'due_today' || filters.tat === 'due_soon')
      ? copiedClockCondition(disputeRecords, filters.tat, todayOf(filters), ageOf(filters))
      : null;
  const walked = { condition: clockConditions(filters), read: false };
  if (!onCopy) return walked;
  const [row] = await db
    .select({ n: sql<string>`coalesce(sum(${disputeCounts.n}), 0)` })
    .from(disputeCounts)
    .where(copiedClockCondition(disputeCounts, filters.tat, todayOf(filters), ageOf(filters))!);
  if (Number(row?.n ?? 0) > FEW_DUE) return walked;
  return { condition: sql`${ejRecords.id} = any(array(select ${disputeRecords.recordId} from ${disputeRecords} where ${onCopy}))`, read: true };
}

/** The count: summed from dispute_counts when it holds every filter, else the records under `where`. */
async function clockCount(db: Db, filters: EjFilters, where: SQL | undefined): Promise<number> {
  const onCopy = clockFiltered(filters) ? copiedClockCondition(disputeCounts, filters.tat, todayOf(filters), ageOf(filters)) : undefined;
  if (filters.kind !== 'dispute' || filters.atmId || filters.cardNo || filters.mailSubject || onCopy === null) return countWhere(db, where);
  const c = disputeCounts;
  const [row] = await db
    .select({ n: sql<string>`coalesce(sum(${c.n}), 0)` })
    .from(c)
    .where(
      and(
        onCopy,
        filters.startDate ? gte(c.transactionDay, filters.startDate) : undefined,
        filters.endDate ? lte(c.transactionDay, filters.endDate) : undefined,
        containsText(c.bankName, filters.bankName),
        containsText(c.mailReceivedFrom, filters.mailReceivedFrom),
      ),
    );
  return Number(row?.n ?? 0);
}

/**
 * The ids of a page in a clock order, from dispute_records' indexes. Due date: one index each way
 * (none last). Penalty: it grows with the days overdue, so each open rate's records are in penalty
 * order on (rate, due date), the resolved ones' penalty is fixed (settled_penalty), and those
 * owing nothing go by id; each of these runs gives its first `skip + size` and the runs are merged.
 */
async function clockOrderedIds(db: Db, filters: EjFilters, base: SQL | undefined, page: Page, order: EjOrder): Promise<number[]> {
  const today = todayOf(filters);
  const l = disputeRecords;
  const where = and(base, recordClockCondition(filters));
  const skip = (page.page - 1) * page.pageSize;
  const joined = sql`${l} join ${ejRecords} on ${ejRecords.id} = ${l.recordId}`;
  const desc = order.descending;
  const id = desc ? sql`${l.recordId} desc` : sql`${l.recordId} asc`;
  if (order.field === 'due_date') {
    const due = desc ? sql`${l.dueDate} desc nulls last` : sql`${l.dueDate} asc nulls last`;
    const rows = await queryRows<{ id: string | number }>(
      db,
      sql`select ${l.recordId} as id from ${joined} where ${where} order by ${due}, ${id} limit ${page.pageSize} offset ${skip}`,
    );
    return rows.map((r) => Number(r.id));
  }
  const wanted = skip + page.pageSize;
  const penalty = copiedPenalty(today);
  const run = (condition: SQL, runOrder: SQL) =>
    sql`(select ${l.recordId} as id, ${penalty} as penalty from ${joined} where ${and(where, condition)} order by ${runOrder} limit ${wanted})`;
  const openOnly = filters.tat !== undefined && filters.tat !== 'resolved';
  const rates = filters.tat === 'resolved' ? [] : await openRates(db);
  const runs: SQL[] = [];
  if (filters.tat !== 'resolved') {
    for (const rate of rates) {
      // Owing: the oldest due date owes the most (ties: id, the page's way).
      runs.push(
        run(
          sql`${l.open} and ${l.penaltyPerDay} = ${rate} and ${l.dueDate} < ${today}::date`,
          desc ? sql`${l.dueDate} asc, ${l.recordId} desc` : sql`${l.dueDate} desc, ${l.recordId} asc`,
        ),
        // Not due yet: nothing owed.
        run(sql`${l.open} and ${l.penaltyPerDay} = ${rate} and ${l.dueDate} >= ${today}::date`, id),
      );
    }
    runs.push(run(sql`${l.open} and (${l.penaltyPerDay} = 0 or ${l.dueDate} is null)`, id));
  }
  if (!openOnly) {
    runs.push(
      run(
        sql`not ${l.open} and ${l.settledPenalty} > 0`,
        desc ? sql`${l.settledPenalty} desc, ${l.recordId} desc` : sql`${l.settledPenalty} asc, ${l.recordId} asc`,
      ),
      run(sql`not ${l.open} and ${l.settledPenalty} = 0`, id),
    );
  }
  const way = desc ? sql`desc` : sql`asc`;
  const rows = await queryRows<{ id: string | number }>(
    db,
    sql`select id from (${sql.join(runs, sql` union all `)}) runs order by penalty ${way}, id ${way} limit ${page.pageSize} offset ${skip}`,
  );
  return rows.map((r) => Number(r.id));
}

/** The penalties per day of open disputes (a rule's each: a handful). */
async function openRates(db: Db): Promise<string[]> {
  const rows = await queryRows<{ rate: string }>(
    db,
    sql`select distinct ${disputeCounts.penaltyPerDay}::text as rate from ${disputeCounts}
        where ${disputeCounts.open} and ${disputeCounts.n} > 0 and ${disputeCounts.penaltyPerDay} > 0`,
  );
  return rows.map((r) => r.rate);
}

async function countWhere(db: Db, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ n: count() }).from(ejRecords).where(where);
  return row?.n ?? 0;
}

/**
 * The record fields as exports and the JSON lists give them, straight from the driver: dates as
 * YYYY-MM-DD and amounts as decimal text (as the API's pages give them), ids as numbers. Read with
 * plain SQL, not drizzle's select, whose per-cell mapping was half the cost of a large export.
 */
const exportSelect = sql.join(
  Object.entries(ejRecordColumns).map(([name, column]) => {
    // Text as it is; the numeric id as a JS number; dates and amounts as their text.
    const value = column.columnType === 'PgText' ? sql`${column}` : column.dataType === 'number' ? sql`${column}::float8` : sql`${column}::text`;
    return sql`${value} as ${sql.identifier(name)}`;
  }),
  sql`, `,
);
type ExportedRecord = { [K in keyof typeof ejRecordColumns]: K extends 'id' ? number : string | null };

/**
 * Every record that matches, newest first, in batches: keyset paging on id keeps each batch an
 * index range, so an export of any size streams in bounded memory. The next batch is read while
 * the caller writes this one (one batch ahead, no more). Batches of 1,000 die young: at 5,000
 * each batch outlived V8's young generation, and the API's heap grew by 100-160 MB over an
 * 800,000-row export (bench/export.ts measures it).
 */
export async function* ejRecordBatches(db: Db, filters: EjFilters, batchSize = 1000): AsyncGenerator<ExportedRecord[]> {
  const where = ejConditions(filters);
  const read = (before: number | undefined) => {
    const reading = queryRows<ExportedRecord>(
      db,
      sql`select ${exportSelect} from ej_records
          where ${and(where, before === undefined ? undefined : lt(ejRecords.id, before))}
          order by ej_records.id desc limit ${batchSize}`,
    );
    reading.catch(() => undefined); // a read-ahead the caller no longer wants must not fail the process
    return reading;
  };
  let next: Promise<ExportedRecord[]> | null = read(undefined);
  while (next) {
    const batch: ExportedRecord[] = await next;
    next = batch.length === batchSize ? read(batch[batch.length - 1]!.id) : null;
    if (batch.length) yield batch;
  }
}
