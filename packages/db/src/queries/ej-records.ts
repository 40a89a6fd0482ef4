// EJ records: the dispute table (/email), the overage and succeeding lists, and batches for
// streaming exports. Newest first means the most recently extracted record first (id order).
import { and, count, desc, eq, gte, lt, lte, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../client.ts';
import { ejCounts, ejIdBlocks, ejRecords, ejValues, type EjRecordKind } from '../schema.ts';
import { containsText, type Page, type PageOf } from './filters.ts';

export interface EjFilters {
  kind: EjRecordKind;
  startDate?: string | undefined;
  endDate?: string | undefined;
  atmId?: string | undefined;
  bankName?: string | undefined;
  cardNo?: string | undefined;
  mailSubject?: string | undefined;
  mailReceivedFrom?: string | undefined;
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
const exactOrContains = (column: AnyColumn, text: string | undefined) =>
  text ? or(eq(column, text), containsText(column, text)) : undefined;

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
  );
}

export type EjRecordRow = Awaited<ReturnType<typeof listEjRecords>>['rows'][number];

const valueColumns = { atm_id: ejRecords.atmId, bank_name: ejRecords.bankName, mail_subject: ejRecords.mailSubject, mail_received_from: ejRecords.mailReceivedFrom };
type ValueField = keyof typeof valueColumns;

/** The one text filter that ej_values can answer alone (no dates, no card number, no other text), if any. */
function singleValueFilter(filters: EjFilters): { field: ValueField; text: string } | null {
  const texts = (
    [
      ['atm_id', filters.atmId],
      ['bank_name', filters.bankName],
      ['mail_subject', filters.mailSubject],
      ['mail_received_from', filters.mailReceivedFrom],
    ] as const
  ).filter(([, text]) => text);
  if (texts.length !== 1 || filters.cardNo || filters.startDate || filters.endDate) return null;
  return { field: texts[0]![0], text: texts[0]![1]! };
}

const isUnfiltered = (f: EjFilters) => !f.startDate && !f.endDate && !f.atmId && !f.bankName && !f.cardNo && !f.mailSubject && !f.mailReceivedFrom;

/** The distinct values of a field that a substring matches (all of them without one). */
const matchingValues = (kind: EjRecordKind, field: string, text: string | undefined) =>
  and(eq(ejValues.kind, kind), eq(ejValues.field, field), containsText(ejValues.value, text), sql`${ejValues.n} > 0`);

/** How many records of the kind hold the matching values. */
async function sumOfValues(db: Db, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ n: sql<string>`coalesce(sum(${ejValues.n}), 0)` }).from(ejValues).where(where);
  return Number(row?.n ?? 0);
}

/**
 * The count of filters that mix several kinds of condition: dates, bank and sender in any mix sum
 * ej_counts; anything else (card numbers, which are nearly unique per record, or a text filter
 * with others) counts the records through their indexes.
 */
async function countEjRecords(db: Db, filters: EjFilters, where: SQL | undefined): Promise<number> {
  if (filters.atmId || filters.cardNo || filters.mailSubject) {
    const [row] = await db.select({ n: count() }).from(ejRecords).where(where);
    return row?.n ?? 0;
  }
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

/** The page of records under `where`, newest first (`skip` records above it). */
async function pageOf(db: Db, where: SQL | undefined, page: Page, skip = (page.page - 1) * page.pageSize) {
  const ids = db.select({ id: ejRecords.id }).from(ejRecords).where(where).orderBy(desc(ejRecords.id)).limit(page.pageSize).offset(skip).as('page_ids');
  return db.select(ejRecordColumns).from(ejRecords).innerJoin(ids, eq(ejRecords.id, ids.id)).orderBy(desc(ejRecords.id));
}

/** Past this many records, an unfiltered page starts from its block in ej_id_blocks. */
const DEEP = 2000;

/**
 * A page of the whole kind, newest first. A deep one (page 10,000 skips 99,990 records) finds the
 * block of 1,024 ids holding its first record from the blocks' running counts, then skips only
 * within that block: a few hundred index entries instead of every record above the page.
 */
async function unfilteredPage(db: Db, kind: EjRecordKind, page: Page) {
  const skip = (page.page - 1) * page.pageSize;
  if (skip < DEEP) return pageOf(db, eq(ejRecords.kind, kind), page);
  const [at] = await queryRows<{ block: string; newer: string }>(
    db,
    sql`select block, upto - n as newer from (
          select ${ejIdBlocks.block} as block, ${ejIdBlocks.n} as n, sum(${ejIdBlocks.n}) over (order by ${ejIdBlocks.block} desc) as upto
          from ${ejIdBlocks} where ${ejIdBlocks.kind} = ${kind} and ${ejIdBlocks.n} > 0
        ) b where upto > ${skip} order by block desc limit 1`,
  );
  if (!at) return [];
  const below = (Number(at.block) + 1) * 1024;
  return pageOf(db, and(eq(ejRecords.kind, kind), lt(ejRecords.id, below)), page, skip - Number(at.newer));
}

/** Matches at least this share of the records: walking them in id order finds a page soonest. */
const DENSE = 0.02;

/**
 * A page of the EJ table and the filter's count. With no filter or one text filter alone, the
 * count is the sum of the matching distinct values in ej_values (every record has exactly one bank
 * value, so the bank values' sum is the kind's total), and the counts choose the page's path: a
 * sparse match goes through the column's btree index by the matching values themselves (instead
 * of the trigram index over a million records); a dense one walks the id order, where nearly every
 * record read is on the page.
 */
export async function listEjRecords(db: Db, filters: EjFilters, page: Page) {
  const single = singleValueFilter(filters);
  if (single || isUnfiltered(filters)) {
    const kindTotal = matchingValues(filters.kind, 'bank_name', undefined);
    if (!single) return { count: await sumOfValues(db, kindTotal), rows: await unfilteredPage(db, filters.kind, page) } satisfies PageOf<unknown>;
    // One statement over the matching values: their sum, and the values themselves when they are few.
    const [match] = await db
      .select({
        total: sql<string>`coalesce(sum(${ejValues.n}), 0)`,
        exact: sql<string[] | null>`case when coalesce(sum(${ejValues.n}), 0) <
          (select coalesce(sum(${ejValues.n}), 0) * ${DENSE} from ${ejValues} where ${kindTotal}) then array_agg(${ejValues.value}) end`,
      })
      .from(ejValues)
      .where(matchingValues(filters.kind, single.field, single.text));
    const total = Number(match?.total ?? 0);
    if (total === 0) return { count: 0, rows: [] } satisfies PageOf<unknown>;
    const exact = match?.exact;
    const where = exact
      ? and(eq(ejRecords.kind, filters.kind), sql`${valueColumns[single.field]} = any(${sql.param(exact)}::text[])`)
      : ejConditions(filters);
    return { count: total, rows: await pageOf(db, where, page) } satisfies PageOf<unknown>;
  }
  const where = ejConditions(filters);
  return { count: await countEjRecords(db, filters, where), rows: await pageOf(db, where, page) } satisfies PageOf<unknown>;
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
