// An email's page over HTTP on both backends: the attachments of its stored message (a message
// written by Python's email package, not by this code), each a download that can never run as a
// page, and the files, records and disputes it produced; bad ids are a 400, unknown ones a 404.
import { spawnSync } from 'node:child_process';
import { ejRecords, queryRows, storeMessage } from '@ejdesk/db';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, createTestApp, login, type TestApp } from './helpers.ts';

/** A complaint mail with a workbook, an HTML page that would run script, and a name in Hindi. */
const python = String.raw`
import sys
from email.message import EmailMessage
m = EmailMessage()
m['From'] = 'ops@harborbank.example'
m['To'] = 'desk@ejdesk.example'
m['Subject'] = 'ATM complaints with attachments'
m['Message-ID'] = '<produce-1@harborbank.example>'
m.set_content('Please see the attached complaints.')
m.add_attachment(b'PK\x03\x04' + bytes(range(256)) * 40, maintype='application', subtype='vnd.openxmlformats-officedocument.spreadsheetml.sheet', filename='complaints Nov.xlsx')
m.add_attachment('<script>alert(document.cookie)</script>', subtype='html', filename='../../evil<page>.html')
m.add_attachment(b'EJ text', maintype='text', subtype='plain', filename='शिकायत.txt')
sys.stdout.buffer.write(bytes(m))
`;

describe.each(backends)('an email’s attachments and what it produced, on %s', (backend) => {
  let t: TestApp;
  let authorization: string;
  let emailId: number;
  let disputeId: number;
  beforeAll(async () => {
    t = await createTestApp(backend);
    authorization = `JWT ${(await login(t.app)).access}`;
    const made = spawnSync('/usr/bin/python3', ['-c', python]);
    expect(made.stderr.toString()).toBe('');
    const raw = made.stdout;
    await t.database.db.transaction(async (tx) => {
      await storeMessage(tx as never, {
        messageId: '<produce-1@harborbank.example>',
        emailFrom: 'ops@harborbank.example',
        emailTo: 'desk@ejdesk.example',
        subject: 'ATM complaints with attachments',
        normalizedSubject: 'atm complaints with attachments',
        receivedAt: new Date(),
        raw,
        size: raw.length,
        origin: 'file:/test#produce-1.eml',
      });
    });
    emailId = Number((await queryRows<{ id: string }>(t.database.db, sql`select id from emails where message_id = '<produce-1@harborbank.example>'`))[0]!.id);
    const [file] = await queryRows<{ id: string }>(
      t.database.db,
      sql`insert into data_files (kind, name, email_id) values ('excel', 'complaints Nov.xlsx', ${emailId}) returning id`,
    );
    await t.database.db.execute(
      sql`insert into data_file_rows (data_file_id, position, atm_id, txt_no) values (${file!.id}, 1, 'HRB0001', '501'), (${file!.id}, 2, 'HRB0002', '502')`,
    );
    await t.database.db.insert(ejRecords).values([
      { kind: 'dispute', atmId: 'HRB0001', txtNo: '501', cardNo: '4111XXXXXXXX1111', transactionDate: '2026-11-20', emailId },
      { kind: 'dispute', atmId: 'HRB0002', txtNo: '502', cardNo: '4111XXXXXXXX2222', transactionDate: '2026-11-21', emailId },
      { kind: 'overage', atmId: 'HRB0003', txtNo: '503', emailId },
    ]);
    await t.database.db.execute(sql`select dispute_records_link(null)`);
    disputeId = Number((await queryRows<{ id: string }>(t.database.db, sql`select id from disputes where atm_id = 'HRB0001'`))[0]!.id);
  });
  afterAll(() => t.close());

  const get = (url: string, auth = authorization) => t.app.inject({ method: 'GET', url, headers: auth ? { authorization: auth } : {} });

  it('lists the attachments as sent, the files with their rows, the records by kind and their disputes', async () => {
    const answer = await get(`/api/emails/${emailId}/produce/`);
    expect(answer.statusCode).toBe(200);
    const body = answer.json();
    expect(body.attachments).toEqual([
      { index: 0, file_name: 'complaints Nov.xlsx', content_type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', size: 4 + 256 * 40 },
      { index: 1, file_name: '../../evil<page>.html', content_type: 'text/html', size: expect.any(Number) },
      { index: 2, file_name: 'शिकायत.txt', content_type: 'text/plain', size: 7 },
    ]);
    expect(body.attachments_problem).toBeNull();
    expect(body.files).toEqual([{ id: expect.any(Number), kind: 'excel', name: 'complaints Nov.xlsx', rows: 2 }]);
    expect(body.records).toEqual({ dispute: 2, overage: 1, succeeding: 0 });
    expect(body.disputes_total).toBe(2);
    expect(body.disputes.map((d: { atm_id: string }) => d.atm_id)).toEqual(['HRB0001', 'HRB0002']);
    expect(body.disputes[0]).toMatchObject({ id: disputeId, txt_no: '501', status: 'open' });
  });

  it('gives each attachment back byte for byte, as a download that cannot run', async () => {
    const workbook = await get(`/api/emails/${emailId}/attachments/0`);
    expect(workbook.statusCode).toBe(200);
    expect(workbook.rawPayload.subarray(0, 4).toString('latin1')).toBe('PK\x03\x04');
    expect(workbook.rawPayload.length).toBe(4 + 256 * 40);
    expect(workbook.headers['content-disposition']).toBe(`attachment; filename="complaints_Nov.xlsx"; filename*=UTF-8''complaints_Nov.xlsx`);

    const page = await get(`/api/emails/${emailId}/attachments/1`);
    expect(page.headers['content-type']).toBe('application/octet-stream');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    // No path, no markup in the name.
    expect(page.headers['content-disposition']).toBe(`attachment; filename="_.._evil_page_.html"; filename*=UTF-8''_.._evil_page_.html`);
    expect(page.body).toBe('<script>alert(document.cookie)</script>\n');

    const hindi = await get(`/api/emails/${emailId}/attachments/2`);
    expect(hindi.body).toBe('EJ text');
    expect(hindi.headers['content-disposition']).toBe(`attachment; filename="______.txt"; filename*=UTF-8''${encodeURIComponent('शिकायत.txt')}`);
  });

  it('links a file’s rows to the disputes they name, and the file to its email', async () => {
    const fileId = (await get(`/api/emails/${emailId}/produce/`)).json().files[0].id;
    const file = (await get(`/api/scrape/excel/email/data/${fileId}/`)).json();
    expect(file).toMatchObject({ email_id: emailId, email_subject: 'ATM complaints with attachments' });
    const other = Number((await queryRows<{ id: string }>(t.database.db, sql`select id from disputes where atm_id = 'HRB0002'`))[0]!.id);
    expect(file.excel_data.map((r: { dispute_id: number | null }) => r.dispute_id)).toEqual([disputeId, other]);
  });

  it('answers bad ids with a 400, unknown ones with a 404, and nobody without a token', async () => {
    for (const bad of ['abc', '0', '-1', '1.5']) {
      expect((await get(`/api/emails/${bad}/produce/`)).statusCode, bad).toBe(400);
      expect((await get(`/api/emails/${emailId}/attachments/${bad === '0' ? '-1' : bad}`)).statusCode, bad).toBe(400);
    }
    expect((await get('/api/emails/999999/produce/')).json()).toEqual({ detail: 'Not found.' });
    expect((await get(`/api/emails/${emailId}/attachments/3`)).json()).toEqual({ detail: 'This email has no attachment 3.' });
    expect((await get('/api/emails/999999/attachments/0')).statusCode).toBe(404);
    expect((await get(`/api/emails/${emailId}/produce/`, '')).statusCode).toBe(401);
    expect((await get(`/api/emails/${emailId}/attachments/0`, '')).statusCode).toBe(401);
  });
});
