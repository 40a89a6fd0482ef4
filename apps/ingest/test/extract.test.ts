// The pieces extraction rests on, with the malformed input senders really send.
import { execFileSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import iconv from 'iconv-lite';
import { cleanText, columnOf, parseDate, parseMoney, readTable } from '../src/extract/columns.ts';
import { decodeText, textGrid } from '../src/extract/text.ts';
import { gridsOfPages, linesOf } from '../src/extract/pdf.ts';
import { unzip } from '../src/extract/zip.ts';
import { normalizeSubject } from '../src/message.ts';
import { parseRulesFile } from '../src/rules-file.ts';
import { zip, zipBomb } from './support/corpus.ts';

describe('columns', () => {
  test('headers are recognised in their many spellings, and unknown ones are not', () => {
    expect(columnOf('TXT Date.(DD/MM/YY)')).toBe('txtDate');
    expect(columnOf('Complaint Date/Received from MSP(DD/MM/YY)')).toBe('complaintDate');
    expect(columnOf(' Terminal ID ')).toBe('atmId');
    expect(columnOf('RRN')).toBe('txtNo');
    expect(columnOf('Favourite colour')).toBeUndefined();
  });

  test('dates: DD/MM/YY and variants; impossible dates are empty', () => {
    expect(parseDate('05/10/26')).toBe('2026-10-05');
    expect(parseDate('5-10-2026')).toBe('2026-10-05');
    expect(parseDate('2026-10-05T10:00:00Z')).toBe('2026-10-05');
    expect(parseDate(new Date(Date.UTC(2026, 9, 5)))).toBe('2026-10-05');
    for (const bad of ['31/02/26', '00/10/26', '10/13/26', 'yesterday', '', null]) expect(parseDate(bad), String(bad)).toBeNull();
  });

  test('amounts: currency signs, separators, brackets; out of range is empty', () => {
    expect(parseMoney('Rs. 1,234.50')).toBe('1234.50');
    expect(parseMoney('(200)')).toBe('-200.00');
    expect(parseMoney(99.999)).toBe('100.00');
    for (const bad of ['1e15', 'N/A', '1.2.3', '', 1e13, Number.NaN]) expect(parseMoney(bad), String(bad)).toBeNull();
  });

  test('a dispute table names 3 of the columns, among them ATM ID and a transaction key; rows without an ATM ID are skipped', () => {
    expect(
      readTable(
        [
          ['Name', 'Amount'],
          ['x', '1'],
        ],
        100,
      ),
    ).toEqual({ rows: [], headerFound: false });
    const table = readTable(
      [['Report'], ['ATM ID', 'Txn No', 'Amount', 'Note'], ['A1', 'T1', '10', 'ok'], ['', 'T2', '20', 'total'], ['A2\u0000', 'T3', '=1+1', '']],
      100,
    );
    expect(table.rows.map((r) => [r.row.atmId, r.row.txtNo, r.row.txtAmt, r.record.Note])).toEqual([
      ['A1', 'T1', '10.00', 'ok'],
      ['A2', 'T3', null, ''],
    ]);
    // A header repeated on a later page is not a row.
    expect(
      readTable(
        [
          ['ATM ID', 'Card No', 'Amount'],
          ['A1', 'C1', '5'],
          ['ATM ID', 'Card No', 'Amount'],
          ['A2', 'C2', '6'],
        ],
        100,
      ).rows,
    ).toHaveLength(2);
  });

  test.each([
    ['an unrelated sheet', ['Date', 'ATM', 'Amount', 'Vendor'], /names Txn Date, ATM ID, Txn Amount \(no Txn No, RRN or Card No\)/],
    ['ATM ID and a key alone', ['ATM ID', 'RRN', 'Branch'], /only 2 of the 16/],
    ['no ATM ID', ['Card No', 'Txn No', 'Amount'], /no ATM ID/],
  ])('%s is skipped, saying why', (_name, header, reason) => {
    const table = readTable([header, ['A1', 'x', '5', 'y']], 100);
    expect(table.rows).toEqual([]);
    expect(table.skipped).toMatch(reason);
  });

  test('delimited text: pipes with edges, quoted CSV, spaced columns', () => {
    expect(textGrid('| ATM ID | Amount |\n| A1 | 5 |', 100)).toEqual([
      ['ATM ID', 'Amount'],
      ['A1', '5'],
    ]);
    expect(textGrid('ATM ID,Remarks\nA1,"cash, not ""dispensed"""', 100)).toEqual([
      ['ATM ID', 'Remarks'],
      ['A1', 'cash, not "dispensed"'],
    ]);
    expect(textGrid('ATM ID    Amount\nA1        5', 100)).toEqual([
      ['ATM ID', 'Amount'],
      ['A1', '5'],
    ]);
  });

  test('the delimiter is the one that splits the header into dispute columns, not the most frequent one', () => {
    const remarks = 'Cash not dispensed, customer called, branch informed, EJ checked, reversal pending, follow up';
    const text = `ATM ID\tTxn No\tRemarks\nA1\t700001\t${remarks}\nA2\t700002\t${remarks}, again`;
    expect(textGrid(text, 100)).toEqual([
      ['ATM ID', 'Txn No', 'Remarks'],
      ['A1', '700001', remarks],
      ['A2', '700002', `${remarks}, again`],
    ]);
  });
});

describe('charsets', () => {
  const euroLine = 'ATM ID;Remarks\nA1;€ 50 – “short” café\n';
  test('Windows-1252, Latin-1, UTF-8 with a BOM and a declared charset all read as the sender wrote them', () => {
    const cp1252 = iconv.encode(euroLine, 'windows-1252');
    expect(decodeText(cp1252)).toBe(euroLine);
    expect(decodeText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(euroLine)]))).toBe(euroLine);
    expect(decodeText(Buffer.from(euroLine))).toBe(euroLine);
    expect(decodeText(iconv.encode('Ré: café', 'latin1'), 'ISO-8859-1')).toBe('Ré: café');
    expect(decodeText(iconv.encode(euroLine, 'utf-16le'), 'utf-16le')).toBe(euroLine);
  });

  test('C1 control characters never come through', () => {
    expect(decodeText(iconv.encode('a\u0085b\u009dc', 'latin1'), 'latin1')).toBe('abc');
    expect(cleanText('x\u0080y\u009fz')).toBe('xyz');
  });
});

describe('archives', () => {
  test('a protected ZIP opens with the right one of the stored passwords, and says so when none fits', async () => {
    const archive = await zip([{ name: 'a.csv', content: 'ATM ID,Amount\nA1,5' }], 'right');
    expect((await unzip(archive, ['wrong', 'right']))[0]!.name).toBe('a.csv');
    await expect(unzip(archive, ['wrong'])).rejects.toThrow('the stored password does not open it');
    await expect(unzip(archive, [])).rejects.toThrow('no password is stored');
  });

  test('a zip bomb stops at the limit, whatever it costs to build', async () => {
    await expect(unzip(zipBomb(64 * 1024 * 1024))).rejects.toThrow(/expands beyond/);
    await expect(unzip(Buffer.from('not a zip at all'))).rejects.toThrow(/not a readable ZIP/);
  });

  test('entries stored and deflated by Python read back; a damaged one is refused, never passed on', async () => {
    // Python's zipfile, not this code, writes the archive: one entry stored, one deflated.
    const make = `import io, sys, zipfile
b = io.BytesIO()
with zipfile.ZipFile(b, 'w') as z:
    z.writestr('stored.txt', 'ATM ID,Amount\\nA1,5\\n', zipfile.ZIP_STORED)
    z.writestr('deflated.txt', 'NOTES PRESENTED 0,4,0,0\\n' * 2000, zipfile.ZIP_DEFLATED)
sys.stdout.buffer.write(b.getvalue())`;
    const archive = execFileSync('/usr/bin/python3', ['-c', make]);
    const files = await unzip(archive);
    expect(files.map((f) => [f.name, Buffer.from(f.data).toString().slice(0, 23), f.data.length])).toEqual([
      ['stored.txt', 'ATM ID,Amount\nA1,5\n', 19],
      ['deflated.txt', 'NOTES PRESENTED 0,4,0,0', 48000],
    ]);
    // One byte of the stored entry's content changed: its CRC-32 no longer matches.
    const damaged = Buffer.from(archive);
    damaged[damaged.indexOf('A1,5')] = 'B'.charCodeAt(0);
    await expect(unzip(damaged)).rejects.toThrow(/stored.txt is damaged/);
  });
});

test('subjects are compared without reply and forward prefixes', () => {
  expect(normalizeSubject('RE: Fwd: [EXT]  ATM Dispute  APX')).toBe('atm dispute apx');
  expect(normalizeSubject('Re[2]: AW: x')).toBe('x');
});

test('a rules file is checked before anything is replaced', () => {
  expect(parseRulesFile('{"senders":[{"sender":"@Bank.example","organisation":" Apex Bank "}]}')).toEqual({
    senders: [{ sender: '@bank.example', organisation: 'Apex Bank' }],
  });
  expect(() => parseRulesFile('{"senders":[{"sender":"no at sign","organisation":"x"}]}')).toThrow(/senders\[0\]\.sender/);
  expect(() => parseRulesFile('{"ignore":[{"field":"body","pattern":"x"}]}')).toThrow(/ignore\[0\]\.field/);
  expect(() => parseRulesFile('[]')).toThrow(/rules file/);
});

describe('PDF tables from text positions', () => {
  /** A text item as pdf.js reports it: x, y (bottom-up), width from the text's length. */
  const item = (str: string, x: number, y: number) => ({
    str,
    x,
    y,
    width: str.length * 5,
    height: 9,
    fontSize: 9,
    fontFamily: 'Helvetica',
    dir: 'ltr',
    hasEOL: false,
  });
  const row = (y: number, cells: [string, number][]) => cells.map(([text, x]) => item(text, x, y));

  test('cells are placed by the header bands, empty cells stay empty, repeated headers are skipped', () => {
    const header = (y: number) =>
      row(y, [
        ['ATM ID', 40],
        ['Txn No', 140],
        ['Amount', 240],
        ['Remarks', 340],
      ]);
    const pages = [
      [
        ...header(800),
        ...row(780, [
          ['A1', 40],
          ['700001', 140],
          ['1,250.00', 262],
          ['Cash short', 340],
        ]),
        ...row(760, [
          ['A2', 40],
          ['700002', 140],
          ['Partial', 340],
        ]),
      ],
      [
        ...header(800),
        ...row(780, [
          ['A3', 40],
          ['700003', 140],
          ['90.00', 270],
        ]),
      ],
    ];
    expect(gridsOfPages(pages)).toEqual([
      [
        ['ATM ID', 'Txn No', 'Amount', 'Remarks'],
        ['A1', '700001', '1,250.00', 'Cash short'],
        ['A2', '700002', '', 'Partial'],
        ['A3', '700003', '90.00', ''],
      ],
    ]);
  });

  test('words of one cell are joined; a PDF without a dispute header is read as delimited lines', () => {
    const words = [item('Cash', 340, 780), item('not', 362, 780), item('dispensed', 379, 780)];
    expect(linesOf(words).map((cells) => cells.map((c) => c.text))).toEqual([['Cash not dispensed']]);
    const piped = [item('ATM ID | Txn No | Amount', 40, 800), item('A1 | 700001 | 5.00', 40, 780)];
    expect(gridsOfPages([piped])).toEqual([
      [
        ['ATM ID', 'Txn No', 'Amount'],
        ['A1', '700001', '5.00'],
      ],
    ]);
  });
});
