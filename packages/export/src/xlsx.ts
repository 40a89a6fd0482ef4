import { amountOf, calendarDayUtc, cellValue, exportCell, neutralise, type ExportColumn } from './cells.ts';

/** A typed cell, as the server's streamed workbook writes it: date cells, numbers, guarded text. */
function typedCell<Row>(value: unknown, column: ExportColumn<Row>) {
  if (column.format === 'date') {
    const day = calendarDayUtc(value);
    if (day !== null) return { type: Date, value: new Date(day), format: 'dd/mm/yy' };
  }
  if (column.format === 'amount') {
    const amount = amountOf(value);
    if (amount !== null) return { type: Number, value: amount };
  }
  const cell = exportCell(value);
  return typeof cell === 'number' ? { type: Number, value: cell } : { type: String, value: cell };
}

/**
 * An .xlsx workbook with one sheet, written in the browser by write-excel-file (a maintained,
 * write-only library; it replaced SheetJS 0.18.5, whose reader carries known advisories), its
 * cells typed as the server's (xlsx-stream.ts): dates as date cells shown DD/MM/YY, amounts as
 * numbers. Loaded on first use, so it never weighs on a page that does not export.
 */
export async function toXlsx<Row>(rows: readonly Row[], columns: readonly ExportColumn<Row>[], sheetName: string): Promise<ArrayBuffer> {
  const { default: writeXlsxFile } = await import('write-excel-file/universal');
  const header = columns.map((c) => ({ type: String, value: neutralise(c.header) }));
  const sheet = [header, ...rows.map((row) => columns.map((column) => typedCell(cellValue(row, column), column)))];
  const blob = await writeXlsxFile(sheet, { sheet: sheetName }).toBlob();
  return blob.arrayBuffer();
}
