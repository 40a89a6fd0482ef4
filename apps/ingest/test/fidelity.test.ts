// Ingestion fidelity with mail that other tools made (fixtures/make_mail.py: Python's email package,
// ReportLab PDF tables with positioned text, qpdf's AES-256, openpyxl workbooks, legacy charsets),
// through a real Dovecot and checked through the API down to the /email table's cells and filters.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadIngestRules } from '@ejdesk/db';
import { backends, createTestApp, login, type TestApp } from '@ejdesk/api/test-helpers';
import { createLogger, ingestFromImap, type RunOptions } from '../src/index.ts';
import type { Summary } from '../src/summary.ts';
import { banks, prepareRules } from './support/corpus.ts';
import { mailFromPython, pythonRow } from './support/python-mail.ts';
import { startDovecot, type Dovecot } from '@ejdesk/mailbox/testing';

const euro = 'Short by € 50 – “recheck” café';
const latin = 'Reçu: café crème, señor';
const commaRemark = 'Cash not dispensed, customer called, branch informed, EJ checked, reversal pending, follow up';
/** Disputes per source: 3 PDFs, 4 text files, a tab file, a workbook, a body table. */
const disputeCounts = { PDA: 5, PDB: 120, PDC: 4, CPA: 3, CPB: 3, LTA: 3, BOM: 3, TAB: 4, XLS: 6, DTE: 2 };
const totalDisputes = Object.values(disputeCounts).reduce((a, b) => a + b, 0);

/** The mail, made once by Python (Debian's python3-reportlab, python3-openpyxl and qpdf). */
const { mail } = mailFromPython('make_mail.py', [banks.apex.password], 'python3-reportlab python3-openpyxl qpdf');
const expected = pythonRow;

describe.each(backends)('mail made by other tools, into %s', (backend) => {
  let dovecot: Dovecot;
  let t: TestApp;
  let summary: Summary;
  let authorization: string;
  const get = async (url: string) => {
    const response = await t.app.inject({ method: 'GET', url, headers: { authorization } });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return response.json();
  };
  const disputes = (query: string) => get(`/api/scrape/extract/email/data/pagination/?page_size=100&${query}`);

  beforeAll(async () => {
    dovecot = await startDovecot();
    await dovecot.append(mail);
    t = await createTestApp(backend);
    await prepareRules(t.database.db, t.secrets.bankPassKey);
    authorization = `JWT ${(await login(t.app)).access}`;
    const options: RunOptions = {
      db: t.database.db,
      loadRules: () => loadIngestRules(t.database.db, t.secrets.bankPassKey),
      log: createLogger('error'),
      lanes: 1,
    };
    summary = await ingestFromImap(
      { host: dovecot.host, port: dovecot.port, user: dovecot.user, auth: { method: 'password', password: dovecot.password }, tls: false, mailbox: 'INBOX' },
      options,
    );
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await dovecot?.stop();
  });

  test('every dispute row of every format reaches the /email table, and nothing else does', async () => {
    expect(summary.hardFailures).toEqual([]);
    expect(summary.failures).toEqual([]);
    expect((await disputes('')).count).toBe(totalDisputes);
    for (const [prefix, count] of Object.entries(disputeCounts)) {
      expect((await disputes(`atm_id=${prefix}`)).count, prefix).toBe(count);
    }
    expect(summary.rows).toMatchObject({ dispute: totalDisputes, pdf: 129, text: 16, excel: 6 });
  });

  test.each([
    ['a one-page ReportLab PDF', 'PDA', 3],
    ['the last page of a 120-row PDF', 'PDB', 120],
    ['an AES-256 PDF opened with the bank password', 'PDC', 2],
    ['an openpyxl workbook with date cells', 'XLS', 5],
  ])('a dispute from %s is found by its ATM ID, cell for cell', async (_name, prefix, n) => {
    const want = expected(prefix, n);
    const found = await disputes(`atm_id=${want.atm_id}`);
    expect(found.count).toBe(1);
    expect(found.results[0]).toMatchObject(prefix === 'XLS' ? { ...want, msp_remarks: 'Cash not dispensed' } : want);
    // And by its card number and bank, like any other.
    expect((await disputes(`card_no=${want.card_no}&atm_id=${prefix}`)).count).toBe(1);
    expect((await disputes(`bank_name=Apex&atm_id=${want.atm_id}`)).count).toBe(1);
  });

  test.each([
    ['declared Windows-1252', 'CPA', euro],
    ['undeclared Windows-1252', 'CPB', euro],
    ['declared Latin-1', 'LTA', latin],
    ['UTF-8 with a BOM', 'BOM', euro],
    ['a tab file whose cells hold commas', 'TAB', commaRemark],
  ])('text in %s reads as the sender wrote it', async (_name, prefix, remark) => {
    const found = await disputes(`atm_id=${prefix}`);
    expect(found.count).toBe(disputeCounts[prefix as keyof typeof disputeCounts]);
    for (const record of found.results) {
      expect(record.msp_remarks).toBe(remark);

      expect(JSON.stringify(record)).not.toMatch(/[\u0080-\u009f\uFFFD]/);
    }
    expect(found.results.map((r: { atm_id: string }) => r.atm_id).sort()).toEqual(
      Array.from({ length: found.count }, (_, i) => expected(prefix, i + 1).atm_id),
    );
  });

  test('an unrelated spreadsheet is kept as a file but not read as disputes, and the summary says why', async () => {
    expect((await disputes('atm_id=VND')).count).toBe(0);
    const files = await get('/api/scrape/excel/email/data/');
    const sheet = files.find((f: { name: string }) => f.name === 'replenishment.xlsx');
    expect((await get(`/api/scrape/excel/email/data/${sheet.id}/`)).excel_data).toEqual([]);
    expect(summary.skipped.map((s) => s.note)).toContainEqual(
      expect.stringMatching(/^replenishment\.xlsx: not read as disputes: its header names .*no Txn No, RRN or Card No/),
    );
    const notFound = await get('/api/scrape/ejs/not/found/email/?page_size=100');
    expect(notFound.results.map((r: { subject_name: string }) => r.subject_name)).toEqual(['Cash replenishment schedule']);
  });

  test('a message whose Date header does not parse counts in the month it was delivered', async () => {
    const now = new Date();
    const month = `${now.getUTCFullYear()}-${now.toLocaleString('en', { month: 'short', timeZone: 'UTC' })}`;
    const october = await get('/api/scrape/email/dashboard/count/?date=2026-Oct');
    expect(october.total_emails).toBe(mail.length - 1);
    const current = await get(`/api/scrape/email/dashboard/count/?date=${month}`);
    expect(current.total_emails).toBe(month === '2026-Oct' ? mail.length : 1);
    const list = await get('/api/scrape/ejs/total/email/?page_size=100&subject=broken%20date');
    const details = await get(`/api/scrape/email/body/html/text/data/${list.results[0].id}/`);
    expect(Math.abs(new Date(details.date_time_of_email).getTime() - now.getTime())).toBeLessThan(3600_000);
  });
});
