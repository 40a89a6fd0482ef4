// The dispute table under a journal verdict: the verdict's records are found from the evidence
// (dispute_evidence's (verdict, dispute_id), then dispute_records' (dispute_id, record_id)), the
// table's other filters checked on them alone.
import { and, type SQL } from 'drizzle-orm';
import type { Db } from '../client.ts';
import type { Page, PageOf } from '../filters.ts';
import { clockOrderedIds, countWhere, FEW_MATCHES, fewPage, rowsInOrder } from './clock-pages.ts';
import { ejConditions, type EjFilters, verdictCondition, verdictSet } from './filters.ts';
import { clockOrdered, type EjOrder, pageOf } from './orders.ts';

/** A page of the records whose dispute's journal verdict is `verdict`, and their count. */
export async function verdictPage(db: Db, filters: EjFilters, verdict: string, page: Page, order: EjOrder) {
  const others = ejConditions({ ...filters, verdict: undefined });
  const count = await countWhere(db, and(others, verdictSet(verdict)));
  if (count === 0) return { count, rows: [] } satisfies PageOf<unknown>;
  let where: SQL | undefined = and(others, verdictSet(verdict));
  if (clockOrdered(order)) return { count, rows: await rowsInOrder(db, await clockOrderedIds(db, filters, where, page, order)) } satisfies PageOf<unknown>;
  // Many: the order's index walked, each record's verdict checked through the keys.
  if (count > FEW_MATCHES) where = and(others, verdictCondition(verdict));
  return { count, rows: count > FEW_MATCHES ? await pageOf(db, where, page, order) : await fewPage(db, where, page, order) } satisfies PageOf<unknown>;
}
