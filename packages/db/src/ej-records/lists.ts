// EJ records: the dispute table (/email), the overage and succeeding lists, and batches for
// streaming exports. Newest first means the most recently extracted record first (id order).
import { and, gte, inArray, lt, sql } from 'drizzle-orm';
import { type Db, queryRows, rowsOfKeptPlan } from '../client.ts';
import { keptAnswer } from '../counts/index.ts';
import type { Page, PageOf } from '../filters.ts';
import { clockPage, countWhere, FEW_MATCHES, narrowedConditions } from './clock-pages.ts';
import { followUpPage } from './follow-up-pages.ts';
import { verdictPage } from './verdict-pages.ts';
import {
  clockFiltered,
  followUpFiltered,
  countFromEjCounts,
  ejConditions,
  type EjFilters,
  ejRecordColumns,
  exactValues,
  holding,
  kindIs,
  kindTotal,
  sumOfValues,
  textFilters,
} from './filters.ts';
import { clockOrdered, type EjOrder, heldPage, idsReceived, newestFirst, orderTerms, pageOf, rangePage, rowsInOrder, screenPageSizes } from './orders.ts';
import { ejIdBlocks, type EjRecordKind, ejRecords } from './schema.ts';

export type EjRecordRow = Awaited<ReturnType<typeof listEjRecords>>['rows'][number];

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
 * The first page of the whole kind in an order, its size written in: PostgreSQL keeps its plan per
 * connection (rowsOfKeptPlan). Planning it over every month's partition and their indexes took
 * 1.5 ms of the 0.3 ms it reads, on the page every operator opens first.
 */
async function firstPage(db: Db, kind: EjRecordKind, size: number, order: EjOrder) {
  const ids = await rowsOfKeptPlan<{ id: string }>(
    db,
    sql`select ${ejRecords.id} as id from ${ejRecords} where ${kindIs(kind)} order by ${sql.join(orderTerms(order), sql`, `)} limit ${sql.raw(String(size))}`,
  );
  return rowsInOrder(
    db,
    ids.map((r) => Number(r.id)),
  );
}

/**
 * A page of the whole kind, newest first. A deep one (page 10,000 skips 99,990 records) finds the
 * block of 1,024 ids holding its first record from the blocks' running counts, then skips only
 * within that block: a few hundred index entries instead of every record above the page. The page's
 * ids bound it, and the months holding them (idsReceived), so that it is planned over those alone.
 */
async function unfilteredPage(db: Db, kind: EjRecordKind, page: Page, order: EjOrder) {
  const skip = (page.page - 1) * page.pageSize;
  if (skip === 0 && screenPageSizes.includes(page.pageSize)) return firstPage(db, kind, page.pageSize, order);
  // Other orders skip along their index alone (an index-only read of the entries above the page).
  if (skip < DEEP || order.field !== 'id' || !order.descending) return pageOf(db, kindIs(kind), page, order);
  const blocks = await idBlocks(db, kind);
  const at = blockHolding(blocks, skip);
  if (at === undefined) return [];
  const { blocks: ids, newer } = blocks;
  const below = (ids[at]! + 1) * 1024;
  const inBlock = skip - newer[at]!;
  // The page's records lie in its block and the blocks after it that hold the rest of the page.
  let last = at;
  while (last + 1 < ids.length && newer[last + 1]! - newer[at]! < inBlock + page.pageSize) last += 1;
  const from = ids[last]! * 1024;
  const received = await idsReceived(db, kind, from, below - 1);
  if (received === null) return [];
  return pageOf(db, and(kindIs(kind), gte(ejRecords.id, from), lt(ejRecords.id, below), received), page, order, inBlock);
}

/** A kind's blocks of 1,024 ids holding records, newest first, with how many records are newer than each. */
type IdBlocks = { blocks: number[]; newer: number[]; total: number };

/**
 * The kind's blocks, read whole and kept with ej_records' write version (ej_id_blocks is written with
 * its rows): summing them for each deep page took 2 ms at 10,000,000 records (10,000 blocks).
 */
function idBlocks(db: Db, kind: EjRecordKind): Promise<IdBlocks> {
  const read = sql`select ${ejIdBlocks.block}::float8 as block, ${ejIdBlocks.n}::float8 as n from ${ejIdBlocks}
    where ${ejIdBlocks.kind} = ${kind} and ${ejIdBlocks.n} > 0 order by ${ejIdBlocks.block} desc`;
  return keptAnswer(db, read, ['ej_records'], async (tx) => {
    const rows = await queryRows<{ block: number; n: number }>(tx, read);
    const kept: IdBlocks = { blocks: [], newer: [], total: 0 };
    for (const row of rows) {
      kept.blocks.push(row.block);
      kept.newer.push(kept.total);
      kept.total += row.n;
    }
    return kept;
  });
}

/** The index of the block holding the record `skip` records below the newest (binary search). */
function blockHolding({ newer, total }: IdBlocks, skip: number): number | undefined {
  if (skip >= total) return undefined;
  let low = 0;
  let high = newer.length - 1;
  // The last block whose newer count is at most skip.
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (newer[mid]! <= skip) low = mid;
    else high = mid - 1;
  }
  return low;
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
 * - a journal verdict: the verdict's records are read first from the evidence (verdict-pages.ts).
 * - an owner or a follow-up day: their few records are read first (follow-up-pages.ts).
 */
export async function listEjRecords(db: Db, filters: EjFilters, page: Page, order: EjOrder = newestFirst) {
  if (followUpFiltered(filters)) return followUpPage(db, filters, page, order);
  if (filters.verdict) return verdictPage(db, filters, filters.verdict, page, order);
  if (clockFiltered(filters) || clockOrdered(order)) return clockPage(db, filters, page, order);
  const texts = textFilters(filters);
  if (texts.length === 0) {
    if (!filters.startDate && !filters.endDate)
      return { count: await kindTotal(db, filters.kind), rows: await unfilteredPage(db, filters.kind, page, order) } satisfies PageOf<unknown>;
    return {
      count: await countFromEjCounts(db, filters),
      rows: await rangePage(db, filters, ejConditions(filters), page, order),
    } satisfies PageOf<unknown>;
  }
  if (texts.length === 1 && !filters.startDate && !filters.endDate) {
    // One text filter alone: its values' sum is the count; few records go by their exact values.
    const [field, text] = texts[0]!;
    const { total, few, exact } = await sumOfValues(db, filters.kind, field, text, filters.counting);
    if (total === 0) return { count: 0, rows: [] } satisfies PageOf<unknown>;
    if (order.field === 'atm_id' && (field === 'bank_name' || field === 'mail_received_from')) {
      const values = await exactValues(db, filters.kind, field, text);
      if (values.length <= MERGED_VALUES)
        return { count: total, exact, rows: await atmOrderedPage(db, filters.kind, field, values, page, order) } satisfies PageOf<unknown>;
    }
    // Only a count known exact says the values are few (an estimate past the bound never is).
    const narrowed = exact && total < few;
    // Few records are all read by their values and ordered: the order's walk met them scattered
    // over every month's partition, and read each month until its first one (a card's last four
    // digits, 84 records at 1,000,000: 60 ms).
    if (narrowed && total <= FEW_MATCHES)
      return { count: total, exact, rows: await heldPage(db, filters.kind, field, text, total, page, order) } satisfies PageOf<unknown>;
    const where = narrowed ? and(kindIs(filters.kind), holding(field, await exactValues(db, filters.kind, field, text))) : ejConditions(filters);
    return { count: total, exact, rows: await pageOf(db, where, page, order) } satisfies PageOf<unknown>;
  }
  const where = await narrowedConditions(db, filters, texts);
  if (where === null) return { count: 0, rows: [] } satisfies PageOf<unknown>;
  const onlyCounted = !filters.atmId && !filters.cardNo && !filters.mailSubject; // bank, sender, dates
  const { n: count, exact } = onlyCounted ? { n: await countFromEjCounts(db, filters), exact: true } : await countWhere(db, where, filters);
  return { count, exact, rows: await rangePage(db, filters, where, page, order) } satisfies PageOf<unknown>;
}
