import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodeJournal, detectFamily, parseJournal, type JournalTransaction, type ParsedJournal } from '../src/index.ts';

const sample = (name: string) => readFileSync(join(import.meta.dirname, 'samples', name));
const enc = (s: string) => new TextEncoder().encode(s);

async function parse(bytes: Uint8Array, fileName?: string): Promise<ParsedJournal> {
  const parsed = await parseJournal(bytes, { fileName });
  if (!parsed) throw new Error('not read as a journal');
  return parsed;
}

async function* chunks(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.slice(at, at + size);
}

const brief = (t: JournalTransaction) => [t.kind, t.verdict, t.requestedAmount, t.dispensedAmount];

describe('NCR (APTRA Advance NDC, Indian switch)', () => {
  it('gives every withdrawal its verdict, with the ids, amounts and lines it rests on', async () => {
    const j = await parse(sample('ncr.txt'));
    expect(j.family).toBe('ncr');
    expect(j.atmId).toBe('S1AB012345');
    // The header's 04/02/2025 reads day first: the receipt prints 04/02/25 for the same day.
    expect(j.day).toBe('2025-02-04');
    expect(j.unknownLines).toBe(0);
    expect(j.transactions.map(brief)).toEqual([
      ['withdrawal', 'dispensed', '2000.00', '2000.00'],
      ['withdrawal', 'partial', '5000.00', '1200.00'],
      ['withdrawal', 'retracted', '1000.00', '0.00'],
      ['withdrawal', 'not_dispensed', '3000.00', '0.00'],
      ['withdrawal', 'reversed', '3000.00', '0.00'],
      ['declined', null, '9000.00', '0.00'],
      ['withdrawal', 'indeterminate', '2000.00', null],
      ['withdrawal', 'indeterminate', '500.00', null],
    ]);
    const [first] = j.transactions;
    expect(first).toMatchObject({
      seq: 1,
      at: '2025-02-04T06:26:55',
      cardLast4: '1234',
      serial: '6437',
      rrn: '503506123456',
      stan: '123456',
      responseCode: '000',
      presented: [0, 4, 0, 0],
      // The sequence header before *TRANSACTION START* opens it.
      lines: { from: 3, to: 25 },
      evidence: [14, 15],
      cut: null,
    });
    // The denominations came from a CASH TOTAL printed after these transactions.
    expect(j.counters).toHaveLength(1);
    expect(j.counters[0]?.cassettes[1]).toEqual({ position: 2, denomination: 500, dispensed: 6, rejected: 1, remaining: 1994 });
  });

  it('reads a restart mid-transaction and the end of the file mid-transaction as indeterminate, with anomalies', async () => {
    const j = await parse(sample('ncr.txt'));
    const restarted = j.transactions[6]!;
    expect(restarted.reason).toMatch(/restarted/);
    expect(restarted.evidence).toContain(92);
    const cut = j.transactions[7]!;
    expect(cut.cut).toBe('end');
    expect(cut.lines).toEqual({ from: 102, to: 109 });
    expect(j.anomalies.map((a) => [a.line, a.kind])).toEqual([
      [51, 'retract'],
      [61, 'dispense_failure'],
      [62, 'dispense_failure'],
      [72, 'dispense_failure'],
      [73, 'dispense_failure'],
      [92, 'restart'],
      [109, 'cut'],
    ]);
  });

  it('never keeps a full card number', async () => {
    const j = await parse(enc(readFileSync(join(import.meta.dirname, 'samples', 'ncr.txt'), 'utf8').replace('608001******1234', '6080011234561234')));
    expect(j.transactions[0]?.cardLast4).toBe('1234');
    expect(JSON.stringify(j)).not.toContain('6080011234561234');
  });

  it('reads the notes presented over POSITION and COUNT lines, and the request amount in rupees', async () => {
    const text = [
      '\x1b[020t*12*04/16/2024*06:44:23*',
      '     *TRANSACTION START*',
      '\x1b[020tCARD: 652183******2734',
      'DATE 16-04-24    TIME 06:44:31',
      '06:44:55 REQUEST SENT [AMOUNT=00001500]',
      '06:44:59 RESPONSE RECEIVED [FUNCTION ID=2, TXN SN NO=9997]',
      '\x1b[020t 06:45:04 NOTES STACKED',
      '\x1b[020t 06:45:20',
      'NOTES PRESENTED',
      'POSITION 1,2,3,0',
      'COUNT    0,5,1,0',
      'CASH TOTAL       TYPE1 TYPE2 TYPE3 TYPE4',
      'CASS POSITION        1     2     3     0',
      'DENOMINATION       100   200   500     0',
      'DISPENSED        00020 00005 00101 00000',
      'REJECTED         00001 00001 00001 00000',
      'REMAINING        00980 00995 02299 00000',
      '',
      '\x1b[020t 06:45:23 NOTES TAKEN',
      '\x1b[020t 06:45:30 TRANSACTION END',
    ].join('\r');
    const j = await parse(enc(text));
    // The header's 04/16 can only be month first.
    expect(j.day).toBe('2024-04-16');
    expect(j.transactions.map(brief)).toEqual([['withdrawal', 'dispensed', '1500.00', '1500.00']]);
    expect(j.transactions[0]?.evidence).toEqual([9, 11, 19]);
    expect(j.transactions[0]?.serial).toBe('9997');
  });
});

describe('Diebold Nixdorf (ProCash / Vynamic)', () => {
  it('gives every withdrawal its verdict from dated lines, CASH lines and the cassette table', async () => {
    const j = await parse(sample('diebold.txt'));
    expect(j.family).toBe('diebold');
    expect(j.transactions.map(brief)).toEqual([
      ['withdrawal', 'dispensed', '1500.00', '1500.00'],
      ['withdrawal', 'retracted', '2000.00', '0.00'],
      ['withdrawal', 'reversed', '1000.00', '0.00'],
      ['declined', null, '1000.00', '0.00'],
    ]);
    expect(j.transactions[0]).toMatchObject({ cardLast4: '2222', stan: '004512', rrn: '503506004512', responseCode: '00', presented: [0, 0, 3, 0] });
    expect(j.anomalies.map((a) => a.kind)).toEqual(['retract', 'dispense_failure']);
    expect(j.anomalies[1]?.text).toContain('0000 0002 0000');
  });
});

describe('Hyosung MoniPlus', () => {
  it('reads bracketed stamps, DISPENSE CST lines, the host response and WITHDRAW COUNTER', async () => {
    const j = await parse(sample('hyosung.txt'));
    expect(j.family).toBe('hyosung');
    expect(j.day).toBe('2025-02-04');
    expect(j.transactions.map(brief)).toEqual([
      ['withdrawal', 'dispensed', '2500.00', '2500.00'],
      ['withdrawal', 'retracted', '1000.00', '0.00'],
      ['withdrawal', 'not_dispensed', '1000.00', '0.00'],
    ]);
    expect(j.transactions[0]).toMatchObject({ serial: '0187', rrn: '503506001870', responseCode: '00', at: '2025-02-04T06:05:00' });
    expect(j.counters[0]).toMatchObject({ at: '2025-02-04T23:50:00' });
    expect(j.counters[0]?.cassettes[1]).toEqual({ position: 2, denomination: 500, dispensed: 7, rejected: 1, remaining: 1992 });
  });
});

describe('verdict rules', () => {
  const ncrTxn = (lines: string[]) =>
    [
      '[020t*1*02/05/2025*10:00:00*',
      '*TRANSACTION START*',
      '10:00:01 AMOUNT 1000 ENTERED',
      '10:00:02 REQUEST SENT [AMOUNT=00100000]',
      '10:00:03 RESPONSE RECEIVED [FUNCTION ID=9,  TXN SN NO=1]',
      ...lines,
    ].join('\n');
  const table = ['CASH TOTAL       TYPE1 TYPE2 TYPE3 TYPE4', 'DENOMINATION       100   500   200     0'];

  it('taken and retracted both: indeterminate, with a contradiction', async () => {
    const j = await parse(enc(ncrTxn(['NOTES PRESENTED 0,2,0,0', 'NOTES TAKEN', 'NOTES RETRACTED', 'TRANSACTION END', ...table])));
    expect(brief(j.transactions[0]!)).toEqual(['withdrawal', 'indeterminate', '1000.00', null]);
    expect(j.anomalies.map((a) => a.kind)).toContain('contradiction');
  });

  it('a new transaction before the end: the first is indeterminate (a gap)', async () => {
    const j = await parse(enc(ncrTxn(['NOTES PRESENTED 0,2,0,0', '*TRANSACTION START*', 'TRANSACTION END', ...table])));
    expect(j.transactions[0]?.verdict).toBe('indeterminate');
    expect(j.anomalies.map((a) => a.kind)).toContain('gap');
  });

  it('presented but the journal never states the denomination: indeterminate', async () => {
    const j = await parse(enc(ncrTxn(['NOTES PRESENTED 0,2,0,0', 'NOTES TAKEN', 'TRANSACTION END'])));
    expect(j.transactions[0]?.verdict).toBe('indeterminate');
    expect(j.transactions[0]?.reason).toMatch(/denomination/);
  });

  it('a journal that begins inside a transaction: that part is cut at its start', async () => {
    const j = await parse(
      enc(
        [
          '10:00:05 NOTES PRESENTED 0,2,0,0',
          '10:00:08 NOTES TAKEN',
          '10:00:09 TRANSACTION END',
          ncrTxn(['NOTES PRESENTED 0,2,0,0', 'NOTES TAKEN', 'TRANSACTION END', ...table]),
        ].join('\n'),
      ),
    );
    expect(j.transactions.map((t) => [t.verdict, t.cut])).toEqual([
      ['indeterminate', 'start'],
      ['dispensed', null],
    ]);
  });

  it('near twins stay two transactions: the failed one and the dispensed one a minute later', async () => {
    const twin = (minute: string, serial: string, body: string[]) => [
      `[020t*${serial}*02/05/2025*10:${minute}:00*`,
      '*TRANSACTION START*',
      '[020tCARD: 608001******4321',
      `10:${minute}:01 AMOUNT 3000 ENTERED`,
      `10:${minute}:02 REQUEST SENT [AMOUNT=00300000]`,
      `10:${minute}:03 RESPONSE RECEIVED [FUNCTION ID=9,  TXN SN NO=${serial}]`,
      ...body,
      `10:${minute}:30 TRANSACTION END`,
    ];
    const text = [...twin('00', '11', ['UNABLE TO DISPENSE']), ...twin('01', '12', ['NOTES PRESENTED 0,6,0,0', 'NOTES TAKEN']), ...table].join('\n');
    const j = await parse(enc(text));
    expect(j.transactions.map((t) => [t.serial, t.at, t.cardLast4, t.verdict])).toEqual([
      ['11', '2025-02-05T10:00:00', '4321', 'not_dispensed'],
      ['12', '2025-02-05T10:01:00', '4321', 'dispensed'],
    ]);
  });
});

describe('bytes in', () => {
  it('gives the same journal whatever the chunks, down to one byte', async () => {
    for (const name of ['ncr.txt', 'diebold.txt', 'hyosung.txt']) {
      const bytes = sample(name);
      const whole = await parse(bytes);
      for (const size of [1, 7, 64]) expect(await parseJournal(chunks(bytes, size))).toEqual(whole);
    }
  });

  it('reads CRLF and Windows-1252 as it reads LF and UTF-8, line numbers unchanged', async () => {
    const text = readFileSync(join(import.meta.dirname, 'samples', 'ncr.txt'), 'utf8');
    const lf = await parse(enc(text));
    const crlf = await parse(enc(text.replace(/\n/g, '\r\n')));
    expect(crlf).toEqual(lf);
    // A branch name with é and a rupee sign written as Windows-1252 bytes cannot be UTF-8.
    const withBranch = text.replace('    DATE       TIME       ATM ID', '    CAFÉ BRANCH ‰\r\n    DATE       TIME       ATM ID');
    const cp1252 = iconv.encode(withBranch.replace(/\n/g, '\r\n'), 'win1252');
    const j = await parse(cp1252);
    expect(j.transactions.map(brief)).toEqual(lf.transactions.map(brief));
    expect(decodeJournal(cp1252).split('\n')[15]).toBe('    CAFÉ BRANCH ‰');
  });

  it('takes the ATM ID and day from the file name when the journal prints neither', async () => {
    const text = [
      '06:10:00 -> TRANSACTION START',
      '06:10:08 AMOUNT 1000 ENTERED',
      '06:10:12 CASH REQUEST: 0002',
      '06:10:15 CASH PRESENTED',
      '06:10:19 CASH TAKEN',
      '06:10:23 <- TRANSACTION END',
    ].join('\n');
    for (const [name, atm, day] of [
      ['EJ_S1AB012345_20250204.txt', 'S1AB012345', '2025-02-04'],
      ['S1AB012345-04022025.jrn', 'S1AB012345', '2025-02-04'],
      ['journal.log', null, null],
    ] as const) {
      const j = await parse(enc(text), name);
      expect([j.atmId, j.day, j.transactions[0]?.atmId, j.transactions[0]?.at]).toEqual([atm, day, atm, day ? `${day}T06:10:00` : null]);
    }
  });

  it('is not a journal: empty, prose, random bytes, an image', async () => {
    const random = new Uint8Array(100_000);
    let seed = 7;
    for (let i = 0; i < random.length; i++) random[i] = (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff;
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...random.subarray(0, 5000)]);
    const prose = enc('Dear team,\nthe customer says the cash was not taken. Please check the journal.\nRegards');
    for (const bytes of [new Uint8Array(0), prose, random, png]) expect(await parseJournal(bytes)).toBeNull();
    expect(detectFamily(['hello', 'NOTES TAKEN'])).toBeNull();
    expect(detectFamily(['*TRANSACTION START*', 'NOTES PRESENTED 0,1,0,0'])).toBe('ncr');
  });

  it('never throws on journals torn apart: lines shuffled, cut, doubled, bytes flipped', async () => {
    let seed = 11;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
    for (const name of ['ncr.txt', 'diebold.txt', 'hyosung.txt']) {
      const lines = readFileSync(join(import.meta.dirname, 'samples', name), 'utf8').split('\n');
      for (let round = 0; round < 60; round++) {
        const torn = Array.from({ length: lines.length }, () => {
          const line = lines[next(lines.length)]!;
          return next(4) === 0 ? line.slice(0, next(line.length + 1)) : line;
        });
        const bytes = enc(torn.join(next(2) ? '\n' : '\r'));
        for (let i = 0; i < 20; i++) bytes[next(bytes.length)] = next(256);
        const j = await parseJournal(bytes);
        // Whatever it makes of them, what it says holds together.
        for (const t of j?.transactions ?? []) {
          expect(t.lines.from).toBeLessThanOrEqual(t.lines.to);
          if (t.verdict === 'indeterminate') expect(t.dispensedAmount).toBeNull();
          if (t.verdict === 'dispensed' || t.verdict === 'partial') expect(Number(t.dispensedAmount)).toBeGreaterThan(0);
        }
      }
    }
  });

  it('keeps memory bounded on a 200 MB line', async () => {
    async function* huge(): AsyncGenerator<Uint8Array> {
      yield sample('hyosung.txt');
      const block = new Uint8Array(1 << 20).fill(0x41);
      for (let i = 0; i < 200; i++) yield block;
      yield enc('\n[06:30:00] TRANSACTION START\n');
    }
    const before = process.memoryUsage().rss;
    const j = await parseJournal(huge());
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 2 ** 20);
    expect(j?.family).toBe('hyosung');
    expect(j?.transactions.at(-1)?.cut).toBe('end');
  });
});
