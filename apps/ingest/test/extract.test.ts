// The pieces extraction rests on, with the malformed input senders really send.
import { describe, expect, test } from 'vitest';
import { columnOf, parseDate, parseMoney, readTable } from '../src/extract/columns.ts';
import { textGrid } from '../src/extract/text.ts';
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

  test('a table needs an ATM ID header and another column; rows without an ATM ID are skipped', () => {
    expect(readTable([['Name', 'Amount'], ['x', '1']], 100)).toBeNull();
    const table = readTable([['Report'], ['ATM ID', 'Amount', 'Note'], ['A1', '10', 'ok'], ['', '20', 'total'], ['A2\u0000', '=1+1', '']], 100)!;
    expect(table.rows.map((r) => [r.row.atmId, r.row.txtAmt, r.record.Note])).toEqual([['A1', '10.00', 'ok'], ['A2', null, '']]);
  });

  test('delimited text: pipes with edges, quoted CSV, spaced columns', () => {
    expect(textGrid('| ATM ID | Amount |\n| A1 | 5 |', 100)).toEqual([['ATM ID', 'Amount'], ['A1', '5']]);
    expect(textGrid('ATM ID,Remarks\nA1,"cash, not ""dispensed"""', 100)).toEqual([['ATM ID', 'Remarks'], ['A1', 'cash, not "dispensed"']]);
    expect(textGrid('ATM ID    Amount\nA1        5', 100)).toEqual([['ATM ID', 'Amount'], ['A1', '5']]);
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
});

test('subjects are compared without reply and forward prefixes', () => {
  expect(normalizeSubject('RE: Fwd: [EXT]  ATM Dispute  APX')).toBe('atm dispute apx');
  expect(normalizeSubject('Re[2]: AW: x')).toBe('x');
});

test('a rules file is checked before anything is replaced', () => {
  expect(parseRulesFile('{"senders":[{"sender":"@Bank.example","organisation":" Apex Bank "}]}')).toEqual({ senders: [{ sender: '@bank.example', organisation: 'Apex Bank' }] });
  expect(() => parseRulesFile('{"senders":[{"sender":"no at sign","organisation":"x"}]}')).toThrow(/senders\[0\]\.sender/);
  expect(() => parseRulesFile('{"ignore":[{"field":"body","pattern":"x"}]}')).toThrow(/ignore\[0\]\.field/);
  expect(() => parseRulesFile('[]')).toThrow(/rules file/);
});
