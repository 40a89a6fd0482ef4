import { spawnSync } from 'node:child_process';
import ExcelJS from 'exceljs';
import { dayIn, ejRecords } from '@ejdesk/db';
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, createTestApp, login, type TestApp } from './helpers.ts';

/** The first sheet's rows as JSON, dates as "datetime YYYY-MM-DD" (openpyxl from Debian's python3-openpyxl). */
const openpyxlDump = `
import sys, io, json, datetime, openpyxl
book = openpyxl.load_workbook(io.BytesIO(sys.stdin.buffer.read()), read_only=True)
cell = lambda v: 'datetime ' + v.date().isoformat() if isinstance(v, datetime.datetime) else v
print(json.dumps([[cell(v) for v in row] for row in book.worksheets[0].iter_rows(values_only=True)]))
`;

type Kind = 'dispute' | 'overage' | 'succeeding';

/** Whole days from a date to today on the clock (TAT_TIME_ZONE's default). */
const daysSince = (day: string) => (Date.parse(dayIn('Asia/Kolkata')) - Date.parse(day)) / 86_400_000;
const record = (i: number, kind: Kind, over: Partial<typeof ejRecords.$inferInsert> = {}) => ({
  kind,
  atmId: `APX${String(i).padStart(5, '0')}`,
  cardNo: `412345XXXXXX${String(1000 + i)}`,
  txtNo: String(500000 + i),
  transactionDate: `2025-03-${String((i % 28) + 1).padStart(2, '0')}`,
  transactionAmt: String(i * 100),
  disputeAmt: String(i * 50),
  overage: kind === 'overage' ? '100' : '0',
  mspRemarks: 'Under review',
  mspRefNo: `REF${i}`,
  shortDescEjError: 'CASH NOT DISPENSED',
  ejError: 'Cash retracted',
  complaintDate: '2025-04-01',
  shortDescription: 'cash not dispensed at ATM',
  mailReceivedFrom: i % 2 ? 'disputes@atlas-atm.example' : 'ops@harborbank.example',
  mailSubject: `ATM dispute APX${String(i).padStart(5, '0')}`,
  bankName: i % 3 ? 'Apex Bank' : 'Harbor Bank',
  fileName: kind === 'dispute' ? '' : `${kind}_APX_${i}.txt`,
  ...over,
});

describe.each(backends)('EJ error data API on %s', (backend) => {
  let t: TestApp;
  let authorization: string;
  beforeAll(async () => {
    t = await createTestApp(backend);
    authorization = `JWT ${(await login(t.app)).access}`;
    const rows = [
      ...Array.from({ length: 25 }, (_, i) => record(i + 1, 'dispute')),
      record(26, 'dispute', { mailSubject: '=HYPERLINK("http://evil.example","x")', atmId: 'SNB00777', bankName: 'Summit National Bank' }),
      ...Array.from({ length: 4 }, (_, i) => record(100 + i, 'overage')),
      ...Array.from({ length: 3 }, (_, i) => record(200 + i, 'succeeding')),
    ];
    await t.database.db.insert(ejRecords).values(rows);
    // Each dispute record joins its dispute, as the ingester's save does.
    await t.database.db.execute(sql`select dispute_records_link(null)`);
  });
  afterAll(() => t.close());

  const get = (url: string, headers: Record<string, string> = { authorization }) => t.app.inject({ method: 'GET', url, headers });
  const table = '/api/scrape/extract/email/data/pagination/';
  const atms = async (query: string) => (await get(`${table}?page_size=100&${query}`)).json().results.map((r: { atm_id: string }) => r.atm_id);

  it('answers the dispute table newest first, with the record fields and no other kind', async () => {
    const body = (await get(`${table}?page_size=10`)).json();
    expect(body).toMatchObject({ count: 26, total_pages: 3, previous: null, next: `${table}?page_size=10&page=2` });
    expect(body.results[0]).toEqual({
      id: expect.any(Number),
      atm_id: 'SNB00777',
      card_no: '412345XXXXXX1026',
      txt_no: '500026',
      transaction_date: '2025-03-27',
      transaction_amt: '2600.00',
      dispute_amt: '1300.00',
      overage: '0.00',
      msp_remarks: 'Under review',
      msp_ref_no: 'REF26',
      short_desc_ej_error: 'CASH NOT DISPENSED',
      ej_error: 'Cash retracted',
      complaint_date: '2025-04-01',
      short_description: 'cash not dispensed at ATM',
      mail_received_from: 'ops@harborbank.example',
      mail_subject: '=HYPERLINK("http://evil.example","x")',
      // Its dispute's clock under the RBI rule: T+5 calendar days from 27 March, Rs 100 a day after.
      dispute_id: expect.any(Number),
      status: 'open',
      outcome: null,
      due_date: '2025-04-01',
      age_days: daysSince('2025-03-27'),
      overdue_days: daysSince('2025-04-01'),
      penalty: `${daysSince('2025-04-01') * 100}.00`,
      currency: 'INR',
      due_today: false,
      owner_id: null,
      owner: null,
      follow_up_on: null,
      // No network named: the TAT rule's is its only clock, so the nearest deadline.
      next_deadline: '2025-04-01',
      next_clock: 'RBI harmonised TAT (failed ATM withdrawal)',
      // No journal has answered it yet.
      verdict: null,
      dispensed_amount: null,
    });
    const last = (await get(`${table}?page_size=10&page=3`)).json();
    expect(last.results.map((r: { atm_id: string }) => r.atm_id)).toEqual(['APX00006', 'APX00005', 'APX00004', 'APX00003', 'APX00002', 'APX00001']);
    expect((await get(`${table}?page_size=10&page=4`)).json()).toEqual({ detail: 'Invalid page.' });
  });

  it.each([
    ['start_date=2025-03-25&end_date=2025-03-26', ['APX00025', 'APX00024']],
    ['atm_id=APX00012', ['APX00012']],
    ['atm_id=apx0001', ['APX00019', 'APX00018', 'APX00017', 'APX00016', 'APX00015', 'APX00014', 'APX00013', 'APX00012', 'APX00011', 'APX00010']],
    ['card_no=XXXX1007', ['APX00007']],
    ['bank_name=summit', ['SNB00777']],
    ['mail_subject=hyperlink', ['SNB00777']],
    ['mail_received_from=HARBORBANK&bank_name=harbor&end_date=2025-03-13', ['APX00012', 'APX00006']],
    [
      'start_date=2025-03-01&end_date=2025-03-28&atm_id=APX&bank_name=apex&card_no=XXXX10&mail_subject=dispute&mail_received_from=atlas',
      ['APX00025', 'APX00023', 'APX00019', 'APX00017', 'APX00013', 'APX00011', 'APX00007', 'APX00005', 'APX00001'],
    ],
  ])('filters by %s', async (query, expected) => {
    expect(await atms(query)).toEqual(expected);
  });

  describe('ordering', () => {
    type Row = {
      id: number;
      atm_id: string;
      transaction_date: string | null;
      transaction_amt: string | null;
      dispute_amt: string | null;
      complaint_date: string | null;
      msp_ref_no: string;
    };
    const fields = ['id', 'transaction_date', 'transaction_amt', 'dispute_amt', 'atm_id', 'complaint_date', 'msp_ref_no'] as const;
    const value = (row: Row, field: (typeof fields)[number]) => {
      const v = row[field];
      return v === null ? null : field === 'id' || field.endsWith('_amt') ? Number(v) : v;
    };
    /** The order as the table promises it: an empty value the smallest, ties by id the same way. */
    const sorted = (rows: Row[], field: (typeof fields)[number], descending: boolean) =>
      [...rows].sort((a, b) => {
        const [x, y] = [value(a, field), value(b, field)];
        const byValue = x === y ? 0 : x === null ? -1 : y === null ? 1 : x < y ? -1 : 1;
        return (descending ? -1 : 1) * (byValue || a.id - b.id);
      });
    /** Every page of the ordering, 7 at a time, joined. */
    const pages = async (query: string) => {
      const rows: Row[] = [];
      for (let page = 1; ; page++) {
        const body = (await get(`${table}?page_size=7&page=${page}&${query}`)).json();
        rows.push(...body.results);
        if (!body.next) return rows;
      }
    };

    it.each(
      fields.flatMap(
        (field) =>
          [
            [field, false],
            [field, true],
          ] as const,
      ),
    )('orders by %s (descending: %s), ties by id, an empty value the smallest, across pages', async (field, descending) => {
      // Ties and empty values beside the 26 distinct ones; removed afterwards.
      const extra = await t.database.db
        .insert(ejRecords)
        .values([
          record(40, 'dispute', { atmId: 'APX00003', transactionDate: null, transactionAmt: null, disputeAmt: null, complaintDate: null, mspRefNo: '' }),
          record(41, 'dispute', {
            atmId: 'APX00003',
            transactionDate: '2025-03-05',
            transactionAmt: '500',
            disputeAmt: null,
            complaintDate: '2025-03-30',
            mspRefNo: 'REF3',
          }),
          record(42, 'dispute', {
            atmId: 'APX00020',
            transactionDate: null,
            transactionAmt: '500',
            disputeAmt: '250',
            bankName: 'Unity Bank',
            complaintDate: null,
            mspRefNo: 'REF3',
          }),
          record(43, 'dispute', {
            atmId: 'APX00001',
            bankName: 'Harbor Bank',
            mailReceivedFrom: 'ops@harborbank.example',
            complaintDate: '2025-04-02',
            mspRefNo: '',
          }),
          // In a range of transaction dates with no complaint date: the complaint order's walk is then left unbounded.
          record(44, 'dispute', { atmId: 'APX00044', transactionDate: '2025-03-11', complaintDate: null, mspRefNo: 'REF44' }),
        ])
        .returning({ id: ejRecords.id });
      try {
        const all: Row[] = (await get(`${table}?page_size=100`)).json().results;
        expect(all).toHaveLength(31);
        const ordering = `${descending ? '-' : ''}${field}`;
        const got = await pages(`ordering=${ordering}`);
        expect(got.map((r) => r.id)).toEqual(sorted(all, field, descending).map((r) => r.id));
        // With a filter (its values' btree) the order holds too.
        const filtered = await pages(`ordering=${ordering}&atm_id=APX0000`);
        expect(filtered.map((r) => r.id)).toEqual(
          sorted(
            all.filter((r) => r.atm_id.startsWith('APX0000')),
            field,
            descending,
          ).map((r) => r.id),
        );
        // A sender or bank filter (ATM order: each value's records in ATM order, merged).
        // The table does not show the bank: read it from the records.
        const banks = new Map((await t.database.db.select({ id: ejRecords.id, bank: ejRecords.bankName }).from(ejRecords)).map((r) => [r.id, r.bank ?? '']));
        type Full = Row & { mail_received_from: string; status: string | null; dispute_id: number | null };
        for (const [query, keep] of [
          ['mail_received_from=example', (r: Full) => r.mail_received_from.includes('example')],
          ['mail_received_from=harbor', (r: Full) => r.mail_received_from.includes('harbor')],
          ['bank_name=bank', (r: Full) => banks.get(r.id)!.toLowerCase().includes('bank')],
          ['bank_name=harbor', (r: Full) => banks.get(r.id)!.toLowerCase().includes('harbor')],
          // Ranges of transaction dates (the complaint order's walk bounded by the range's complaints),
          // one holding a record with no complaint date, and with another filter.
          [
            'start_date=2025-03-05&end_date=2025-03-09',
            (r: Full) => r.transaction_date !== null && r.transaction_date >= '2025-03-05' && r.transaction_date <= '2025-03-09',
          ],
          [
            'start_date=2025-03-08&end_date=2025-03-14',
            (r: Full) => r.transaction_date !== null && r.transaction_date >= '2025-03-08' && r.transaction_date <= '2025-03-14',
          ],
          [
            'start_date=2025-03-02&end_date=2025-03-20&bank_name=harbor',
            (r: Full) =>
              r.transaction_date !== null &&
              r.transaction_date >= '2025-03-02' &&
              r.transaction_date <= '2025-03-20' &&
              banks.get(r.id)!.toLowerCase().includes('harbor'),
          ],
          [
            // The clock's open disputes (records the ingester has linked to one).
            'start_date=2025-03-02&end_date=2025-03-20&tat=open',
            (r: Full) =>
              r.dispute_id !== null &&
              r.status === 'open' &&
              r.transaction_date !== null &&
              r.transaction_date >= '2025-03-02' &&
              r.transaction_date <= '2025-03-20',
          ],
        ] as const) {
          const got = await pages(`ordering=${ordering}&${query}`);
          expect(
            got.map((r) => r.id),
            query,
          ).toEqual(sorted((all as Full[]).filter(keep), field, descending).map((r) => r.id));
        }
      } finally {
        await t.database.db.delete(ejRecords).where(
          inArray(
            ejRecords.id,
            extra.map((r) => r.id),
          ),
        );
      }
    });

    it('is newest extracted first by default, and refuses any other ordering, naming it and the choices', async () => {
      expect((await get(`${table}?page_size=100`)).json().results).toEqual((await get(`${table}?page_size=100&ordering=-id`)).json().results);
      for (const asked of ['mail_subject', '-card_no', 'transaction_amt,id', '--id', 'id desc']) {
        const refused = await get(`${table}?ordering=${encodeURIComponent(asked)}`);
        expect(refused.statusCode).toBe(400);
        expect(refused.json().detail).toBe(
          `query 'ordering': cannot order by '${asked}'; one of id, -id, transaction_date, -transaction_date, transaction_amt, -transaction_amt, dispute_amt, -dispute_amt, atm_id, -atm_id, complaint_date, -complaint_date, msp_ref_no, -msp_ref_no, due_date, -due_date, next_deadline, -next_deadline, penalty, -penalty, days_late, -days_late.`,
        );
      }
    });
  });

  it.each([
    ['page=abc', /'page': must be a whole number/],
    ['page_size=0', /'page_size'/],
    ['page_size=1000', /'page_size'/],
    ['start_date=2025-13-01', /'start_date': must be a date/],
    ['end_date=31/03/2025', /'end_date': must be a date/],
    ['atm=APX', /unknown field 'atm'/],
  ])('refuses %s with 400', async (query, detail) => {
    const response = await get(`${table}?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toMatch(detail);
  });

  it.each([
    ['overage', 4, 'overage_APX_103.txt'],
    ['succeeding', 3, 'succeeding_APX_202.txt'],
  ] as const)('lists every %s record with its file name', async (kind, n, newest) => {
    const response = await get(`/api/scrape/extract/${kind}/data/`);
    expect(response.statusCode).toBe(200);
    const rows = response.json();
    expect(rows).toHaveLength(n);
    expect(rows[0].file_name).toBe(newest);
    expect(Object.keys(rows[0])).toContain('overage');
    expect((await get(`/api/scrape/extract/${kind}/data/?page=1`)).statusCode).toBe(400);
  });

  describe('export', () => {
    const exportUrl = '/api/scrape/extract/export/';

    it('streams the whole filtered set as CSV, formulas neutralised', async () => {
      const response = await get(`${exportUrl}?format=csv&mail_received_from=harbor`);
      expect(response.statusCode).toBe(200);
      // The file's name says what it holds.
      expect(response.headers['content-disposition']).toBe('attachment; filename="ej_error_mail_received_from-harbor.csv"');
      const lines = response.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
      // Every field quoted, so no reader takes a field's text for anything but a value.
      // The dispute's clock right after ATM ID, as on the screen.
      expect(lines[0]).toBe(
        '"ATM ID","Status","Due Date","Days Late","Age (days)","Penalty","Currency","Owner","Follow Up","Card No.","TXT No.","Transaction Date","Transaction Amt.","Dispute Amt.","Overage","MSP Remarks","MSP RefNo.","Short Desc. EJ_Error","Complaint Date","Short Description","Mail Received From","Mail Subject"',
      );
      const expected = (await get(`${table}?page_size=100&mail_received_from=harbor`)).json().results;
      expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(expected.map((r: { atm_id: string }) => `"${r.atm_id}"`));
      expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
      const late = daysSince('2025-03-30');
      expect(lines[2]).toBe(
        `"APX00024","Open","2025-03-30","${late}","${daysSince('2025-03-25')}","${late * 100}","INR","N/A","N/A","412345XXXXXX1024","500024","2025-03-25","2400","1200","0","Under review","REF24","CASH NOT DISPENSED - Cash retracted","2025-04-01","cash not dispensed at ATM","ops@harborbank.example","ATM dispute APX00024"`,
      );
    });

    it('streams XLSX with the AttendanceData sheet, and the lists of the other kinds', async () => {
      const response = await get(`${exportUrl}?format=xlsx&atm_id=SNB00777`);
      expect(response.headers['content-disposition']).toBe('attachment; filename="ej_error_atm_id-SNB00777.xlsx"');
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
      const sheet = book.getWorksheet('AttendanceData')!;
      expect(sheet.rowCount).toBe(2);
      expect(sheet.getRow(2).getCell(1).value).toBe('SNB00777');
      expect(sheet.getRow(2).getCell(2).value).toBe('Open');
      expect(sheet.getRow(2).getCell(13).value).toBe(2600);
      expect(sheet.getRow(2).getCell(22).value).toBe(`'=HYPERLINK("http://evil.example","x")`);
      // Dates are date cells (shown DD/MM/YY), amounts numbers.
      const dateCell = sheet.getRow(2).getCell(12);
      expect(dateCell.value).toBeInstanceOf(Date);
      expect(dateCell.numFmt).toBe('dd/mm/yy');

      // ...and so another tool reads them: openpyxl, as Python scripts and LibreOffice users would.
      const expected = (await get(`${table}?atm_id=SNB00777`)).json().results[0];
      const read = spawnSync('/usr/bin/python3', ['-c', openpyxlDump], { input: response.rawPayload });
      expect(read.stderr.toString()).toBe('');
      const [header, row] = JSON.parse(read.stdout.toString()) as unknown[][];
      expect(header![11]).toBe('Transaction Date');
      expect(row![0]).toBe('SNB00777');
      expect(row![2]).toBe(`datetime ${expected.due_date}`);
      expect(row![3]).toBe(expected.overdue_days);
      expect(row![5]).toBe(Number(expected.penalty));
      expect(row![11]).toBe(`datetime ${expected.transaction_date}`);
      expect(row![12]).toBe(Number(expected.transaction_amt));
      expect(row![18]).toBe(expected.complaint_date ? `datetime ${expected.complaint_date}` : 'N/A');

      const overage = await get(`${exportUrl}?format=csv&kind=overage`);
      const lines = overage.body.trim().split('\r\n');
      expect(lines[0]!.endsWith(',"Name of File"')).toBe(true);
      expect(lines).toHaveLength(5);
      const succeeding = await get(`${exportUrl}?format=csv&kind=succeeding`);
      expect(succeeding.body.split('\r\n')[0]!.endsWith(',"Name Of File"')).toBe(true);
    });

    it('refuses a bad format, kind or filter, and anyone without a token', async () => {
      expect((await get(`${exportUrl}?format=pdf`)).statusCode).toBe(400);
      expect((await get(`${exportUrl}?format=csv&kind=everything`)).statusCode).toBe(400);
      expect((await get(`${exportUrl}?format=csv&start_date=soon`)).json().detail).toMatch(/start_date/);
      expect((await get(`${exportUrl}?format=csv`, {})).statusCode).toBe(401);
    });
  });
});
