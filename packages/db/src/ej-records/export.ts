// EJ records in batches for streaming exports.
import { and, lt, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../client.ts';
import { ejConditions, type EjFilters, ejRecordColumns } from './filters.ts';
import { ejRecords } from './schema.ts';

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
