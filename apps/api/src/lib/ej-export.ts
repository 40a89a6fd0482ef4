// Streams EJ records as CSV, XLSX or a JSON array straight from keyset batches. Memory stays flat
// whatever the size: each batch is written only once the client has taken the previous ones, and
// the work stops (no further query) as soon as the client goes away. The first batch is read
// before the stream is handed back, so a database failure is still an HTTP error status rather
// than a cut-off file. Every cell goes through the formula-injection guard of packages/export.
import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { ejRecordBatches, type Db, type EjFilters } from '@ejdesk/db';
import { csvLine, ejColumnsFor, exportRows, neutralise, type EjRecord } from '@ejdesk/export/server';

type Batch = EjRecord[];

/** The batches, with the first already read (its error, if any, thrown here). */
async function prefetchedBatches(db: Db, filters: EjFilters): Promise<AsyncGenerator<Batch>> {
  const source = ejRecordBatches(db, filters) as AsyncGenerator<Batch>;
  const first = await source.next();
  return (async function* () {
    if (first.done) return;
    yield first.value;
    yield* source;
  })();
}

export async function ejCsvStream(db: Db, filters: EjFilters): Promise<Readable> {
  const columns = ejColumnsFor(filters.kind);
  const batches = await prefetchedBatches(db, filters);
  return Readable.from(
    (async function* () {
      yield '\uFEFF' + csvLine(columns.map((c) => neutralise(c.header)));
      for await (const batch of batches) yield exportRows(batch, columns).map(csvLine).join('');
    })(),
  );
}

/** Resolves once `stream` has room again (or has closed: the client left). */
const roomIn = (stream: PassThrough) =>
  new Promise<void>((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });

export async function ejXlsxStream(db: Db, filters: EjFilters, sheetName: string): Promise<Readable> {
  const columns = ejColumnsFor(filters.kind);
  const batches = await prefetchedBatches(db, filters);
  const output = new PassThrough();
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: false, useSharedStrings: false });
  const sheet = book.addWorksheet(sheetName);
  (async () => {
    sheet.addRow(columns.map((c) => neutralise(c.header))).commit();
    for await (const batch of batches) {
      for (const cells of exportRows(batch, columns)) sheet.addRow(cells).commit();
      // Back-pressure: exceljs writes without waiting, so wait here until the client catches up.
      if (output.writableNeedDrain) await roomIn(output);
      if (output.destroyed) return batches.return(undefined); // the client left: no more queries
    }
    sheet.commit();
    await book.commit();
  })().catch((error: unknown) => output.destroy(error as Error));
  return output;
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
