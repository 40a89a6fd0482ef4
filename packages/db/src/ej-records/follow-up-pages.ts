// The dispute table under "Mine" or "Follow up": an operator's disputes are few, so their records
// are read first (the disputes' partial indexes on owner and follow-up day), then every other
// filter is checked on them alone and the page is ordered from them.
import { and } from 'drizzle-orm';
import type { Db } from '../client.ts';
import type { Page, PageOf } from '../filters.ts';
import { clockOrderedIds, countWhere, fewPage } from './clock-pages.ts';
import { rowsInOrder } from './orders.ts';
import { ejConditions, type EjFilters, followUpSet, withoutClock } from './filters.ts';
import { clockOrdered, type EjOrder } from './orders.ts';

export async function followUpPage(db: Db, filters: EjFilters, page: Page, order: EjOrder) {
  const where = ejConditions(filters);
  const { n: count, exact } = await countWhere(db, where, filters);
  if (count === 0) return { count, rows: [] } satisfies PageOf<unknown>;
  if (clockOrdered(order)) {
    // The clock's orders read dispute_records' copies; the clock's own filters are theirs.
    const base = and(ejConditions(withoutClock(filters)), followUpSet(filters));
    return { count, exact, rows: await rowsInOrder(db, await clockOrderedIds(db, filters, base, page, order)) } satisfies PageOf<unknown>;
  }
  return { count, exact, rows: await fewPage(db, where, page, order) } satisfies PageOf<unknown>;
}
