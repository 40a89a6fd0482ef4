// The ingester against a real Dovecot IMAP server and a real database (PGlite and PostgreSQL),
// checked through the API the screens use: dashboard counts, category lists, the EJ table and
// each file kind's rows.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadIngestRules, requeueStoredMessages, type EmailCategory } from '@ejdesk/db';
import { backends, createTestApp, login, type TestApp } from '@ejdesk/api/test-helpers';
import { createLogger, ingestFromImap, processStored, watchImap, type ImapSettings, type RunOptions } from '../src/index.ts';
import { prepareRules, testCorpus, compose, htmlTable, disputeLines, banks, type CorpusMessage } from './support/corpus.ts';
import { startDovecot, type Dovecot } from '@ejdesk/mailbox/testing';
import { ingestSnapshot } from './support/snapshot.ts';

const fileKinds = [
  { kind: 'text', list: '/api/scrape/text/email/data/pagination/?page_size=100', detail: '/api/scrape/text/email/data/', key: 'text_data' },
  { kind: 'missing', list: '/api/scrape/text/missing/data/pagination/?page_size=100', detail: '/api/scrape/text/missing/data/', key: 'text_data' },
  { kind: 'missing_txn', list: '/api/scrape/text/missing/txn/data/pagination/?page_size=100', detail: '/api/scrape/text/missing/txn/data/', key: 'text_data' },
  {
    kind: 'between_successful',
    list: '/api/scrape/text/successful/between/data/pagination/?page_size=100',
    detail: '/api/scrape/text/successful/between/data/',
    key: 'text_data',
  },
  { kind: 'excel', list: '/api/scrape/excel/email/data/', detail: '/api/scrape/excel/email/data/', key: 'excel_data' },
  { kind: 'pdf', list: '/api/scrape/pdf/email/data/', detail: '/api/scrape/pdf/email/data/', key: 'pdf_data' },
  { kind: 'other', list: '/api/scrape/other/email/data/', detail: '/api/scrape/other/email/data/', key: 'other_format_data' },
] as const;

const categoryLists: Record<EmailCategory | 'read' | 'unread' | 'total', string> = {
  ej_not_found: 'not/found/email',
  ignored: 'ignore/email/data',
  same_subject: 'same/subject/email',
  same_subject_processing: 'same/subject/email/processing',
  processed: '',
  read: 'read/email',
  unread: 'un/read/email',
  total: 'total/email',
};

function expectedTotals(corpus: CorpusMessage[]) {
  const categories: Record<string, number> = {};
  const rows: Record<string, number> = {};
  for (const m of corpus) {
    if (!m.expect) continue;
    categories[m.expect.category] = (categories[m.expect.category] ?? 0) + 1;
    for (const [k, n] of Object.entries(m.expect.rows)) rows[k] = (rows[k] ?? 0) + n;
  }
  return { categories, rows, stored: corpus.filter((m) => m.expect).length };
}

describe.each(backends)('ingesting a real IMAP mailbox into %s', (backend) => {
  let dovecot: Dovecot;
  let t: TestApp;
  let corpus: CorpusMessage[];
  let settings: ImapSettings;
  let options: RunOptions;
  let authorization: string;
  const get = async (url: string) => {
    const response = await t.app.inject({ method: 'GET', url, headers: { authorization } });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return response.json();
  };

  beforeAll(async () => {
    dovecot = await startDovecot();
    // The 50 MB attachment is checked once, on the real server; it only slows the embedded one.
    corpus = await testCorpus({ bigAttachment: backend === 'postgres' });
    await dovecot.append(corpus.map((m) => m.raw));
    t = await createTestApp(backend);
    await prepareRules(t.database.db, t.secrets.bankPassKey);
    authorization = `JWT ${(await login(t.app)).access}`;
    settings = {
      host: dovecot.host,
      port: dovecot.port,
      user: dovecot.user,
      auth: { method: 'password', password: dovecot.password },
      tls: false,
      mailbox: 'INBOX',
    };
    options = {
      db: t.database.db,
      loadRules: () => loadIngestRules(t.database.db, t.secrets.bankPassKey),
      log: createLogger('error'),
      lanes: backend === 'postgres' ? 3 : 1,
    };
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await dovecot?.stop();
  });

  test('a sync stores each message once, classifies it and reports what it did', async () => {
    const summary = await ingestFromImap(settings, options);
    const expected = expectedTotals(corpus);
    expect(summary.hardFailures).toEqual([]);
    expect(summary.seen).toBe(corpus.length);
    expect(summary.stored).toBe(expected.stored);
    expect(summary.alreadyStored).toBe(corpus.length - expected.stored);
    expect(Object.fromEntries(Object.entries(summary.categories).filter(([, n]) => n > 0))).toEqual(expected.categories);
    expect(summary.rows).toEqual(expected.rows);
    // Each hostile message is recorded with its own reason.
    for (const m of corpus.filter((c) => c.expect?.failure)) {
      expect(
        summary.failures.map((f) => f.reason),
        m.name,
      ).toContainEqual(expect.stringMatching(m.expect!.failure!));
    }
  }, 120_000);

  test('the dashboard counts the month the mail was received in', async () => {
    const expected = expectedTotals(corpus);
    const counts = await get('/api/scrape/email/dashboard/count/?date=2026-Oct');
    expect(counts).toEqual({
      total_emails: expected.stored,
      read: expected.stored,
      unread: 0,
      email_ignores: expected.categories.ignored,
      ej_not_found: expected.categories.ej_not_found,
      email_same_subject_processing: expected.categories.same_subject_processing,
      email_same_subject_count: expected.categories.same_subject,
    });
  });

  test('each category list holds its messages', async () => {
    for (const [category, path] of Object.entries(categoryLists)) {
      if (!path) continue;
      const expected = corpus.filter((m) => m.expect && (category === 'total' || category === 'read' || m.expect.category === category));
      const list = await get(`/api/scrape/ejs/${path}/?page_size=100`);
      expect(list.count, category).toBe(category === 'unread' ? 0 : expected.length);
    }
    const ignored = await get('/api/scrape/ejs/ignore/email/data/?page_size=100');
    expect(ignored.results.map((r: { subject_name: string }) => r.subject_name).sort()).toEqual([
      'Big savings',
      'Out of Office: back Monday',
      'Statement ready',
    ]);
  });

  test('the EJ table holds the body-table disputes, with their bank; overage and succeeding files land in theirs', async () => {
    const expected = expectedTotals(corpus);
    const disputes = await get('/api/scrape/extract/email/data/pagination/?page_size=100');
    expect(disputes.count).toBe(expected.rows.dispute);
    const first = disputes.results.find((r: { atm_id: string }) => r.atm_id === 'APX00001');
    expect(first).toMatchObject({ card_no: '4111XXXXXXXX1001', txt_no: '700001', transaction_amt: '600.00', mail_subject: 'ATM dispute APX00001' });
    expect(first.mail_received_from).toBe(`disputes@${banks.apex.domain}`);
    // Hostile cells are stored cleaned: no NUL, impossible dates and amounts left empty.
    const hostile = disputes.results.find((r: { atm_id: string }) => r.atm_id === 'HRB99999');
    expect(hostile).toMatchObject({ card_no: '=HYPERLINK("http://x")', transaction_amt: null });
    const bankFiltered = await get(`/api/scrape/extract/email/data/pagination/?page_size=100&bank_name=${encodeURIComponent(banks.harbor.name)}`);
    expect(bankFiltered.results.every((r: { atm_id: string }) => r.atm_id.startsWith('HRB'))).toBe(true);
    const overage = await get('/api/scrape/extract/overage/data/');
    expect(overage.map((r: { file_name: string }) => r.file_name)).toEqual(['overage.zip/overage_HRB.csv', 'overage.zip/overage_HRB.csv']);
    const succeeding = await get('/api/scrape/extract/succeeding/data/');
    expect(succeeding).toHaveLength(expected.rows.succeeding!);
  });

  test("each file kind lists its files, and a file's rows carry the labelled columns", async () => {
    const expected = expectedTotals(corpus);
    for (const { kind, list, detail, key } of fileKinds) {
      const body = await get(list);
      const files = (Array.isArray(body) ? body : body.results) as { id: number; name: string }[];
      let rows = 0;
      for (const file of files) rows += ((await get(`${detail}${file.id}/`))[key] as unknown[]).length;
      expect(rows, kind).toBe(expected.rows[kind] ?? 0);
    }
    const [excelFile] = await get('/api/scrape/excel/email/data/');
    const excel = await get(`/api/scrape/excel/email/data/${excelFile.id}/`);
    expect(excel.name).toBe('disputes.xlsx');
    expect(excel.excel_data[0]).toMatchObject({
      'ATM ID': 'APX00040',
      'TXT No.': '700040',
      'MSP Remarks': 'Cash not dispensed',
      Response: '91',
      'Mail Received From': `disputes@${banks.apex.domain}`,
    });
    expect(excel.excel_data[0]['TXT Date.(DD/MM/YY)']).toMatch(/13\/10\/26|2026-10-13/);
  });

  test('a second run finds nothing new and changes nothing', async () => {
    const before = await ingestSnapshot(t.database.db);
    const summary = await ingestFromImap(settings, options);
    expect(summary).toMatchObject({ seen: 0, stored: 0, processed: 0 });
    expect(await ingestSnapshot(t.database.db)).toEqual(before);
  });

  test('--reprocess extracts everything again from the kept raw messages, to the same result', async () => {
    const before = await ingestSnapshot(t.database.db);
    expect(await requeueStoredMessages(t.database.db)).toBe(expectedTotals(corpus).stored);
    const summary = await processStored(options);
    expect(summary.processed).toBe(expectedTotals(corpus).stored);
    expect(await ingestSnapshot(t.database.db)).toEqual(before);
  }, 60_000);

  test('watch mode picks up new mail as the server reports it', async () => {
    const controller = new AbortController();
    const rounds: number[] = [];
    let roundDone: () => void = () => undefined;
    const watching = watchImap(settings, {
      ...options,
      signal: controller.signal,
      onRound: (s) => {
        rounds.push(s.stored);
        roundDone();
      },
    });
    const nextRound = () => new Promise<void>((resolve) => (roundDone = resolve));
    await nextRound(); // the first sync finds nothing new
    const arrived = nextRound();
    await dovecot.append([
      await compose({ from: `disputes@${banks.apex.domain}`, subject: 'New while watching', html: htmlTable(disputeLines('APX', 500, 2)) }),
    ]);
    await arrived;
    controller.abort();
    await watching;
    expect(rounds.slice(0, 2)).toEqual([0, 1]);
    const list = await get('/api/scrape/extract/email/data/pagination/?atm_id=APX00500');
    expect(list.count).toBe(1);
  }, 60_000);

  test('mail the server reports while a round is still busy is fetched at once, not at the next poll', async () => {
    // The round's processing is held up (by its rules) until the connection has gone IDLE and the
    // server has told of a message appended meanwhile; that word must not be lost.
    const controller = new AbortController();
    const rounds: number[] = [];
    let calls = 0;
    const watching = watchImap(settings, {
      ...options,
      signal: controller.signal,
      pollMs: 10 * 60_000,
      loadRules: async () => {
        if (calls++ === 0) {
          await new Promise((r) => setTimeout(r, 1500)); // the sync is done; imapflow enters IDLE
          await dovecot.append([
            await compose({ from: `disputes@${banks.apex.domain}`, subject: 'New while busy', html: htmlTable(disputeLines('APX', 600, 1)) }),
          ]);
          await new Promise((r) => setTimeout(r, 3000));
        }
        return options.loadRules();
      },
      onRound: (s) => {
        rounds.push(s.stored);
        if (rounds.length === 2) controller.abort();
      },
    });
    await watching;
    expect(rounds).toEqual([0, 1]);
    const list = await get('/api/scrape/extract/email/data/pagination/?atm_id=APX00600');
    expect(list.count).toBe(1);
  }, 60_000);
});
