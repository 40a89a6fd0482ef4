import { cellValue, exportCell, neutralise, type ExportColumn } from './cells.ts';

/**
 * Every field in quotes, numbers too: a reader never takes a field's text for anything but a
 * value, and a spreadsheet still reads a quoted number or date as one.
 */
const quote = (cell: string | number) => `"${String(cell).replaceAll('"', '""')}"`;

/** One CSV line (CRLF-terminated) of already-guarded cells. */
const csvLine = (cells: readonly (string | number)[]) => cells.map(quote).join(',') + '\r\n';

const rowCells = <Row>(row: Row, columns: readonly ExportColumn<Row>[]) => columns.map((column) => exportCell(cellValue(row, column)));

/** RFC 4180 CSV with CRLF line ends and a BOM, so that Excel opens UTF-8 text correctly. */
export function toCsv<Row>(rows: readonly Row[], columns: readonly ExportColumn<Row>[]): string {
  return '\uFEFF' + csvLine(columns.map((c) => neutralise(c.header))) + rows.map((row) => csvLine(rowCells(row, columns))).join('');
}

/**
 * CSV text for rows that arrive in batches (a streamed export): the header line first, then the
 * rows a few hundred at a time, so the strings stay short-lived and the reader sets the pace.
 */
export async function* csvChunks<Row>(batches: AsyncIterable<readonly Row[]>, columns: readonly ExportColumn<Row>[]): AsyncGenerator<string> {
  yield '\uFEFF' + csvLine(columns.map((c) => neutralise(c.header)));
  for await (const batch of batches) {
    let text = '';
    for (let r = 0; r < batch.length; r++) {
      const row = batch[r]!;
      for (let i = 0; i < columns.length; i++) text += (i === 0 ? '' : ',') + quote(exportCell(cellValue(row, columns[i]!)));
      text += '\r\n';
      if (r % 256 === 255) {
        yield text;
        text = '';
      }
    }
    if (text) yield text;
  }
}
