import { cellValue, exportCell, exportRows, neutralise, type ExportColumn } from './cells.ts';

const quote = (cell: string | number) => {
  const text = String(cell);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** One CSV line (CRLF-terminated) of already-guarded cells: for writers that stream row by row. */
const csvLine = (cells: readonly (string | number)[]) => cells.map(quote).join(',') + '\r\n';

/** RFC 4180 CSV with CRLF line ends and a BOM, so that Excel opens UTF-8 text correctly. */
export function toCsv<Row>(rows: readonly Row[], columns: readonly ExportColumn<Row>[]): string {
  const lines = [columns.map((c) => quote(neutralise(c.header))), ...exportRows(rows, columns).map((r) => r.map(quote))];
  return '\uFEFF' + lines.map((line) => line.join(',')).join('\r\n') + '\r\n';
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
