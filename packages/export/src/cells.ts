// Turning table rows into export cells: the 'N/A' fill for missing values and the guard against
// formula injection: a cell whose first character, after any leading whitespace or control
// characters (LF, CR, tab, NUL, ...), is = + - @ or their full-width forms (＝ ＋ － ＠, which
// Excel's East Asian input turns into formulas) could run as a formula in a spreadsheet, so it is
// prefixed with an apostrophe and stays text.

export const missingValue = 'N/A';

export interface ExportColumn<Row> {
  /** Column heading in the file. */
  header: string;
  /** Row key, or a function for derived cells. */
  value: keyof Row | ((row: Row) => unknown);
  /** 'date': the value is a YYYY-MM-DD date, written to spreadsheets as a date cell. */
  format?: 'date';
}

// eslint-disable-next-line no-control-regex -- control characters are exactly what is matched
const formulaStart = /^[\s\u0000-\u001f\u007f-\u009f\u3000]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|^[\t\r\n]/;

export function neutralise(text: string): string {
  return formulaStart.test(text) ? `'${text}` : text;
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
export const cellValue = <Row>(row: Row, column: ExportColumn<Row>): unknown =>
  typeof column.value === 'function' ? column.value(row) : row[column.value];

export function exportRows<Row>(rows: readonly Row[], columns: readonly ExportColumn<Row>[]): (string | number)[][] {
  return rows.map((row) => columns.map((column) => exportCell(cellValue(row, column))));
}

/** Columns from the keys of the first record, as the JSON-data tables show them. */
export function columnsFromFirstRecord(rows: readonly Record<string, unknown>[]): ExportColumn<Record<string, unknown>>[] {
  return Object.keys(rows[0] ?? {}).map((key) => ({ header: key, value: key }));
}
