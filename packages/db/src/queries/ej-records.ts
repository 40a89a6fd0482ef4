// EJ records: the dispute table (/email), the overage and succeeding lists, and batches for
// streaming exports. Newest first means the most recently extracted record first (id order).
import { and, count, desc, eq, gte, lt, lte, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { ejCounts, ejRecords, type EjRecordKind } from '../schema.ts';
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

/** Counts filtered only by dates, bank and sender come from the counter rows; others count records. */
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

export async function listEjRecords(db: Db, filters: EjFilters, page: Page) {
  const where = ejConditions(filters);
  const total = await countEjRecords(db, filters, where);
  const ids = db
    .select({ id: ejRecords.id })
    .from(ejRecords)
    .where(where)
    .orderBy(desc(ejRecords.id))
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize)
    .as('page_ids');
  const rows = await db
    .select(ejRecordColumns)
    .from(ejRecords)
    .innerJoin(ids, eq(ejRecords.id, ids.id))
    .orderBy(desc(ejRecords.id));
  return { count: total, rows } satisfies PageOf<unknown>;
}

/**
 * Every record that matches, newest first, in batches: keyset paging on id keeps each batch an
 * index range, so an export of any size streams in bounded memory.
 */
export async function* ejRecordBatches(db: Db, filters: EjFilters, batchSize = 5000) {
  const where = ejConditions(filters);
  let before: number | undefined;
  for (;;) {
    const batch = await db
      .select(ejRecordColumns)
      .from(ejRecords)
      .where(and(where, before === undefined ? undefined : lt(ejRecords.id, before)))
      .orderBy(desc(ejRecords.id))
      .limit(batchSize);
    if (batch.length === 0) return;
    yield batch;
    before = batch[batch.length - 1]!.id;
    if (batch.length < batchSize) return;
  }
}

