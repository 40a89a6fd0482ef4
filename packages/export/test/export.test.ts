import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { columnsFromFirstRecord, exportCell, exportFileName, toCsv, toXlsx, type ExportColumn } from '../src/index.ts';

interface Row {
  atm: string | null;
  amount?: number;
  note?: string;
}
const columns: ExportColumn<Row>[] = [
  { header: 'ATM ID', value: 'atm' },
  { header: 'Amount', value: 'amount' },
  { header: 'Note', value: (r) => r.note },
];

describe('export cells', () => {
  it.each([
    '=HYPERLINK("http://evil")',
    '+1+1',
    '-2+3',
    '@SUM(A1)',
    '\tcmd',
    '\rcmd',
    '\ncmd',
    '\n=1+1',
    '\r\n=cmd|calc',
    ' =1+1',
    '\u0000=1+1',
    '\u3000=1+1',
    '＝HYPERLINK("http://evil")',
    '＋1',
    '－1',
    '＠SUM(A1)',
    ' \n ＝1',
  ])('neutralises %j so it stays text', (value) => {
    expect(exportCell(value)).toBe(`'${value}`);
  });

  it('fills missing values with N/A and keeps numbers and ordinary text as they are', () => {
    expect([null, undefined, ''].map(exportCell)).toEqual(['N/A', 'N/A', 'N/A']);
    expect(exportCell(-5)).toBe(-5);
    expect(exportCell('ATM 1')).toBe('ATM 1');
    expect(exportCell('Cash 1=2')).toBe('Cash 1=2');
    expect(exportCell(' plain')).toBe(' plain');
  });
});

describe('CSV', () => {
  it('quotes every field, doubles quotes, keeps line breaks, and guards formulas', () => {
    const csv = toCsv<Row>([{ atm: 'A,1', amount: 100, note: 'say "hi"' }, { atm: '=cmd|calc', note: 'two\nlines' }, { atm: null }], columns);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv.slice(1).split('\r\n')).toEqual([
      '"ATM ID","Amount","Note"',
      '"A,1","100","say ""hi"""',
      `"'=cmd|calc","N/A","two\nlines"`,
      '"N/A","N/A","N/A"',
      '',
    ]);
  });

  it('takes the columns of JSON data from the first record', () => {
    const rows = [{ a: 1, b: 'x' }, { a: 2 }];
    expect(toCsv(rows, columnsFromFirstRecord(rows)).slice(1)).toBe('"a","b"\r\n"1","x"\r\n"2","N/A"\r\n');
  });
});

describe('XLSX', () => {
  it('writes one named sheet whose cells match the rows, guarded', async () => {
    const buffer = await toXlsx<Row>(
      [
        { atm: '@evil', amount: 250.5 },
        { atm: 'APX00001', note: 'ok' },
      ],
      columns,
      'AttendanceData',
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(buffer);
    expect(book.worksheets.map((s) => s.name)).toEqual(['AttendanceData']);
    const sheet = book.getWorksheet('AttendanceData')!;
    const values = [1, 2, 3].map((r) => [1, 2, 3].map((c) => sheet.getRow(r).getCell(c).value));
    expect(values).toEqual([
      ['ATM ID', 'Amount', 'Note'],
      ["'@evil", 250.5, 'N/A'],
      ['APX00001', 'N/A', 'ok'],
    ]);
  });
});

describe('exportFileName', () => {
  it('names what the file holds: the quick filter, the dates, the other filters, the ticked count', () => {
    expect(exportFileName('ej_error.csv', {})).toBe('ej_error.csv');
    expect(exportFileName('ej_error.xlsx', { tat: 'breached', start_date: '2026-11-01', end_date: '2026-11-30', atm_id: 'APX0001', page: 3 })).toBe(
      'ej_error_breached_2026-11-01_2026-11-30_atm_id-APX0001.xlsx',
    );
    expect(exportFileName('ej_error.csv', { tat: 'open' }, 12)).toBe('ej_error_12_ticked_open.csv');
  });

  it('keeps only characters every system saves as they are, and stays short', () => {
    expect(exportFileName('ej_error.csv', { mail_subject: '../../etc/passwd "x"; rm' })).toBe('ej_error_mail_subject-..-..-etc-passwd-x-rm.csv');
    expect(exportFileName('ej_error.csv', { bank_name: 'Ünïcode Bank / 東京' })).toBe('ej_error_bank_name-Unicode-Bank.csv');
    expect(exportFileName('ej_error.csv', { bank_name: '////' })).toBe('ej_error.csv');
    const long = exportFileName('ej_error.csv', { mail_subject: 'x'.repeat(500) });
    expect(long.length).toBe(120);
    expect(long.endsWith('.csv')).toBe(true);
  });
});
