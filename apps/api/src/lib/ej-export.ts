// Streams EJ records as CSV or XLSX straight from keyset batches: memory stays flat whatever the size.
// Every cell goes through the formula-injection guard of packages/export.
import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { ejRecordBatches, type Db, type EjFilters } from '@ejdesk/db';
import { csvLine, ejColumnsFor, exportRows, neutralise, type EjRecord } from '@ejdesk/export/server';

export function ejCsvStream(db: Db, filters: EjFilters): Readable {
  const columns = ejColumnsFor(filters.kind);
  return Readable.from(
    (async function* () {
      yield '\uFEFF' + csvLine(columns.map((c) => neutralise(c.header)));
      for await (const batch of ejRecordBatches(db, filters)) {
        yield exportRows(batch as EjRecord[], columns).map(csvLine).join('');
      }
    })(),
  );
}

export function ejXlsxStream(db: Db, filters: EjFilters, sheetName: string): Readable {
  const columns = ejColumnsFor(filters.kind);
  const output = new PassThrough();
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: false, useSharedStrings: false });
  const sheet = book.addWorksheet(sheetName);
  (async () => {
    sheet.addRow(columns.map((c) => neutralise(c.header))).commit();
    for await (const batch of ejRecordBatches(db, filters)) {
      for (const cells of exportRows(batch as EjRecord[], columns)) sheet.addRow(cells).commit();
    }
    sheet.commit();
    await book.commit();
  })().catch((error: unknown) => output.destroy(error as Error));
  return output;
}

/** A JSON array written batch by batch, for the unpaginated overage and succeeding lists. */
export function ejJsonArrayStream(db: Db, filters: EjFilters): Readable {
  return Readable.from(
    (async function* () {
      let first = true;
      yield '[';
      for await (const batch of ejRecordBatches(db, filters)) {
        for (const row of batch) {
          yield (first ? '' : ',') + JSON.stringify(row);
          first = false;
        }
      }
      yield ']';
    })(),
  );
}
