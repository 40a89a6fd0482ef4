// The dispute table under a journal verdict, from dispute_records' copy of each dispute's verdict
// (kept by triggers on dispute_evidence, disputes/functions.sql): the verdict's records are a range
// of (verdict, record_id), in id order, and their count an index-only count. With the clock's
// filters or dates, the page and count are dispute_records' own (its copies of them); with other
// filters, the verdict's records are read first when few, else each candidate's copy is checked.
import { and, eq, gte, lte, sql, type SQL } from 'drizzle-orm';
import { type Db, queryRows } from '../client.ts';
import { copiedClockCondition, disputeRecords } from '../disputes/index.ts';
import type { Page, PageOf } from '../filters.ts';
import { clockOrderedIds, countWhere, FEW_MATCHES, fewPage, narrowedConditions } from './clock-pages.ts';
import { rowsInOrder } from './orders.ts';
import { ageOf, clockFiltered, type EjFilters, todayOf, verdictCondition, verdictSet } from './filters.ts';
import { clockOrdered, type EjOrder, pageOf } from './orders.ts';

const l = disputeRecords;

/** Up to this many records of a verdict within dates, the page is picked from all of them. */
const FEW_DATED = 20_000;

/** Dispute records of the verdict in id order and the dates and clock filters at most: dispute_records' copies answer all. */
function onCopies(filters: EjFilters, verdict: string, order: EjOrder): SQL | undefined {
  if (filters.kind !== 'dispute' || order.field !== 'id') return undefined;
  if (filters.atmId || filters.bankName || filters.cardNo || filters.mailSubject || filters.mailReceivedFrom) return undefined;
  const clock = clockFiltered(filters) ? copiedClockCondition(l, filters.tat, todayOf(filters), ageOf(filters)) : undefined;
  if (clock === null) return undefined;
  return and(
    eq(l.verdict, verdict),
    clock,
    filters.startDate ? gte(l.transactionDate, filters.startDate) : undefined,
    filters.endDate ? lte(l.transactionDate, filters.endDate) : undefined,
  );
}

async function countOf(db: Db, where: SQL | undefined) {
  const [row] = await queryRows<{ n: string }>(db, sql`select count(*) as n from ${l} where ${where}`);
  return Number(row?.n ?? 0);
}

/** A page of the records whose dispute's journal verdict is `verdict`, and their count. */
export async function verdictPage(db: Db, filters: EjFilters, verdict: string, page: Page, order: EjOrder) {
  const copied = onCopies(filters, verdict, order);
  if (copied) {
    // The verdict's index range (alone), or it beside the date or clock index.
    const count = await countOf(db, copied);
    if (count === 0) return { count, rows: [] } satisfies PageOf<unknown>;
    // A range of dates holding few: all of them read by the day index, then sorted (walking the
    // verdict's id order to a month two months back read 43,000 entries: 100 ms against 50).
    const readAll = (filters.startDate || filters.endDate) && count <= FEW_DATED;
    const matches = readAll ? sql`(select ${l.recordId} as record_id from ${l} where ${copied} offset 0) as ${l}` : sql`${l} where ${copied}`;
    const picked = await queryRows<{ id: string | number }>(
      db,
      sql`select ${l.recordId} as id from ${matches}
          order by ${l.recordId} ${order.descending ? sql`desc` : sql`asc`} limit ${page.pageSize} offset ${(page.page - 1) * page.pageSize}`,
    );
    return {
      count,
      rows: await rowsInOrder(
        db,
        picked.map((p) => Number(p.id)),
      ),
    } satisfies PageOf<unknown>;
  }
  // The other filters, an ATM ID's or a card's few records by their values.
  const base = await narrowedConditions(db, { ...filters, verdict: undefined });
  if (base === null) return { count: 0, rows: [] } satisfies PageOf<unknown>;
  // A verdict of few records: its records read first, the other filters checked on them alone.
  const few = (await countOf(db, eq(l.verdict, verdict))) <= FEW_MATCHES;
  const where = and(base, few ? verdictSet(verdict) : verdictCondition(verdict));
  const { n: count, exact } = await countWhere(db, where, filters);
  if (count === 0) return { count, rows: [] } satisfies PageOf<unknown>;
  if (clockOrdered(order))
    return { count, exact, rows: await rowsInOrder(db, await clockOrderedIds(db, filters, where, page, order)) } satisfies PageOf<unknown>;
  return {
    count,
    exact,
    rows: !exact || count > FEW_MATCHES ? await pageOf(db, where, page, order) : await fewPage(db, where, page, order),
  } satisfies PageOf<unknown>;
}
