import type { ExportColumn } from './cells.ts';
import { toCsv } from './csv.ts';
import { toXlsx } from './xlsx.ts';

export function saveFile(filename: string, data: BlobPart, type: string): void {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoke on the next task: Chromium starts the download asynchronously.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function downloadCsv<Row>(filename: string, rows: readonly Row[], columns: readonly ExportColumn<Row>[]): void {
  saveFile(filename, toCsv(rows, columns), 'text/csv;charset=utf-8');
}

export async function downloadXlsx<Row>(filename: string, sheetName: string, rows: readonly Row[], columns: readonly ExportColumn<Row>[]): Promise<void> {
  saveFile(filename, await toXlsx(rows, columns, sheetName), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
}
