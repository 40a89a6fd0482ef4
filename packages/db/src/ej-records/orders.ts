// The dispute table's orders (each walking an index) and the page of records under a condition in
// one of them.
import { and, type AnyColumn, desc, eq, gte, lte, or, sql, type SQL } from 'drizzle-orm';
import { type Db, queryRows, rowsOfKeptPlan } from '../client.ts';
import { keptAnswer } from '../counts/index.ts';
import type { Page } from '../filters.ts';
import { ejConditions, type EjFilters, ejRecordColumns, kindIs, type ValueField, valueFields, valuesOf } from './filters.ts';
import { ejCounts, type EjRecordKind, ejRecords, ejValues } from './schema.ts';

/** The table's orders, each walking an index (kind, column, id); `id` is the order of extraction. */
export const ejOrderFields = ['id', 'transaction_date', 'transaction_amt', 'dispute_amt', 'atm_id', 'complaint_date', 'msp_ref_no'] as const;
/**
 * The dispute table's orders by its clock: the TAT due date, the nearest open deadline of all its
 * clocks (none last either way), the penalty so far.
 */
export const disputeOrderFields = [...ejOrderFields, 'due_date', 'next_deadline', 'penalty'] as const;
export type EjOrder = { field: (typeof disputeOrderFields)[number]; descending: boolean };
export const clockOrdered = (order: EjOrder) => order.field === 'due_date' || order.field === 'next_deadline' || order.field === 'penalty';
export const newestFirst: EjOrder = { field: 'id', descending: true };
/** The page sizes the screens offer (the Pager's): a first page in one of them keeps its plan. */
export const screenPageSizes: readonly number[] = [10, 20, 50, 100];

/**
 * ORDER BY for an order: the column, then id the same way so ties keep one order across pages. An
 * empty date or amount counts as the smallest (first ascending, last descending): the index's
 * NULLS FIRST read forward or backward.
 */
export function orderTerms(order: EjOrder): SQL[] {
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
 * range's ej_counts rows, or where their bounds are not known from the date index alone (it
 * carries complaint_date: migration 0039). The bound holds for any other
 * filter too (it narrows the range's records). A record in the range with no complaint date leaves
 * the walk as it was: undated records come first ascending and last descending, outside any bound.
 */
async function complaintBound(db: Db, filters: EjFilters, order: EjOrder): Promise<SQL | undefined> {
  if (order.field !== 'complaint_date' || (!filters.startDate && !filters.endDate)) return undefined;
  // The range's ej_counts rows (a bank's sender's day each, a few hundred for a week) bound their
  // records' complaint dates (migration 0065): the week's index entries grow with the table (the
  // shape took 55 ms at 10,000,000 records). The records are read only where a row's are not known.
  const [counted] = await queryRows<{ low: string | null; high: string | null; undated: boolean | null; unknown: boolean | null }>(
    db,
    sql`select min(${ejCounts.complaintFirst})::text as low, max(${ejCounts.complaintLast})::text as high,
               bool_or(${ejCounts.complaintMissing}) as undated, bool_or(${ejCounts.complaintMissing} is null) as unknown
        from ${ejCounts}
        where ${and(
          eq(ejCounts.kind, filters.kind),
          filters.startDate ? gte(ejCounts.transactionDay, filters.startDate) : undefined,
          filters.endDate ? lte(ejCounts.transactionDay, filters.endDate) : undefined,
          sql`${ejCounts.n} > 0`,
        )}`,
  );
  const row = counted?.unknown
    ? (
        await queryRows<{ low: string | null; high: string | null; undated: boolean | null }>(
          db,
          sql`select min(complaint_date)::text as low, max(complaint_date)::text as high, bool_or(complaint_date is null) as undated
              from ej_records where ${ejConditions({ kind: filters.kind, startDate: filters.startDate, endDate: filters.endDate })}`,
        )
      )[0]
    : counted;
  if (!row || row.undated !== false) return undefined;
  return order.descending ? lte(ejRecords.complaintDate, row.high!) : gte(ejRecords.complaintDate, row.low!);
}

/** How long a process keeps the partitions' bounds it read (a month is made once a month). */
const EDGES_KEPT_MS = 60_000;
const monthEdges = new WeakMap<Db, { edges: string[]; read: number }>();

/**
 * The bounds of ej_records' month partitions, in order. Read once a minute: a bound read before a
 * month was made or dropped still bounds correctly (the spans below cover all time whatever the
 * partitions), it only prunes less.
 */
async function receivedMonthEdges(db: Db): Promise<string[]> {
  const kept = monthEdges.get(db);
  if (kept && Date.now() - kept.read < EDGES_KEPT_MS) return kept.edges;
  const rows = await queryRows<{ at: string }>(
    db,
    sql`select at::text as at from (
          select distinct unnest(array[b[1], b[2]])::timestamptz as at
          from pg_inherits i join pg_class c on c.oid = i.inhrelid
          cross join lateral regexp_match(pg_get_expr(c.relpartbound, c.oid), 'FROM [(]''([^'']*)''[)] TO [(]''([^'']*)''[)]') b
          where i.inhparent = 'ej_records'::regclass -- the default partition's bound (DEFAULT) matches nothing
        ) e where e.at is not null order by e.at`,
  );
  const edges = rows.map((r) => r.at);
  monthEdges.set(db, { edges, read: Date.now() });
  return edges;
}

type MonthSpan = { low?: string; high?: string };

/**
 * The spans of time the partitions' bounds cut: span i runs from edge i - 1 (none: all time
 * before) to edge i (none: all time after), so that the spans cover all time whatever the
 * partitions (the default partition's rows lie in the spans before, between and after them).
 */
const monthSpans = (edges: string[]): MonthSpan[] => Array.from({ length: edges.length + 1 }, (_, i) => ({ low: edges[i - 1], high: edges[i] }));

/** The records received within a span: a condition that prunes to its partition. */
const within = ({ low, high }: MonthSpan) =>
  and(
    low === undefined ? undefined : sql`${ejRecords.createAt} >= ${low}::timestamptz`,
    high === undefined ? undefined : sql`${ejRecords.createAt} < ${high}::timestamptz`,
  );

/**
 * ej_records is stored by the month a record was received (create_at), and a range of transaction
 * dates says nothing of it: a page of the range in id order merged every month's walk, and a month
 * without a record in the range was read to its end (a week of October read all fourteen months
 * at 1,000,000 records). Each month (each partition's bounds, and the default partition's spans
 * before, between and after them) is asked whether it holds a record of the range, from its
 * (kind, transaction date) index, each probe a branch of its own so that it reads its partition
 * alone (one EXISTS over the spans became a join that read the range in every month). The months
 * that do bound create_at, so the page reads those partitions alone. Null when no month does (no
 * record matches); none without a date range.
 */
async function receivedBound(db: Db, filters: EjFilters): Promise<SQL | undefined | null> {
  if (!filters.startDate && !filters.endDate) return undefined;
  const range = ejConditions({ kind: filters.kind, startDate: filters.startDate, endDate: filters.endDate });
  const spans = monthSpans(await receivedMonthEdges(db));
  const probes = sql.join(
    spans.map((span, i) => sql`(select ${i}::int as span from ${ejRecords} where ${and(range, within(span))} limit 1)`),
    sql` union all `,
  );
  // Kept with ej_records' write version, as the range's count is: planning the probes over every
  // month took longer than the page they bound.
  const held = new Set((await keptAnswer(db, probes, ['ej_records'], (read) => queryRows<{ span: number }>(read, probes))).map((r) => Number(r.span)));
  return spansHeld(spans, held);
}

/** The records received within the spans held (their indexes): null when none is, none when all are. */
function spansHeld(spans: MonthSpan[], held: Set<number>): SQL | undefined | null {
  if (held.size === 0) return null;
  if (held.size === spans.length) return undefined;
  // Adjacent spans held are one range.
  const ranges: MonthSpan[] = [];
  spans.forEach((span, i) => {
    if (!held.has(i)) return;
    if (held.has(i - 1)) ranges.at(-1)!.high = span.high;
    else ranges.push({ ...span });
  });
  return or(...ranges.map(within));
}

/**
 * The months holding a kind's records with ids from `low` to `high`: a condition that prunes a
 * deep page's walk to their partitions (planned over every month it took 1.5 ms of page 10,000's
 * 2). Each month's lowest and highest id come from its (kind, id) index, kept with ej_records'
 * write version. Null when no month holds one.
 */
export async function idsReceived(db: Db, kind: EjRecordKind, low: number, high: number): Promise<SQL | undefined | null> {
  const spans = monthSpans(await receivedMonthEdges(db));
  const bounds = sql.join(
    spans.map(
      (span, i) =>
        sql`(select ${i}::int as span, min(${ejRecords.id})::float8 as low, max(${ejRecords.id})::float8 as high
             from ${ejRecords} where ${and(kindIs(kind), within(span))})`,
    ),
    sql` union all `,
  );
  const months = await keptAnswer(db, bounds, ['ej_records'], (read) => queryRows<{ span: number; low: number | null; high: number | null }>(read, bounds));
  const held = months.filter((m) => m.low !== null && m.high !== null && m.low <= high && m.high >= low).map((m) => Number(m.span));
  return spansHeld(spans, new Set(held));
}

/**
 * What a page under the filters may add to its condition and still hold every match: the months
 * holding the date range (receivedBound) and, in complaint order, the range's complaint dates.
 * Null when no record is in the range.
 */
async function pageBounds(db: Db, filters: EjFilters, order: EjOrder): Promise<SQL | undefined | null> {
  const received = await receivedBound(db, filters);
  return received === null ? null : and(received, await complaintBound(db, filters, order));
}

/** Up to this many days, a range's page in id order is merged from each day's own walk... */
const MERGED_DAYS = 400;
/** ...and up to this many records above and on the page (deeper pages walk the id order). */
const MERGED_DEPTH = 2000;

/**
 * The page of records under `where` (the filters' conditions, perhaps narrowed) within the filters'
 * range of transaction dates. In id order, walking the ids of the range's months still read every
 * record received after the page's (a week two months back read 54,000 records of its month at
 * 1,000,000, ten times that at 10,000,000); instead each day of the range gives its first records
 * from the (kind, transaction date, id) index and they are merged (dayMergedIds): at most
 * days x (skip + page size) entries, whatever the table's size. Other orders, longer ranges and
 * deeper pages walk their order within pageBounds.
 */
export async function rangePage(db: Db, filters: EjFilters, where: SQL | undefined, page: Page, order: EjOrder) {
  if (order.field !== 'id' || !dayMerged(filters, page)) {
    const bounds = await pageBounds(db, filters, order);
    return bounds === null ? [] : pageOf(db, and(where, bounds), page, order);
  }
  // Each day's walk reads a month from one index entry, but it was planned over every month's
  // partition and its indexes (2 to 3 ms of a week's page at 10,000,000 records): the months
  // holding the range bound it, in sight of the planner (not in the opaque test), so it plans those.
  const received = await receivedBound(db, filters);
  if (received === null) return [];
  const ids = await dayMergedIds(db, filters, page, order.descending, {
    from: sql`${ejRecords}`,
    id: ejRecords.id,
    day: ejRecords.transactionDate,
    scope: and(sql`${ejRecords.kind} = ${filters.kind}`, received),
    where,
  });
  return rowsInOrder(db, ids);
}

/** Whether a page of the filters' date range is merged from its days (dayMergedIds). */
export function dayMerged(filters: Pick<EjFilters, 'startDate' | 'endDate'>, page: Page): boolean {
  const { startDate, endDate } = filters;
  const days = startDate && endDate ? (Date.parse(endDate) - Date.parse(startDate)) / 86_400_000 + 1 : NaN;
  return days >= 1 && days <= MERGED_DAYS && page.page * page.pageSize <= MERGED_DEPTH;
}

/**
 * The page's ids in id order, each day of the range walked from a (scope, day, id) index and merged.
 * The other conditions (`where`) are one opaque test (CASE): the planner multiplied the text
 * filters' guesses to almost no match, read each day whole and sorted it (20 ms for a week of five
 * text filters at 1,000,000 records, ten times the day's records at 10,000,000) instead of walking
 * the day in id order until the page's records turn up (1 ms). The range itself stays in sight: the
 * day is a parameter when each partition's plan is made, and a month far from the range, guessing
 * a share of its rows on any day, walked its whole id order for none (50 ms at 10,000,000).
 */
export async function dayMergedIds(
  db: Db,
  filters: Pick<EjFilters, 'startDate' | 'endDate'>,
  page: Page,
  descending: boolean,
  table: { from: SQL; id: AnyColumn; day: AnyColumn; scope?: SQL; where: SQL | undefined },
): Promise<number[]> {
  return mergedWalkIds(db, page, descending, {
    walks: sql`generate_series(${filters.startDate}::date, ${filters.endDate}::date, interval '1 day') as walk(day)`,
    from: table.from,
    id: table.id,
    walked: sql`${and(table.scope, gte(table.day, filters.startDate!), lte(table.day, filters.endDate!))} and ${table.day} = walk.day::date`,
    where: table.where,
  });
}

/**
 * The page's ids in id order, merged from one walk in id order per row of `walks` (a day, a value),
 * each reading the rows `walked` picks for it (an index's (…, id) range) as far as the page's
 * depth. The other conditions (`where`) are one opaque test (CASE), so that the planner walks the
 * index in id order instead of guessing how few rows they leave (dayMergedIds says why).
 */
async function mergedWalkIds(
  db: Db,
  page: Page,
  descending: boolean,
  walk: { walks: SQL; from: SQL; id: AnyColumn; walked: SQL; where: SQL | undefined },
): Promise<number[]> {
  const depth = page.page * page.pageSize;
  const direction = sql.raw(descending ? 'desc' : 'asc');
  const picked = await queryRows<{ id: number | string }>(
    db,
    sql`select r.id from ${walk.walks}
        cross join lateral (
          select ${walk.id} as id from ${walk.from}
          where ${walk.walked} and (case when ${walk.where ?? sql`true`} then true else false end)
          order by ${walk.id} ${direction} limit ${depth}
        ) r
        order by r.id ${direction} limit ${page.pageSize} offset ${depth - page.pageSize}`,
  );
  return picked.map((p) => Number(p.id));
}

/** The fields whose records an index walks in id order per value ((kind, value, id) or (value, kind, id)). */
const walkedByValue: ReadonlySet<ValueField> = new Set(['atm_id', 'card_no', 'mail_subject']);
/** Up to this many values, a few matches' page in id order merges one walk per value. */
const MERGED_VALUES = 64;

/** Whether a page in id order can merge one walk per value of `field` (valueMergedIds): an index walks it and the values are few. */
export const mergesByValue = (field: ValueField, values: number) => walkedByValue.has(field) && values <= MERGED_VALUES;

/**
 * The page's ids in id order among the records holding a few values, each value's records walked
 * in id order from its index and merged, the other conditions (`where`) one opaque test (as
 * dayMergedIds): the page reads about as many records as it needs from each value. Reading every
 * record of an ATM ID's part under the open clock (10 ATMs, their records ten times as many at
 * 10,000,000) and then ordering them took 14 ms.
 */
export function valueMergedIds(db: Db, kind: EjRecordKind, field: ValueField, values: string[], where: SQL | undefined, page: Page, descending: boolean) {
  return mergedWalkIds(db, page, descending, {
    walks: sql`unnest(${sql.param(values)}::text[]) as walk(value)`,
    from: sql`${ejRecords}`,
    id: ejRecords.id,
    walked: sql`${kindIs(kind)} and ${valueFields[field].column} = walk.value`,
    where,
  });
}

/** The records of these ids, in the ids' order. */
export async function rowsInOrder(db: Db, ids: number[]) {
  if (ids.length === 0) return [];
  // A named statement: after its first uses on a connection PostgreSQL keeps one plan for it. Each
  // of these reads a few rows by id, and planning them over every month's partition took longer
  // than reading them (1 to 3 ms of each page).
  const rows = await db
    .select(ejRecordColumns)
    .from(ejRecords)
    .where(sql`${ejRecords.id} = any(${sql.placeholder('ids')}::bigint[])`)
    .prepare('ej_rows_in_order')
    .execute({ ids });
  const at = new Map(ids.map((id, i) => [id, i]));
  return rows.sort((a, b) => at.get(a.id)! - at.get(b.id)!);
}

/**
 * The page of the few records holding a sparse text filter's values (one filter alone, up to
 * FEW_MATCHES records), all read and then ordered. Each value is looked up only in the months its
 * records were received in (ej_values.first_at to last_at, migration 0064): the bounds prune each
 * value's lookup to those partitions as it runs. Looked up in every month, the 828 cards ending
 * 1024 at 10,000,000 records were 13,000 index probes (41 ms) instead of 828. A value with no
 * bounds (counted before 0064) is looked up in every month. The statement's text is the same for
 * any values (they are parameters), so each connection keeps one plan: a branch per month written
 * in took 6 ms to plan, longer than its read.
 */
export async function heldPage(db: Db, kind: EjRecordKind, field: ValueField, text: string, total: number, page: Page, order: EjOrder) {
  // The bounds as text: a JavaScript Date would cut them to milliseconds, and a record received
  // within the last one would fall outside.
  const matched = sql`select ${ejValues.value} as value, ${ejValues.firstAt}::text as low, ${ejValues.lastAt}::text as high
        from ${ejValues} where ${valuesOf(kind, field, text)}`;
  // The values are matched among every value of the field (19 ms for a card's last four digits at
  // 10,000,000 records): kept with ej_records' write version, as the filter's count is.
  const held = await keptAnswer(db, matched, ['ej_records'], (read) => queryRows<{ value: string; low: string | null; high: string | null }>(read, matched));
  if (held.length === 0) return [];
  // A few values (an ATM ID's part: ten ATMs, 3,899 records at 10,000,000) in id order: each
  // value's walk gives the page's depth at most, instead of every record read and ordered.
  const depth = page.page * page.pageSize;
  if (order.field === 'id' && mergesByValue(field, held.length) && held.length * depth < total) {
    const values = held.map((h) => h.value);
    return rowsInOrder(db, await valueMergedIds(db, kind, field, values, undefined, page, order.descending));
  }
  const column = valueFields[field].column;
  const columns = sql.raw(ejOrderFields.join(', '));
  // Named ej_records, so that the order's terms read the lookup's columns.
  const picked = await rowsOfKeptPlan<{ id: string | number }>(
    db,
    sql`select ej_records.id
        from unnest(${sql.param(held.map((h) => h.value))}::text[], ${sql.param(held.map((h) => h.low))}::timestamptz[], ${sql.param(held.map((h) => h.high))}::timestamptz[])
          as v(value, low, high)
        cross join lateral (
          select ${columns} from ${ejRecords}
          where ${kindIs(kind)} and ${column} = v.value
            and ${ejRecords.createAt} >= coalesce(v.low, '-infinity') and ${ejRecords.createAt} <= coalesce(v.high, 'infinity')
        ) as ej_records
        order by ${sql.join(orderTerms(order), sql`, `)} limit ${page.pageSize} offset ${(page.page - 1) * page.pageSize}`,
  );
  return rowsInOrder(
    db,
    picked.map((p) => Number(p.id)),
  );
}

/**
 * The page of records under `where` in the order (`skip` records above it): its ids, then their
 * rows by the named statement (one table planned over every month's partitions, not two).
 */
export async function pageOf(db: Db, where: SQL | undefined, page: Page, order: EjOrder, skip = (page.page - 1) * page.pageSize) {
  const ids = await db
    .select({ id: ejRecords.id })
    .from(ejRecords)
    .where(where)
    .orderBy(...orderTerms(order))
    .limit(page.pageSize)
    .offset(skip);
  return rowsInOrder(
    db,
    ids.map((r) => r.id),
  );
}
