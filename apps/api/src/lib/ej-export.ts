// Streams EJ records as CSV, XLSX or a JSON array straight from keyset batches. Memory stays flat
// whatever the size: each batch is written only once the client has taken the previous ones, and
// the work stops (no further query) as soon as the client goes away. The first batch is read
// before the stream is handed back, so a database failure is still an HTTP error status rather
// than a cut-off file. Every cell goes through the formula-injection guard of packages/export.
import { Readable } from 'node:stream';
import { clocksOfRecords, ejRecordBatches, type Db, type EjFilters } from '@ejdesk/db';
import { csvChunks, ejColumnsFor, xlsxStream, type ClockedRecord } from '@ejdesk/export/server';

type Batch = ClockedRecord[];

/** Dispute records with their dispute's clock on the filters' day (one query a batch). */
async function* withClocks(db: Db, batches: AsyncGenerator<Batch>, today: string): AsyncGenerator<Batch> {
  for await (const batch of batches) {
    const clocks = await clocksOfRecords(
      db,
      batch.map((r) => r.id),
      today,
    );
    yield batch.map((r) => ({ ...r, ...clocks.get(r.id) }));
  }
}

/** The batches, with the first already read (its error, if any, thrown here). */
async function prefetchedBatches(db: Db, filters: EjFilters): Promise<AsyncGenerator<Batch>> {
  const records = ejRecordBatches(db, filters) as AsyncGenerator<Batch>;
  const source = filters.kind === 'dispute' && filters.today ? withClocks(db, records, filters.today) : records;
  const first = await source.next();
  return (async function* () {
    if (first.done) return;
    yield first.value;
    yield* source;
  })();
}

export async function ejCsvStream(db: Db, filters: EjFilters): Promise<Readable> {
  return Readable.from(csvChunks(await prefetchedBatches(db, filters), ejColumnsFor(filters.kind)));
}

export async function ejXlsxStream(db: Db, filters: EjFilters, sheetName: string): Promise<Readable> {
  return xlsxStream(await prefetchedBatches(db, filters), ejColumnsFor(filters.kind), sheetName);
}

/** A JSON array written batch by batch, for the unpaginated overage and succeeding lists. */
export async function ejJsonArrayStream(db: Db, filters: EjFilters): Promise<Readable> {
  const batches = await prefetchedBatches(db, filters);
  return Readable.from(
    (async function* () {
      let first = true;
      yield '[';
      for await (const batch of batches) {
        yield (first ? '' : ',') + batch.map((row) => JSON.stringify(row)).join(',');
        first = false;
      }
      yield ']';
    })(),
  );
}
