// The dispute table's orders (each walking an index) and the page of records under a condition in
// one of them.
import { desc, eq, gte, lte, sql, type SQL } from 'drizzle-orm';
import { type Db, queryRows } from '../client.ts';
import type { Page } from '../filters.ts';
import { ejConditions, type EjFilters, ejRecordColumns } from './filters.ts';
import { ejRecords } from './schema.ts';

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
 * date index alone (it carries complaint_date: migration 0039). The bound holds for any other
 * filter too (it narrows the range's records). A record in the range with no complaint date leaves
 * the walk as it was: undated records come first ascending and last descending, outside any bound.
 */
export async function complaintBound(db: Db, filters: EjFilters, order: EjOrder): Promise<SQL | undefined> {
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
export async function pageOf(db: Db, where: SQL | undefined, page: Page, order: EjOrder, skip = (page.page - 1) * page.pageSize) {
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
