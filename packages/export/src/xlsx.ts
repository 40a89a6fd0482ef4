import { exportRows, neutralise, type ExportColumn } from './cells.ts';

/**
 * An .xlsx workbook with one sheet, written in the browser by write-excel-file (a maintained,
 * write-only library; it replaced SheetJS 0.18.5, whose reader carries known advisories). Loaded
 * on first use, so it never weighs on a page that does not export.
 */
export async function toXlsx<Row>(
  rows: readonly Row[],
  columns: readonly ExportColumn<Row>[],
  sheetName: string,
): Promise<ArrayBuffer> {
  const { default: writeXlsxFile } = await import('write-excel-file/universal');
  const sheet = [columns.map((c) => neutralise(c.header)), ...exportRows(rows, columns)];
  const blob = await writeXlsxFile(sheet, { sheet: sheetName }).toBlob();
  return blob.arrayBuffer();
}
