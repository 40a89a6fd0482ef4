// Journals and the evidence they give disputes, over HTTP on both backends, with journals another
// tool wrote (tools/journal-gen/ejgen.py, from public descriptions of the three families) and its
// ground truth: uploads (new, again, sixteen at once), bad uploads refused with nothing stored, the
// Journals list's filters, a range of lines as received, each dispute's evidence and the EJ list's
// verdict, the PDF pack read back by pdftotext, the ZIP of packs streamed, opened and abandoned,
// and the suggested status applied, never over an operator's.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { ejRecords, queryRows } from '@ejdesk/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, createTestApp, login, type TestApp } from './helpers.ts';

const ejgen = join(import.meta.dirname, '../../../tools/journal-gen/ejgen.py');
const table = '/api/scrape/extract/email/data/pagination/';
const uploadLimit = 4 * 1024 * 1024;

interface Withdrawal {
  id: string;
  family: string;
  atm_id: string;
  verdict: string | null;
  scenario: string;
  local_time: string;
  card_first6: string;
  card_last4: string;
  rrn: string;
  requested_amount: string;
  dispensed_amount: string | null;
  shown: string[];
  lines: [number, number];
  evidence_lines: number[];
  file: string;
}
interface Manifest {
  files: { name: string; family: string; atm_id: string; day: string; lines: number; bytes: number; sha256: string; line_end: string; encoding: string }[];
  withdrawals: Withdrawal[];
}

/** The generator's journals and its ground truth, in a folder of their own. */
function generate(args: string[]): { dir: string; manifest: Manifest } {
  const dir = mkdtempSync(join(tmpdir(), 'ejdesk-journals-'));
  execFileSync('python3', [ejgen, '--out', dir, ...args], { stdio: 'pipe' });
  return { dir, manifest: JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest };
}

/** A multipart body with one file, as a browser's form sends it. */
function fileForm(name: string, bytes: Buffer, field = 'file'): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----ejdesk${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** What pdftotext reads in a PDF (its layout kept, so a line of the journal stays a line). */
function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'ejdesk-pdf-'));
  try {
    writeFileSync(join(dir, 'pack.pdf'), pdf);
    return execFileSync('pdftotext', ['-layout', join(dir, 'pack.pdf'), '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.each(backends)('journals on %s', (backend) => {
  let t: TestApp;
  let authorization: string;
  let main: { dir: string; manifest: Manifest };
  let crlf: { dir: string; manifest: Manifest };
  let bad: string;
  /** The complaints loaded before their journal arrived: each withdrawal's dispute. */
  const disputeOf = new Map<string, number>();
  let complaints: Withdrawal[] = [];
  let ambiguousDispute = 0;

  const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: { authorization }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const upload = (name: string, bytes: Buffer) => {
    const form = fileForm(name, bytes);
    return t.app.inject({ method: 'POST', url: '/api/journals/', headers: { authorization, ...form.headers }, payload: form.payload });
  };
  const fileOf = (m: { dir: string }, name: string) => readFileSync(join(m.dir, name));
  const journalCount = async () => Number((await queryRows<{ n: string }>(t.database.db, sql`select count(*) as n from journals`))[0]!.n);
  /** The first complaint of the verdict. */
  const pick = (verdict: string) => complaints.find((w) => w.verdict === verdict)!;

  beforeAll(async () => {
    t = await createTestApp(backend, { journalUploadMaxBytes: uploadLimit });
    authorization = `JWT ${(await login(t.app)).access}`;
    main = generate(['--seed', '41', '--family', 'all']);
    crlf = generate(['--seed', '42', '--family', 'hyosung', '--crlf', '--encoding', 'cp1252', '--start', '2025-03-10']);
    bad = mkdtempSync(join(tmpdir(), 'ejdesk-bad-'));
    execFileSync('python3', [ejgen, '--bad', bad], { stdio: 'pipe' });
    // The banks' complaints arrive first: one per withdrawal of the NCR journal the customer could
    // dispute (all but the declined) whose RRN the journal prints, each with its RRN, card and
    // amount; and one of the near twin's card and amount without a number, which two withdrawals fit.
    complaints = main.manifest.withdrawals.filter((w) => w.family === 'ncr' && w.scenario !== 'near_twin' && w.verdict !== null && w.shown.includes('rrn'));
    const twin = main.manifest.withdrawals.find((w) => w.family === 'ncr' && w.scenario === 'near_twin')!;
    const complaint = (w: Withdrawal, txtNo: string) => ({
      kind: 'dispute',
      atmId: w.atm_id,
      txtNo,
      cardNo: `${w.card_first6}XXXXXX${w.card_last4}`,
      transactionDate: w.local_time.slice(0, 10),
      transactionAmt: w.requested_amount,
      disputeAmt: w.requested_amount,
      bankName: 'Apex Bank',
      mspRemarks: `complaint ${w.id}`,
    });
    await t.database.db.insert(ejRecords).values([...complaints.map((w) => complaint(w, w.rrn)), complaint(twin, '')]);
    await t.database.db.execute(sql`select dispute_records_link(null)`);
    const rows = await queryRows<{ id: string; txt_no: string }>(t.database.db, sql`select id, txt_no from disputes`);
    for (const r of rows) {
      if (r.txt_no === '') ambiguousDispute = Number(r.id);
      else disputeOf.set(complaints.find((w) => w.rrn === r.txt_no)!.id, Number(r.id));
    }
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    for (const dir of [main?.dir, crlf?.dir, bad]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('stores a new journal (201), answers the same file again with it (200), and gives waiting disputes their verdicts', async () => {
    const ncr = main.manifest.files.find((f) => f.family === 'ncr')!;
    const first = await upload(ncr.name, fileOf(main, ncr.name));
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({
      created: true,
      journal: { file_name: ncr.name, family: 'ncr', atm_id: ncr.atm_id, day: ncr.day, sha256: ncr.sha256, line_count: ncr.lines, source: 'upload' },
    });
    const again = await upload('renamed.log', fileOf(main, ncr.name));
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ created: false, journal: { id: first.json().journal.id, file_name: ncr.name } });
    // The complaints loaded before it now carry its verdicts.
    const notDispensed = pick('not_dispensed');
    const story = (await call('GET', `/api/disputes/${disputeOf.get(notDispensed.id)}/`)).json();
    expect(story.evidence).toMatchObject({ verdict: 'not_dispensed', journal: { sha256: ncr.sha256 } });
  });

  it('stores sixteen parallel uploads of one journal once', async () => {
    const diebold = main.manifest.files.find((f) => f.family === 'diebold')!;
    const bytes = fileOf(main, diebold.name);
    const answers = await Promise.all(Array.from({ length: 16 }, () => upload(diebold.name, bytes)));
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(15);
    expect(new Set(answers.map((a) => a.json().journal.id)).size).toBe(1);
    const [row] = await queryRows<{ n: string }>(t.database.db, sql`select count(*) as n from journals where sha256 = ${diebold.sha256}`);
    expect(Number(row!.n)).toBe(1);
  });

  it('refuses what is not a journal with a 400 that says so, and stores nothing', async () => {
    const before = await journalCount();
    for (const name of readdirSync(bad)) {
      const answer = await upload(name, readFileSync(join(bad, name)));
      expect(answer.statusCode, name).toBe(400);
      expect(answer.json().detail, name).toMatch(new RegExp(`^${name.replace('.', '\\.')} is not a journal`));
    }
    expect(readdirSync(bad).sort()).toEqual(['bomb.zip', 'empty.txt', 'image.png', 'prose.txt', 'random.bin']);
    // No file, a JSON body, a file under another field: each a 400 naming the field.
    const none = await t.app.inject({ method: 'POST', url: '/api/journals/', headers: { authorization }, payload: { file: 'EJ text' } });
    expect(none.statusCode).toBe(400);
    expect(none.json().detail).toMatch(/'file' is required/);
    const other = fileForm('x.txt', fileOf(main, main.manifest.files[0]!.name), 'journal');
    const wrongField = await t.app.inject({ method: 'POST', url: '/api/journals/', headers: { authorization, ...other.headers }, payload: other.payload });
    expect(wrongField.statusCode).toBe(400);
    expect(await journalCount()).toBe(before);
  });

  it('refuses a file over JOURNAL_UPLOAD_MAX_MB with 413, by its length or as it arrives, and stores nothing', async () => {
    const before = await journalCount();
    const big = Buffer.concat([fileOf(main, main.manifest.files[2]!.name), Buffer.alloc(uploadLimit, 0x20)]);
    const answer = await upload('big.txt', big);
    expect(answer.statusCode).toBe(413);
    expect(answer.json().detail).toMatch(/larger than 4 MB/);
    // Sent without a length (chunked): cut off at the limit as it streams.
    const form = fileForm('big.txt', big);
    const chunked = await t.app.inject({
      method: 'POST',
      url: '/api/journals/',
      headers: { authorization, ...form.headers, 'transfer-encoding': 'chunked' },
      payload: form.payload,
    });
    expect(chunked.statusCode).toBe(413);
    expect(await journalCount()).toBe(before);
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/journals/', ...fileForm('x.txt', Buffer.from('x')) });
    expect(anonymous.statusCode).toBe(401);
  });

  it('lists the journals with their filters: ATM, day, a range of days, anomaly, family', async () => {
    const hyosung = crlf.manifest.files[0]!;
    expect((await upload(hyosung.name, fileOf(crlf, hyosung.name))).statusCode).toBe(201);
    const all = (await call('GET', '/api/journals/?page_size=100')).json();
    expect(all.count).toBe(3);
    expect(all.results[0]).toMatchObject({ file_name: hyosung.name, family: 'hyosung', day: '2025-03-10', transaction_count: expect.any(Number) });
    const names = async (query: string) => (await call('GET', `/api/journals/?${query}`)).json().results.map((j: { family: string }) => j.family);
    const ncr = main.manifest.files.find((f) => f.family === 'ncr')!;
    expect(await names(`atm_id=${ncr.atm_id}`)).toEqual(['ncr']);
    expect(await names(`atm_id=${ncr.atm_id.slice(2, 7)}`)).toEqual(['ncr']);
    expect(await names('day=2025-03-10')).toEqual(['hyosung']);
    expect((await names('day_from=2025-02-01&day_to=2025-02-28')).sort()).toEqual(['diebold', 'ncr']);
    expect(await names('family=hyosung')).toEqual(['hyosung']);
    // The power cut of each family's first journal is a restart mid-transaction.
    expect((await names('anomaly=restart')).length).toBeGreaterThanOrEqual(1);
    expect((await call('GET', '/api/journals/?page_size=1&page=2')).json().next).toBe('/api/journals/?page_size=1&page=3');
    for (const [query, detail] of [
      ['anomaly=fire', /anomaly.*must be one of dispense_failure/],
      ['day=2025-02-30', /day/],
      ['day_from=2025-03-01&day_to=2025-02-01', /day_from must not be after day_to/],
      ['page=0', /page/],
    ] as const) {
      const answer = await call('GET', `/api/journals/?${query}`);
      expect(answer.statusCode, query).toBe(400);
      expect(answer.json().detail, query).toMatch(detail);
    }
    expect((await call('GET', '/api/journals/?page=9')).statusCode).toBe(404);
  });

  it('gives a journal with its transactions, verdicts and evidence lines as the generator decided them', async () => {
    const ncr = main.manifest.files.find((f) => f.family === 'ncr')!;
    const [{ id }] = (await call('GET', `/api/journals/?family=ncr`)).json().results;
    const journal = (await call('GET', `/api/journals/${id}/`)).json();
    expect(journal).toMatchObject({ id, sha256: ncr.sha256, line_count: ncr.lines });
    // Each withdrawal the generator wrote is a transaction within its lines, with its verdict and the
    // lines that decide it among its evidence.
    for (const w of complaints) {
      const found = journal.transactions.find((x: { lines: { from: number; to: number } }) => x.lines.from >= w.lines[0] && x.lines.to <= w.lines[1]);
      expect(found, w.id).toMatchObject({ kind: 'withdrawal', verdict: w.verdict, card_last4: w.card_last4, requested_amount: w.requested_amount });
      expect(
        found.evidence.some((l: number) => w.evidence_lines.includes(l)),
        w.id,
      ).toBe(true);
    }
    expect(journal.anomalies.length).toBeGreaterThan(0);
    expect((await call('GET', '/api/journals/999999/')).statusCode).toBe(404);
    expect((await call('GET', '/api/journals/x/')).statusCode).toBe(400);
  });

  it('reads a range of lines as the file has them: numbered from 1, CRLF and Windows-1252 decoded', async () => {
    const hyosung = crlf.manifest.files[0]!;
    const [{ id }] = (await call('GET', `/api/journals/?family=hyosung`)).json().results;
    // Python reads the file as Windows-1252 (Node's own decoder of it is not to be trusted).
    const fileLines = JSON.parse(
      execFileSync(
        'python3',
        ['-c', 'import json,sys; print(json.dumps(open(sys.argv[1], encoding="cp1252", newline="").read().split("\\r\\n")))', join(crlf.dir, hyosung.name)],
        {
          encoding: 'utf8',
        },
      ),
    ) as string[];
    const answer = (await call('GET', `/api/journals/${id}/lines/?from=10&to=40`)).json();
    expect(answer).toMatchObject({ journal_id: id, from: 10, to: 40, line_count: hyosung.lines });
    expect(answer.lines.map((l: { number: number }) => l.number)).toEqual(Array.from({ length: 31 }, (_, i) => 10 + i));
    expect(answer.lines.map((l: { text: string }) => l.text)).toEqual(fileLines.slice(9, 40));
    const end = (await call('GET', `/api/journals/${id}/lines/?from=${hyosung.lines - 1}&to=${hyosung.lines + 50}`)).json();
    expect(end.lines.map((l: { number: number }) => l.number)).toEqual([hyosung.lines - 1, hyosung.lines]);
    for (const query of ['from=40&to=10', 'from=1&to=6000', 'from=0']) {
      const refused = await call('GET', `/api/journals/${id}/lines/?${query}`);
      expect(refused.statusCode, query).toBe(400);
      expect(refused.json().detail, query).toMatch(/from|to/);
    }
  });

  it('shows each dispute its evidence: verdict, amounts, the lines with the evidence marked, three before and after, the counts', async () => {
    for (const w of complaints) {
      const story = (await call('GET', `/api/disputes/${disputeOf.get(w.id)}/`)).json();
      const evidence = story.evidence;
      expect(evidence, w.id).not.toBeNull();
      expect(evidence.verdict, w.id).toBe(w.verdict);
      if (w.verdict === 'indeterminate') continue;
      expect(evidence, w.id).toMatchObject({ requested_amount: w.requested_amount, dispensed_amount: w.dispensed_amount, match: 'rrn' });
      // The transaction's lines, numbered as in the file, within those the generator wrote for it.
      expect(evidence.lines.from, w.id).toBeGreaterThanOrEqual(w.lines[0]);
      expect(evidence.lines.to, w.id).toBeLessThanOrEqual(w.lines[1]);
      expect(evidence.excerpt.map((l: { number: number }) => l.number)).toEqual(
        Array.from({ length: evidence.lines.to - evidence.lines.from + 1 }, (_, i) => evidence.lines.from + i),
      );
      // The lines it marks are the transaction's, and among them some the generator says decide it.
      const marked: number[] = evidence.excerpt.filter((l: { evidence: boolean }) => l.evidence).map((l: { number: number }) => l.number);
      expect(marked.length, w.id).toBeGreaterThan(0);
      expect(
        marked.some((l) => w.evidence_lines.includes(l)),
        w.id,
      ).toBe(true);
    }
    const notDispensed = (await call('GET', `/api/disputes/${disputeOf.get(pick('not_dispensed').id)}/`)).json().evidence;
    expect(notDispensed.before).toHaveLength(3);
    expect(notDispensed.after).toHaveLength(3);
    expect(notDispensed.counters?.cassettes.length).toBeGreaterThan(0);
    expect(notDispensed.suggestion).toEqual({ status: 'resolved', outcome: 'credited', advice: expect.stringMatching(/credit/) });
    // The near twin's card and amount fit two withdrawals: the dispute says so, and no verdict is guessed.
    const twin = (await call('GET', `/api/disputes/${ambiguousDispute}/`)).json().evidence;
    expect(twin).toMatchObject({ match: 'ambiguous', verdict: null, candidates: 2, excerpt: [] });
  });

  it('filters the EJ list by verdict, gives each row its verdict and the amount taken, and refuses an unknown word', async () => {
    for (const verdict of ['not_dispensed', 'retracted', 'partial', 'dispensed', 'reversed', 'indeterminate']) {
      const expected = complaints.filter((w) => w.verdict === verdict);
      const page = (await call('GET', `${table}?page_size=100&verdict=${verdict}`)).json();
      expect(page.count, verdict).toBe(expected.length);
      expect(page.results.map((r: { msp_remarks: string }) => r.msp_remarks).sort(), verdict).toEqual(expected.map((w) => `complaint ${w.id}`).sort());
      for (const row of page.results) expect(row.verdict).toBe(verdict);
    }
    const partial = pick('partial');
    const [row] = (await call('GET', `${table}?verdict=partial&atm_id=${partial.atm_id}&page_size=100`))
      .json()
      .results.filter((r: { msp_remarks: string }) => r.msp_remarks === `complaint ${partial.id}`);
    expect(row).toMatchObject({ verdict: 'partial', dispensed_amount: partial.dispensed_amount });
    const unknown = await call('GET', `${table}?verdict=stolen`);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().detail).toBe("query 'verdict': must be one of dispensed, partial, not_dispensed, retracted, reversed, indeterminate.");
    // The export reads the same filter; overage records have no verdict to filter by.
    const csv = await call('GET', '/api/scrape/extract/export/?format=csv&verdict=retracted');
    expect(csv.statusCode).toBe(200);
    expect(csv.body.trim().split('\r\n')).toHaveLength(1 + complaints.filter((w) => w.verdict === 'retracted').length);
    expect((await call('GET', '/api/scrape/extract/export/?format=csv&kind=overage&verdict=retracted')).statusCode).toBe(400);
  });

  it('makes the evidence PDF: the dispute, the verdict, the marked lines with their numbers, the neighbours, the counts, who and when', async () => {
    const w = pick('not_dispensed');
    const ncr = main.manifest.files.find((f) => f.family === 'ncr')!;
    const started = performance.now();
    const answer = await t.app.inject({ method: 'GET', url: `/api/disputes/${disputeOf.get(w.id)}/evidence.pdf`, headers: { authorization } });
    const ms = performance.now() - started;
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/pdf');
    expect(answer.headers['content-disposition']).toMatch(/^attachment; filename="evidence-\d+-[A-Za-z0-9._-]+\.pdf"$/);
    const text = pdfText(answer.rawPayload);
    expect(text).toContain('Verdict: Not dispensed');
    expect(text).toContain(`File: ${ncr.name}`);
    expect(text).toContain(`SHA-256: ${ncr.sha256}`);
    expect(text).toContain('operator@example.com');
    expect(text).toContain(`ATM ID: ${w.atm_id}`);
    expect(text).toContain('The three transactions before');
    expect(text).toContain('Cassette counts nearest to the transaction');
    // Each line of the transaction with its number; those the verdict rests on marked.
    const { excerpt } = (await call('GET', `/api/disputes/${disputeOf.get(w.id)}/`)).json().evidence as {
      excerpt: { number: number; text: string; evidence: boolean }[];
    };
    for (const line of excerpt.filter((l) => l.text.trim() !== '')) {
      const words = line.text.trim().slice(0, 24).trim().split(/\s+/).map(escape).join('\\s+');
      expect(text).toMatch(new RegExp(`^${line.evidence ? '>>' : ' '}\\s+${line.number}\\s+${words}`, 'm'));
    }
    console.log(`evidence PDF on ${backend}: ${answer.rawPayload.length} bytes in ${ms.toFixed(0)} ms`);
    expect((await call('GET', `/api/disputes/999999/evidence.pdf`)).statusCode).toBe(404);
  });

  it('streams a ZIP of the packs of all disputes matching the filters, or of the ids', async () => {
    const started = performance.now();
    const answer = await call('POST', '/api/disputes/evidence.zip', { filters: { atm_id: pick('dispensed').atm_id } });
    const ms = performance.now() - started;
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-type']).toBe('application/zip');
    expect(answer.headers['content-disposition']).toMatch(/^attachment; filename="evidence-\d{4}-\d{2}-\d{2}-\d+-disputes\.zip"$/);
    const dir = mkdtempSync(join(tmpdir(), 'ejdesk-zip-'));
    try {
      writeFileSync(join(dir, 'packs.zip'), answer.rawPayload);
      const listed = execFileSync('unzip', ['-Z1', join(dir, 'packs.zip')], { encoding: 'utf8' })
        .trim()
        .split('\n');
      // Every complaint has evidence (the ambiguous one too: it says why there is no verdict).
      expect(listed).toHaveLength(complaints.length + 1);
      for (const name of listed) expect(name).toMatch(/^evidence-\d+-[A-Za-z0-9._-]+\.pdf$/);
      const one = execFileSync('unzip', ['-p', join(dir, 'packs.zip'), listed[0]!]);
      expect(pdfText(one)).toContain('journal evidence');
      console.log(`evidence ZIP on ${backend}: ${listed.length} packs, ${answer.rawPayload.length} bytes in ${ms.toFixed(0)} ms`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const byIds = await call('POST', '/api/disputes/evidence.zip', { ids: [disputeOf.get(pick('retracted').id)!, 999999] });
    expect(byIds.statusCode).toBe(200);
    for (const body of [{}, { ids: [1], filters: {} }]) {
      const refused = await call('POST', '/api/disputes/evidence.zip', body);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().detail).toMatch(/either ids or filters/);
    }
    const none = await call('POST', '/api/disputes/evidence.zip', { filters: { atm_id: 'NO-SUCH-ATM' } });
    expect(none.statusCode).toBe(404);
    expect(none.json().detail).toMatch(/evidence/);
  });

  it('stops making packs when the client leaves mid-stream', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const packs = async () => {
      const text = await (await fetch(`${base}/api/metrics`)).text();
      return Number(/^ejdesk_evidence_packs_total (\d+)/m.exec(text)?.[1] ?? 0);
    };
    const start = await packs();
    const controller = new AbortController();
    const response = await fetch(`${base}/api/disputes/evidence.zip`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ filters: {} }),
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    // The pack being made as the client left is the last.
    await new Promise((r) => setTimeout(r, 1500));
    const atAbort = (await packs()) - start;
    await new Promise((r) => setTimeout(r, 1500));
    expect((await packs()) - start).toBe(atAbort);
    expect(atAbort).toBeLessThan(complaints.length / 2);
    await expect.poll(() => t.app.ctx.exports.inFlight, { timeout: 5000 }).toBe(0);
    // fetch keeps its connections for the next request: the app's close must not wait for them.
    t.app.server.closeAllConnections();
  });

  it('applies the suggested status to one dispute and to all matching, never over an operator’s, saying what it skipped', async () => {
    const notDispensed = disputeOf.get(pick('not_dispensed').id)!;
    const one = await call('POST', `/api/disputes/${notDispensed}/apply-suggestion/`, {});
    expect(one.json()).toEqual({ updated: 1, skipped_operator: 0, skipped_no_suggestion: 0, skipped_unchanged: 0 });
    const story = (await call('GET', `/api/disputes/${notDispensed}/`)).json();
    expect(story).toMatchObject({ status: 'resolved', outcome: 'credited' });
    expect(story.history.at(-1).note).toContain(main.manifest.files.find((f) => f.family === 'ncr')!.name);
    // An operator's own status on a retracted one: kept.
    const retracted = complaints.filter((w) => w.verdict === 'retracted');
    const held = disputeOf.get(retracted[0]!.id)!;
    expect((await call('POST', `/api/disputes/${held}/status/`, { status: 'awaiting_msp', note: 'asked the MSP for the video' })).statusCode).toBe(200);
    const all = (await call('POST', '/api/disputes/apply-suggestion/', { filters: { verdict: 'retracted' } })).json();
    expect(all).toEqual({ updated: retracted.length - 1, skipped_operator: 1, skipped_no_suggestion: 0, skipped_unchanged: 0 });
    expect((await call('GET', `/api/disputes/${held}/`)).json()).toMatchObject({ status: 'awaiting_msp', status_source: 'operator' });
    // Indeterminate and ambiguous ones suggest nothing.
    const unsure = [...complaints.filter((w) => w.verdict === 'indeterminate').map((w) => disputeOf.get(w.id)!), ambiguousDispute];
    const none = (await call('POST', '/api/disputes/apply-suggestion/', { ids: unsure })).json();
    expect(none).toEqual({ updated: 0, skipped_operator: 0, skipped_no_suggestion: unsure.length, skipped_unchanged: 0 });
    expect((await call('POST', '/api/disputes/999999/apply-suggestion/', {})).statusCode).toBe(404);
    expect((await call('POST', '/api/disputes/apply-suggestion/', {})).statusCode).toBe(400);
  });

  // Last, since it stores one more journal, which the tests above count. When the server ends an
  // upload's connection mid-store, the upload answers 503 and keeps nothing; the same file sent again
  // is stored once.
  it.runIf(backend === 'postgres')('answers 503 and keeps nothing when its connection drops mid-store; sent again, it is stored once', async () => {
    const one = generate(['--seed', '11', '--family', 'hyosung', '--atms', '1', '--days', '1', '--txns', '30']);
    try {
      const file = one.manifest.files[0]!;
      const bytes = fileOf(one, file.name);
      const before = await journalCount();
      const inserting = async () =>
        (
          await queryRows<{ pid: number }>(
            t.database.db,
            sql`select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike '%insert into%journals%'`,
          )
        ).map((r) => r.pid);
      let answer: ReturnType<typeof upload> | undefined;
      await t.database.db.transaction(async (tx) => {
        await tx.execute(sql`lock table journals in share row exclusive mode`);
        answer = upload(file.name, bytes);
        let waiting: number[] = [];
        for (const deadline = Date.now() + 60_000; (waiting = await inserting()).length === 0; await new Promise((r) => setTimeout(r, 50)))
          if (Date.now() > deadline) throw new Error('the upload never reached its insert');
        await queryRows(t.database.db, sql`select pg_terminate_backend(${waiting[0]!})`);
        await answer;
      });
      const dropped = await answer!;
      expect(dropped.statusCode, dropped.body).toBe(503);
      expect(dropped.json()).toEqual({ detail: expect.any(String) });
      expect(await journalCount()).toBe(before);
      const stored = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from journals where sha256 = ${file.sha256}`);
      expect(stored[0]!.n).toBe(0);
      const again = await upload(file.name, bytes);
      expect(again.statusCode, again.body).toBe(201);
      expect(await journalCount()).toBe(before + 1);
    } finally {
      rmSync(one.dir, { recursive: true, force: true });
    }
  });
});

/** Text as a literal in a regular expression. */
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
