import { exportRows, neutralise, type ExportColumn } from './cells.ts';

/**
 * An .xlsx workbook with one sheet. The xlsx library is only ever used to WRITE (its reader has
 * known advisories) and is loaded on first use, so it never weighs on a page that does not export.
 */
export async function toXlsx<Row>(
  rows: readonly Row[],
  columns: readonly ExportColumn<Row>[],
  sheetName: string,
): Promise<ArrayBuffer> {
  const XLSX = await import('xlsx');
  const sheet = XLSX.utils.aoa_to_sheet([columns.map((c) => neutralise(c.header)), ...exportRows(rows, columns)]);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, sheetName);
  return XLSX.write(book, { type: 'array', bookType: 'xlsx', compression: true }) as ArrayBuffer;
}
