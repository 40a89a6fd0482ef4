import { exportRows, neutralise, type ExportColumn } from './cells.ts';

const quote = (cell: string | number) => {
  const text = String(cell);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** One CSV line (CRLF-terminated) of already-guarded cells: for writers that stream row by row. */
export const csvLine = (cells: readonly (string | number)[]) => cells.map(quote).join(',') + '\r\n';

/** RFC 4180 CSV with CRLF line ends and a BOM, so that Excel opens UTF-8 text correctly. */
export function toCsv<Row>(rows: readonly Row[], columns: readonly ExportColumn<Row>[]): string {
  const lines = [columns.map((c) => quote(neutralise(c.header))), ...exportRows(rows, columns).map((r) => r.map(quote))];
  return '\uFEFF' + lines.map((line) => line.join(',')).join('\r\n') + '\r\n';
}
