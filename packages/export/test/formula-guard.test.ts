// The formula-injection guard as a spreadsheet meets it: hostile text behind invisible characters
// or after a ';' (where Excel in semicolon-separated locales splits a CSV cell) comes out inert in
// the CSV and in both workbooks, read back by ExcelJS and openpyxl, while numbers, negative amounts
// and dates keep their types.
import { spawnSync } from 'node:child_process';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { toCsv, toXlsx, type ExportColumn } from '../src/index.ts';
import { csvChunks, exportCell, xlsxStream } from '../src/server.ts';

/** What may stand before a formula's first character and still show as nothing. */
const invisibles: [string, string][] = [
  ['zero-width space', '\u200B'],
  ['zero-width non-joiner', '\u200C'],
  ['zero-width joiner', '\u200D'],
  ['word joiner', '\u2060'],
  ['byte order mark', '\uFEFF'],
  ['left-to-right mark', '\u200E'],
  ['right-to-left mark', '\u200F'],
  ['Arabic letter mark', '\u061C'],
  ['right-to-left override', '\u202E'],
  ['left-to-right embedding', '\u202A'],
  ['first strong isolate', '\u2068'],
  ['pop directional isolate', '\u2069'],
  ['soft hyphen', '\u00AD'],
  ['no-break space', '\u00A0'],
  ['Mongolian vowel separator', '\u180E'],
  ['combining grapheme joiner', '\u034F'],
  ['Hangul filler', '\u3164'],
  ['invisible times', '\u2062'],
  ['line separator', '\u2028'],
];
const triggers = ['=', '+', '-', '@', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20'];

/** Hostile text that must come out as `'` + itself. */
const atStart = [
  ...invisibles.map(([, c]) => `${c}=HYPERLINK("http://evil.example","Refund")`),
  ...triggers.map((t) => `\u200B\u200F${t}1+cmd|' /C calc'!A0`),
  '\u00AD\u200D@SUM(1+1)',
];
/** Hostile text after a ';': each part after one is guarded as a cell of its own. */
const afterSemicolon: [string, string][] = [
  ['Refund;=HYPERLINK("http://evil.example")', `Refund;'=HYPERLINK("http://evil.example")`],
  ['a; @SUM(1+1)', `a;' @SUM(1+1)`],
  ['a;\u200B-2+3;b;+1', `a;'\u200B-2+3;b;'+1`],
  ['=1;=2', `'=1;'=2`],
  ['a;\uFF1Dcmd', `a;'\uFF1Dcmd`],
];
/** Ordinary text the guard leaves alone. */
const ordinary = ['Cash 1=2', 'a;b', 'Refund; see note', 'x-1', 'user@bank.example', '\u200Bplain', '-2400.50'];

interface Row {
  text: string;
  amount: number | null;
  signed: string;
  day: string;
}
const columns: ExportColumn<Row>[] = [
  { header: 'Text', value: 'text' },
  { header: 'Amount', value: 'amount' },
  { header: 'Signed', value: 'signed', format: 'amount' },
  { header: 'Day', value: 'day', format: 'date' },
];
const texts = [...atStart, ...afterSemicolon.map(([v]) => v), ...ordinary];
const rows: Row[] = texts.map((text, i) => ({ text, amount: -2400.5 + i, signed: `-${i + 1}.25`, day: '2025-03-25' }));
const guarded = (text: string) => (atStart.includes(text) ? `'${text}` : (afterSemicolon.find(([v]) => v === text)?.[1] ?? text));

/** Whether a spreadsheet would take a cell as a formula: its first visible character starts one, and it is no plain number. */
const startsFormula = (cell: string) =>
  !/^-?\d+(\.\d+)?$/.test(cell) && /^[\s\p{Z}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/u.test(cell);

describe('formula guard', () => {
  it.each(atStart)('guards %j, a formula behind invisible characters', (value) => {
    expect(exportCell(value)).toBe(`'${value}`);
  });

  it.each(afterSemicolon)('guards %j after each semicolon', (value, expected) => {
    expect(exportCell(value)).toBe(expected);
  });

  it.each(ordinary)('leaves %j as it is', (value) => {
    expect(exportCell(value)).toBe(value);
  });
});

const csvText = async () => {
  let streamed = '';
  async function* one() {
    yield rows;
  }
  for await (const chunk of csvChunks(one(), columns)) streamed += chunk;
  return { whole: toCsv(rows, columns), streamed };
};

/** A CSV as a spreadsheet opens it: ExcelJS's reader types numbers and dates as Excel does. */
async function readCsvAsSpreadsheet(text: string): Promise<unknown[][]> {
  const book = new ExcelJS.Workbook();
  const sheet = await book.csv.read(Readable.from([text.replace(/^\uFEFF/, '')]));
  const read: unknown[][] = [];
  sheet.eachRow((row) => read.push((row.values as unknown[]).slice(1)));
  return read;
}

describe('CSV', () => {
  it('quotes every field, header and numbers included, in both writers', async () => {
    const { whole, streamed } = await csvText();
    expect(streamed).toBe(whole);
    const lines = whole.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines.pop()).toBe('');
    expect(lines[0]).toBe('"Text","Amount","Signed","Day"');
    for (const line of lines) expect(line).toMatch(/^"(?:[^"]|"")*"(?:,"(?:[^"]|"")*")*$/);
  });

  it('reads back with every hostile cell inert, numbers and dates typed', async () => {
    const { whole } = await csvText();
    const [header, ...read] = await readCsvAsSpreadsheet(whole);
    expect(header).toEqual(['Text', 'Amount', 'Signed', 'Day']);
    expect(read).toHaveLength(rows.length);
    read.forEach((cells, i) => {
      const [text, amount, signed, day] = cells;
      if (texts[i] === '-2400.50') {
        // A negative number in a text column is left as it is, so a spreadsheet reads a number.
        expect(text).toBe(-2400.5);
      } else {
        expect(text).toBe(guarded(texts[i]!));
        expect(startsFormula(text as string)).toBe(false);
      }
      expect(amount).toBe(-2400.5 + i);
      // A negative amount in an amount column stays a number, not guarded text.
      expect(signed).toBe(-(i + 1.25));
      expect(day).toEqual(new Date('2025-03-25T00:00:00Z'));
    });
  });

  it('starts no formula where a semicolon-separated locale splits the cells', async () => {
    const { whole } = await csvText();
    const lines = whole.replace(/^\uFEFF/, '').split('\r\n');
    // Excel there splits at every ';', quotes or not: each part after one starts a cell.
    const parts = lines.flatMap((line) => line.split(';').slice(1));
    expect(parts.length).toBeGreaterThan(afterSemicolon.length);
    for (const part of parts) expect(startsFormula(part), part).toBe(false);
  });
});

/**
 * Each cell of the first sheet as openpyxl reads it (value, its type) and as the sheet's XML holds
 * it (the t attribute, whether a formula is there).
 */
const openpyxlCells = `
import sys, io, json, datetime, zipfile, warnings, openpyxl
import xml.etree.ElementTree as ET
# write-excel-file names no default cell style; openpyxl applies its own and says so.
warnings.simplefilter('ignore')
data = sys.stdin.buffer.read()
ns = {'m': 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'}
archive = zipfile.ZipFile(io.BytesIO(data))
sheet_name = sorted(n for n in archive.namelist() if n.startswith('xl/worksheets/sheet'))[0]
xml = {}
for c in ET.fromstring(archive.read(sheet_name)).iter('{%s}c' % ns['m']):
    xml[c.get('r')] = {'t': c.get('t') or 'n', 'formula': c.find('m:f', ns) is not None}
book = openpyxl.load_workbook(io.BytesIO(data))
out = []
for row in book.worksheets[0].iter_rows():
    cells = []
    for cell in row:
        v = cell.value
        cells.append({'value': v.date().isoformat() if isinstance(v, datetime.datetime) else v, 'type': cell.data_type,
                      'date': cell.is_date, **xml.get(cell.coordinate, {'t': None, 'formula': False})})
    out.append(cells)
print(json.dumps(out))
`;
interface ReadCell {
  value: unknown;
  type: string;
  date: boolean;
  t: string | null;
  formula: boolean;
}

function readWithOpenpyxl(bytes: Buffer): ReadCell[][] {
  const read = spawnSync('/usr/bin/python3', ['-c', openpyxlCells], { input: bytes });
  expect(read.stderr.toString()).toBe('');
  return JSON.parse(read.stdout.toString()) as ReadCell[][];
}

const streamedBook = async () => {
  async function* one() {
    yield rows;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of xlsxStream(one(), columns, 'Data')) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

describe.each([
  ['the server’s streamed workbook', streamedBook],
  ['the browser’s workbook', async () => Buffer.from(await toXlsx(rows, columns, 'Data'))],
])('%s', (_name, write) => {
  it('holds every hostile cell as text, never a formula; numbers and dates typed', async () => {
    const [header, ...read] = readWithOpenpyxl(await write());
    expect(header!.map((c) => c.value)).toEqual(['Text', 'Amount', 'Signed', 'Day']);
    expect(read).toHaveLength(rows.length);
    read.forEach(([text, amount, signed, day], i) => {
      // A text cell: an inline or shared string, no formula, its text guarded.
      expect(['inlineStr', 's']).toContain(text!.t);
      expect(text!.formula).toBe(false);
      expect(text!.type).toBe('s');
      expect(text!.value).toBe(guarded(texts[i]!));
      expect(startsFormula(text!.value as string)).toBe(false);
      expect(amount).toMatchObject({ value: -2400.5 + i, type: 'n', t: 'n', formula: false });
      expect(signed).toMatchObject({ value: -(i + 1.25), type: 'n', t: 'n', formula: false });
      expect(day).toMatchObject({ value: '2025-03-25', date: true, t: 'n', formula: false });
    });
  });

  it('reads the same through ExcelJS', async () => {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await write()) as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    rows.forEach((_, i) => {
      const row = sheet.getRow(i + 2);
      expect(row.getCell(1).type).toBe(ExcelJS.ValueType.String);
      expect(row.getCell(1).value).toBe(guarded(texts[i]!));
      expect(row.getCell(2).value).toBe(-2400.5 + i);
      expect(row.getCell(3).value).toBe(-(i + 1.25));
      expect(row.getCell(4).value).toEqual(new Date('2025-03-25T00:00:00Z'));
    });
  });
});
