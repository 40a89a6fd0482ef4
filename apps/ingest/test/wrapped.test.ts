// Mail as Exchange and other clients wrap it, made by other tools (fixtures/make_wrapped.py:
// openssl cms for S/MIME, Python's email package for a forwarded message, KDE's KTNEF for a
// winmail.dat, ReportLab for a PDF with a running header and footer), through a real Dovecot, checked through the API down to the
// EJ table's cells: what is inside a wrapper is read like the message's own; encrypted mail is a
// failure that says why; a page's header and footer are not rows; a long subject is kept whole.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadIngestRules } from '@ejdesk/db';
import { backends, createTestApp, login, type TestApp } from '@ejdesk/api/test-helpers';
import { startDovecot, type Dovecot } from '@ejdesk/mailbox/testing';
import { createLogger, ingestFromImap } from '../src/index.ts';
import type { Summary } from '../src/summary.ts';
import { prepareRules } from './support/corpus.ts';
import { mailFromPython, pythonRow } from './support/python-mail.ts';
import { ktnefWinmail, thirdPartyTnef } from './support/third-party.ts';

/** The mail, made once by Python (Debian's python3-reportlab and openssl) around KTNEF's winmail.dat. */
const { mail, dir } = mailFromPython('make_wrapped.py', [thirdPartyTnef('attachments.dat'), ktnefWinmail('KTN', 4)], 'python3-reportlab openssl');
const longSubject = readFileSync(join(dir, 'long-subject.txt'), 'utf8');
const expected = pythonRow;
const counts = { SMA: 3, SMB: 4, SMH: 2, FWD: 3, KTN: 4, PFT: 60, LNG: 2 };

describe.each(backends)('wrapped mail into %s', (backend) => {
  let dovecot: Dovecot;
  let t: TestApp;
  let summary: Summary;
  let authorization: string;
  const get = async (url: string) => {
    const response = await t.app.inject({ method: 'GET', url, headers: { authorization } });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return response;
  };
  const disputes = async (query: string) => (await get(`/api/scrape/extract/email/data/pagination/?page_size=100&${query}`)).json();

  beforeAll(async () => {
    dovecot = await startDovecot();
    await dovecot.append(mail);
    t = await createTestApp(backend);
    await prepareRules(t.database.db, t.secrets.bankPassKey);
    authorization = `JWT ${(await login(t.app)).access}`;
    summary = await ingestFromImap(
      { host: dovecot.host, port: dovecot.port, user: dovecot.user, auth: { method: 'password', password: dovecot.password }, tls: false, mailbox: 'INBOX' },
      { db: t.database.db, loadRules: () => loadIngestRules(t.database.db, t.secrets.bankPassKey), log: createLogger('error'), lanes: 1 },
    );
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await dovecot?.stop();
  });

  test('what S/MIME, a forwarded message, a winmail.dat and a footed PDF hold reaches the EJ table, and nothing more', async () => {
    expect(summary.hardFailures).toEqual([]);
    for (const [prefix, count] of Object.entries(counts)) expect((await disputes(`atm_id=${prefix}`)).count, prefix).toBe(count);
    expect((await disputes('')).count).toBe(Object.values(counts).reduce((a, b) => a + b, 0));
  });

  test.each([
    ['a detached signed message’s attachment', 'SMA', 3],
    ['an opaque signed message’s attachment', 'SMB', 4],
    ['an opaque signed message’s body table', 'SMH', 2],
    ['a forwarded message’s own attachment', 'FWD', 2],
    ['the body of a winmail.dat KDE’s KTNEF wrote', 'KTN', 3],
    ['the last page of a PDF with a running header and footer', 'PFT', 60],
  ])('a row from %s is read cell for cell', async (_name, prefix, n) => {
    const want = expected(prefix, n);
    const found = await disputes(`atm_id=${want.atm_id}`);
    expect(found.count).toBe(1);
    expect(found.results[0]).toMatchObject(want);
  });

  test('encrypted S/MIME mail is a failure that says why, and no signature is kept as a file', async () => {
    expect(summary.failures).toEqual([
      expect.objectContaining({
        reason: 'smime.p7m: the message is S/MIME encrypted: it can be read only with the recipient’s private key, which EJ Desk does not hold',
      }),
    ]);
    const files = (await get('/api/scrape/other/email/data/')).json() as { name: string }[];
    expect(files.map((f) => f.name).filter((n) => /p7[sm]$/.test(n))).toEqual([]);
  });

  test('the files inside a winmail.dat are kept like any attachment (its image passed over, as any image)', async () => {
    // The only file of no data format in this mail: what Debian's tnef also finds in it, the image aside.
    const files = (await get('/api/scrape/other/email/data/')).json() as { name: string }[];
    expect(files.map((f) => f.name)).toEqual(['bookmark.htm']);
  });

  test('a 2,000-character subject reaches the rows, the email list and the export whole', async () => {
    expect(longSubject).toHaveLength(2000);
    const rows = await disputes('atm_id=LNG');
    expect(rows.results.map((r: { mail_subject: string }) => r.mail_subject)).toEqual([longSubject, longSubject]);
    const list = (await get(`/api/scrape/ejs/total/email/?page_size=100&subject=${encodeURIComponent('customer statements follow')}`)).json();
    expect(list.results.map((r: { subject_name: string }) => r.subject_name)).toEqual([longSubject]);
    const csv = (await get('/api/scrape/extract/export/?atm_id=LNG&format=csv&kind=dispute')).body;
    expect(csv.split(longSubject).length - 1).toBe(2);
  });
});
