// Reading exported files back, as an operator's spreadsheet would.
import type { Download } from '@playwright/test';
import ExcelJS from 'exceljs';

/** RFC 4180 CSV (with the BOM our exports start with) into rows of cells. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const input = text.replace(/^\uFEFF/, '');
  const endCell = () => {
    row.push(cell);
    cell = '';
  };
  for (let i = 0; i < input.length; i++) {
    const c = input[i]!;
    if (quoted && c === '"' && input[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (!quoted && c === ',') {
      endCell();
    } else if (!quoted && c === '\r' && input[i + 1] === '\n') {
      endCell();
      rows.push(row);
      row = [];
      i++;
    } else {
      cell += c;
    }
  }
  if (cell || row.length) {
    endCell();
    rows.push(row);
  }
  return rows;
}

export async function readCsv(download: Download): Promise<string[][]> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return parseCsv(Buffer.concat(chunks).toString('utf8'));
}

/** DD/MM/YY of a date cell (read as UTC midnight), as the sheet's dd/mm/yy format shows it. */
const shownDate = (d: Date) =>
  `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCFullYear()).slice(2)}`;

/** Every row of one sheet as text (date cells as DD/MM/YY) and as typed cells, and the sheet names. */
export async function readXlsx(download: Download, sheet: string): Promise<{ sheets: string[]; rows: string[][]; cells: unknown[][] }> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(await download.path());
  const rows: string[][] = [];
  const cells: unknown[][] = [];
  book.getWorksheet(sheet)?.eachRow((row) => {
    const values = (row.values as unknown[]).slice(1);
    cells.push(values);
    rows.push(values.map((v) => (v === null || v === undefined ? '' : v instanceof Date ? shownDate(v) : String(v))));
  });
  return { sheets: book.worksheets.map((s) => s.name), rows, cells };
}
