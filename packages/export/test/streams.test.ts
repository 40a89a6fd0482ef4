// The server's streamed exports: typed cells a spreadsheet reader understands, and memory that does
// not grow with the row count because rows are only read while the client keeps reading.
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { csvChunks, excelSerialDay, xlsxStream, type ExportColumn } from '../src/server.ts';

interface Row {
  atm: string;
  day: string | null;
  amount: number | null;
  note: string;
}
const columns: ExportColumn<Row>[] = [
  { header: 'ATM ID', value: 'atm' },
  { header: 'Transaction Date', value: 'day', format: 'date' },
  { header: 'Amount', value: 'amount' },
  { header: 'Note', value: 'note' },
];

/** `count` batches of `size` rows, counting how many the consumer has pulled. */
function source(count: number, size: number) {
  const pulled = { batches: 0, closed: false };
  async function* batches() {
    try {
      for (let b = 0; b < count; b++) {
        pulled.batches++;
        yield Array.from({ length: size }, (_, i): Row => ({
          atm: `ATM${b * size + i}`,
          day: '2025-03-25',
          amount: 12.5,
          note: ' padded & <odd> "text"\u0001',
        }));
      }
    } finally {
      pulled.closed = true;
    }
  }
  return { pulled, batches: batches() };
}

const bytesOf = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
};

describe('streamed XLSX', () => {
  it('writes dates as date cells, numbers as numbers, text escaped and guarded', async () => {
    const { batches } = source(2, 3);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await bytesOf(xlsxStream(batches, [...columns, { header: '=cmd', value: () => '=1+1' }], 'Data/Sheet'))) as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.name).toBe('Data Sheet');
    expect(sheet.rowCount).toBe(7);
    expect(sheet.getRow(1).values).toEqual([undefined, 'ATM ID', 'Transaction Date', 'Amount', 'Note', "'=cmd"]);
    const row = sheet.getRow(7);
    expect(row.getCell(1).value).toBe('ATM5');
    expect(row.getCell(2).value).toEqual(new Date('2025-03-25T00:00:00Z'));
    expect(row.getCell(2).numFmt).toBe('dd/mm/yy');
    expect(row.getCell(3).value).toBe(12.5);
    expect(row.getCell(4).value).toBe(' padded & <odd> "text"'); // the control character is dropped
    expect(row.getCell(5).value).toBe("'=1+1");
  });

  it('reads rows only while the client reads, and stops reading when the client leaves', async () => {
    const { pulled, batches } = source(1000, 500);
    const stream = xlsxStream(batches, columns, 'Data');
    stream.once('data', () => stream.pause()); // one chunk read, then a client that stops reading
    await sleep(300);
    // 1000 batches were there; a stalled client holds back all but the few that fill the buffers.
    expect(pulled.batches).toBeGreaterThan(0);
    expect(pulled.batches).toBeLessThan(20);
    stream.destroy(); // the client leaves
    await sleep(50);
    expect(pulled.closed).toBe(true);
    expect(pulled.batches).toBeLessThan(20);
  });

  it('keeps memory flat as rows grow: ten times the rows, about the same peak', async () => {
    // The peak of what the process holds (heap, buffers) while a client reads the whole file and
    // drops it; a writer that kept rows, shared strings or the zip in memory would grow by tens of
    // MB from 40,000 to 400,000 rows.
    const peakGrowth = async (batchCount: number) => {
      const base = process.memoryUsage();
      let peak = 0;
      let bytes = 0;
      const stream = xlsxStream(source(batchCount, 500).batches, columns, 'Data');
      for await (const chunk of stream) {
        bytes += (chunk as Buffer).length;
        const now = process.memoryUsage();
        peak = Math.max(peak, now.heapUsed + now.arrayBuffers - base.heapUsed - base.arrayBuffers);
      }
      return { peak, bytes };
    };
    const small = await peakGrowth(80);
    const large = await peakGrowth(800);
    expect(large.bytes).toBeGreaterThan(small.bytes * 8); // the large file really holds ten times the rows
    expect(large.peak - small.peak).toBeLessThan(24 * 1024 * 1024);
  }, 120_000);

  it('turns YYYY-MM-DD and DD/MM/YY into Excel serial days and leaves anything else alone', () => {
    expect(excelSerialDay('1900-03-01')).toBe(61);
    expect(excelSerialDay('2025-03-25')).toBe(45741);
    // The file-detail rows' DD/MM/YY: 00-69 are 2000-2069, 70-99 the 1900s.
    expect(excelSerialDay('25/03/25')).toBe(45741);
    expect(excelSerialDay('01/01/70')).toBe(25569);
    const notDays = [null, '', '25/03/2025', '2025-03-25T10:00:00Z', '31/02/25', '2025-02-30', '3/4/25', 'N/A'];
    expect(notDays.map(excelSerialDay)).toEqual(notDays.map(() => null));
  });
});

describe('streamed CSV', () => {
  it('writes the header once and every row, guarded and quoted', async () => {
    const { batches } = source(3, 300);
    const text = (await bytesOf(Readable.from(csvChunks(batches, columns)))).toString('utf8');
    const lines = text.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('"ATM ID","Transaction Date","Amount","Note"');
    expect(lines).toHaveLength(1 + 900 + 1);
    expect(lines[900]).toBe('"ATM899","2025-03-25","12.5"," padded & <odd> ""text""\u0001"');
  });

  it('reads rows only while the client reads', async () => {
    const { pulled, batches } = source(1000, 500);
    const stream = Readable.from(csvChunks(batches, columns));
    stream.once('data', () => stream.pause());
    await sleep(300);
    expect(pulled.batches).toBeLessThan(5);
    stream.destroy();
    await sleep(50);
    expect(pulled.closed).toBe(true);
  });
});
