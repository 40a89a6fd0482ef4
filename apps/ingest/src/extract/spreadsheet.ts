// Excel workbooks through exceljs (never the xlsx package, which has advisories when reading).
// The archive is inflated within the limits first, so exceljs never sees a bomb.
import type ExcelJS from 'exceljs';
import { ExtractionError, unzip } from './zip.ts';

// exceljs is loaded with the first workbook (most mail has none), then kept.
let exceljs: Promise<{ default: typeof ExcelJS }> | undefined;

/** Each worksheet as a grid of cell values (dates stay Date, formulas give their result). */
export async function workbookGrids(bytes: Uint8Array, maxRows: number): Promise<unknown[][][]> {
  await unzip(bytes); // throws on a bomb, an encrypted or a broken archive
  const { default: Excel } = await (exceljs ??= import('exceljs') as unknown as Promise<{ default: typeof ExcelJS }>);
  const workbook = new Excel.Workbook();
  try {
    await workbook.xlsx.load(Buffer.from(bytes) as unknown as ArrayBuffer);
  } catch (err) {
    throw new ExtractionError(`not a readable Excel workbook (${(err as Error).message})`);
  }
  return workbook.worksheets.map((sheet) => {
    const grid: unknown[][] = [];
    sheet.eachRow({ includeEmpty: false }, (row) => {
      if (grid.length >= maxRows) return;
      const cells: unknown[] = [];
      row.eachCell({ includeEmpty: true }, (cell, column) => {
        cells[column - 1] = cellValue(cell.value);
      });
      grid.push(Array.from(cells, (c) => c ?? ''));
    });
    return grid;
  });
}

function cellValue(value: ExcelJS.CellValue): unknown {
  if (value === null || value === undefined) return '';
  if (value instanceof Date || typeof value !== 'object') return value;
  if ('result' in value) return cellValue(value.result as ExcelJS.CellValue); // formula: its cached result
  if ('richText' in value) return value.richText.map((r) => r.text).join('');
  if ('text' in value) return value.text; // hyperlink
  if ('error' in value) return '';
  return '';
}
