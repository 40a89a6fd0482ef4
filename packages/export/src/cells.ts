// Turning table rows into export cells: the 'N/A' fill for missing values and the guard against
// formula injection: a cell whose first visible character is = + - @ or their full-width forms
// (＝ ＋ － ＠, which Excel's East Asian input turns into formulas) could run as a formula in a
// spreadsheet, so it is prefixed with an apostrophe and stays text. What stands before that
// character may be whitespace, control characters or invisible ones (zero-width space and joiners,
// BOM, bidi controls, soft hyphen, ...), which a reader does not see. Excel in semicolon-separated
// locales splits a CSV cell at each ';', so the text after one is guarded the same way, by an
// apostrophe right after the ';'. A cell that starts with a tab or a line break is prefixed too;
// a plain number (-12.50) is left as it is.

export const missingValue = 'N/A';

export interface ExportColumn<Row> {
  /** Column heading in the file. */
  header: string;
  /** Row key, or a function for derived cells. */
  value: keyof Row | ((row: Row) => unknown);
  /**
   * 'date': a YYYY-MM-DD or DD/MM/YY date, written to spreadsheets as a date cell shown DD/MM/YY;
   * 'amount': a number or its text, written as a number so spreadsheets can add it up.
   */
  format?: 'date' | 'amount';
}

const isoDay = /^(\d{4})-(\d{2})-(\d{2})$/;
const shortDay = /^(\d{2})\/(\d{2})\/(\d{2})$/;

/**
 * A date cell's day as UTC midnight (ms), or null when the value is not a date: YYYY-MM-DD (the
 * API's dates) or DD/MM/YY (the file-detail rows; years 00-69 are 2000-2069, 70-99 1970-1999).
 */
export function calendarDayUtc(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const iso = isoDay.exec(value);
  const short = iso ? null : shortDay.exec(value);
  if (!iso && !short) return null;
  const [year, month, day] = iso
    ? [Number(iso[1]), Number(iso[2]), Number(iso[3])]
    : [Number(short![3]) + (Number(short![3]) < 70 ? 2000 : 1900), Number(short![2]), Number(short![1])];
  const time = Date.UTC(year, month - 1, day);
  const back = new Date(time);
  // 31/02/25 is not a day: Date.UTC would roll it into March.
  return back.getUTCFullYear() === year && back.getUTCMonth() === month - 1 && back.getUTCDate() === day ? time : null;
}

/** An amount cell's number, or null when the value is not one. */
export function amountOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string' || !/^\s*-?\d+(\.\d+)?\s*$/.test(value)) return null;
  return Number(value);
}

/** Whitespace, separators, control and format characters, and the rest Unicode says to show as nothing. */
const unseen = String.raw`[\s\p{Z}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]*`;
const formulaChar = String.raw`[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]`;
const formulaStart = new RegExp(String.raw`^(?:${unseen}${formulaChar}|[\t\r\n])`, 'u');
const formulaAfterSemicolon = new RegExp(`;(?=${unseen}${formulaChar})`, 'gu');

// A negative number is a value, not a formula: '-12.50' stays a number in a spreadsheet.
const plainNumber = /^-?\d+(\.\d+)?$/;

export function neutralise(text: string): string {
  if (plainNumber.test(text)) return text;
  const guarded = text.includes(';') ? text.replace(formulaAfterSemicolon, ";'") : text;
  return formulaStart.test(text) ? `'${guarded}` : guarded;
}

/** One cell as it goes into a file: text, guarded; numbers stay numbers; missing -> 'N/A'. */
export function exportCell(value: unknown): string | number {
  if (value === null || value === undefined || value === '') return missingValue;
  if (typeof value === 'number') return Number.isFinite(value) ? value : missingValue;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return neutralise(JSON.stringify(value));
  return neutralise(String(value));
}

/** The raw value of a column in a row (its key, or its function for derived cells). */
export const cellValue = <Row>(row: Row, column: ExportColumn<Row>): unknown => (typeof column.value === 'function' ? column.value(row) : row[column.value]);

export function exportRows<Row>(rows: readonly Row[], columns: readonly ExportColumn<Row>[]): (string | number)[][] {
  return rows.map((row) => columns.map((column) => exportCell(cellValue(row, column))));
}

/**
 * Columns from the keys of the first record, as the JSON-data tables show them; a column whose
 * every value is a YYYY-MM-DD date is a date column (a date cell in spreadsheets).
 */
export function columnsFromFirstRecord(rows: readonly Record<string, unknown>[]): ExportColumn<Record<string, unknown>>[] {
  return Object.keys(rows[0] ?? {}).map((key) => {
    const values = rows.map((row) => row[key]).filter((v) => v !== null && v !== undefined && v !== '');
    const dates = values.length > 0 && values.every((v) => typeof v === 'string' && isoDay.test(v));
    return dates ? { header: key, value: key, format: 'date' as const } : { header: key, value: key };
  });
}
