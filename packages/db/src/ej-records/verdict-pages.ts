// The dispute table under a journal verdict: the verdict's records are found from the evidence
// (dispute_evidence's (verdict, dispute_id), then dispute_records' (dispute_id, record_id)), the
// table's other filters checked on them alone.
import { and, sql, type SQL } from 'drizzle-orm';
import { type Db, queryRows } from '../client.ts';
import type { Page, PageOf } from '../filters.ts';
import { disputeEvidence } from '../journals/schema.ts';
import { disputeRecords } from '../disputes/index.ts';
import { clockOrderedIds, countWhere, FEW_MATCHES, fewPage, rowsInOrder } from './clock-pages.ts';
import { ejConditions, type EjFilters, verdictCondition, verdictSet } from './filters.ts';
import { clockOrdered, type EjOrder, pageOf } from './orders.ts';

/** No filter but the verdict (every dispute record is of kind dispute): the evidence and dispute_records answer alone. */
const verdictOnly = (f: EjFilters) =>
  f.kind === 'dispute' &&
  !f.startDate &&
  !f.endDate &&
  !f.atmId &&
  !f.bankName &&
  !f.cardNo &&
  !f.mailSubject &&
  !f.mailReceivedFrom &&
  f.tat === undefined &&
  f.ageFrom === undefined &&
  f.ageTo === undefined;

const verdictRecords = (verdict: string) =>
  sql`${disputeEvidence} join ${disputeRecords} on ${disputeRecords.disputeId} = ${disputeEvidence.disputeId} where ${disputeEvidence.verdict} = ${verdict}`;

/** A page of the records whose dispute's journal verdict is `verdict`, and their count. */
export async function verdictPage(db: Db, filters: EjFilters, verdict: string, page: Page, order: EjOrder) {
  const alone = verdictOnly(filters);
  const others = ejConditions({ ...filters, verdict: undefined });
  const count = alone
    ? Number((await queryRows<{ n: string }>(db, sql`select count(*) as n from ${verdictRecords(verdict)}`))[0]?.n ?? 0)
    : await countWhere(db, and(others, verdictSet(verdict)));
  if (count === 0) return { count, rows: [] } satisfies PageOf<unknown>;
  if (alone && order.field === 'id') {
    // The newest (or oldest) records of the verdict, from the evidence's keys alone.
    const picked = await queryRows<{ id: string | number }>(
      db,
      sql`select ${disputeRecords.recordId} as id from ${verdictRecords(verdict)}
          order by ${disputeRecords.recordId} ${order.descending ? sql`desc` : sql`asc`} limit ${page.pageSize} offset ${(page.page - 1) * page.pageSize}`,
    );
    return {
      count,
      rows: await rowsInOrder(
        db,
        picked.map((p) => Number(p.id)),
      ),
    } satisfies PageOf<unknown>;
  }
  let where: SQL | undefined = and(others, verdictSet(verdict));
  if (clockOrdered(order)) return { count, rows: await rowsInOrder(db, await clockOrderedIds(db, filters, where, page, order)) } satisfies PageOf<unknown>;
  // Many: the order's index walked, each record's verdict checked through the keys.
  if (count > FEW_MATCHES) where = and(others, verdictCondition(verdict));
  return { count, rows: count > FEW_MATCHES ? await pageOf(db, where, page, order) : await fewPage(db, where, page, order) } satisfies PageOf<unknown>;
}
