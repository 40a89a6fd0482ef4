// Journal evidence as an operator meets it, in Chromium against `pnpm start` watching a real
// Dovecot: a complaint and its journal arrive by mail (made by the Python generator, which decided
// each withdrawal's verdict before printing its lines), the operator filters /email by Not
// dispensed, opens a dispute, sees the lines the verdict rests on as numbered in the file, downloads
// its evidence pack (read back with pdftotext), opens the whole journal at that line and applies
// the suggestion to all matching. A journal dropped on /journals gives disputes that waited for
// it their verdicts. The new screens are axe clean.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { mailboxControl } from '../support/mailbox.ts';
import { api, demoAdmin, expect, rowsOf, test } from './fixtures.ts';

test.describe.configure({ mode: 'serial', timeout: 90_000 });

interface Withdrawal {
  id: string;
  verdict: string | null;
  lines: [number, number];
  evidence_lines: number[];
}
interface ComplaintRow {
  withdrawal: string;
  atm_id: string;
  txn_no: string;
  txn_no_shown: boolean;
}
interface Manifest {
  files: { name: string; atm_id: string; encoding: string; sha256: string }[];
  withdrawals: Withdrawal[];
  mails: { file: string; kind: 'complaint' | 'journal'; format: string; rows: ComplaintRow[] }[];
}
interface DisputeRow {
  dispute_id: number;
  atm_id: string;
  txt_no: string;
  verdict: string | null;
  status: string;
  outcome: string | null;
}
type Listing<T> = { count: number; results: T[] };

const root = resolve(import.meta.dirname, '../.artifacts/journals');
const screens = resolve(import.meta.dirname, '../.artifacts/screens');
const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** A generator run: its journals, mails and the truth it decided. */
function generate(name: string, seed: number, family: string, ...options: string[]): { dir: string; manifest: Manifest } {
  const dir = join(root, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const generator = resolve(import.meta.dirname, '../../tools/journal-gen/ejgen.py');
  execFileSync('python3', [generator, '--out', dir, '--seed', String(seed), '--family', family, '--mail', ...options]);
  return { dir, manifest: JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest };
}

async function deliver(request: APIRequestContext, file: string): Promise<void> {
  // A fresh Message-ID, so a mail is never taken for one the mailbox had before.
  const raw = readFileSync(file, 'latin1').replace(/^Message-ID: <([^>]+)>/m, `Message-ID: <$1.${Date.now().toString(36)}>`);
  const response = await request.post(`${mailboxControl}/append`, { data: Buffer.from(raw, 'latin1') });
  expect(response.status(), await response.text()).toBe(204);
}

/** The file's lines as received (the generator's UTF-8, a BOM dropped), for comparing line numbers. */
const fileLines = (path: string) =>
  readFileSync(path, 'utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\n|\r/);

/** The generator's bank and MSP, known to the desk: mail from unknown senders is not read. */
async function knowTheSenders(request: APIRequestContext): Promise<void> {
  const signIn = await request.post('/api/auth/jwt/create/', { data: demoAdmin });
  const headers = { authorization: `JWT ${((await signIn.json()) as { access: string }).access}` };
  const post = async (path: string, data: object) => {
    const response = await request.post(`/api${path}`, { data, headers: { ...headers, 'idempotency-key': crypto.randomUUID() } });
    const text = await response.text();
    // The demo's Bank MSP list may hold the pair already.
    if (!(response.status() === 400 && text.includes('already'))) expect(response.status(), text).toBeLessThan(300);
  };
  await post('/scrape/bank/msp/create/', { msp: 'Atlas ATM Services', bank_name: 'Apex Bank' });
  await post('/admin/sender-mappings/', { sender: '@apexbank.example', organisation: 'Apex Bank' });
  await post('/admin/sender-mappings/', { sender: '@atlas-atm.example', organisation: 'Atlas ATM Services' });
}

const disputesOf = (page: Page, query: string) => api<Listing<DisputeRow>>(page, `/scrape/extract/email/data/pagination/?page_size=100&${query}`);

async function axeClean(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(tags).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

const complaintOf = (manifest: Manifest) => manifest.mails.find((m) => m.kind === 'complaint' && m.format === 'csv')!;
const withdrawalOf = (manifest: Manifest, row: ComplaintRow) => manifest.withdrawals.find((w) => w.id === row.withdrawal)!;
/** The complaint rows whose number the journal prints: their verdict is the generator's. */
const byNumber = (manifest: Manifest) => complaintOf(manifest).rows.filter((row) => row.txn_no_shown);

let mailed: ReturnType<typeof generate>;
let dropped: ReturnType<typeof generate>;
let mailedAtm: string;
let notDispensed: ComplaintRow[];
test.beforeAll(() => {
  mailed = generate('mailed', 11, 'ncr');
  // A whole day (about 200 KB, over the 64 KB the console's origin takes for any other body).
  dropped = generate('dropped', 23, 'hyosung');
  mailedAtm = complaintOf(mailed.manifest).rows[0]!.atm_id;
  notDispensed = byNumber(mailed.manifest).filter((row) => withdrawalOf(mailed.manifest, row).verdict === 'not_dispensed');
});

test('a complaint and its journal arrive by mail; the operator filters Not dispensed, sees the marked lines and downloads the PDF', async ({
  signedIn: page,
  request,
}) => {
  expect(notDispensed.length, 'the generator mails a not-dispensed complaint its journal numbers').toBeGreaterThan(0);
  await knowTheSenders(request);
  await deliver(request, join(mailed.dir, complaintOf(mailed.manifest).file));
  await deliver(request, join(mailed.dir, mailed.manifest.mails.find((m) => m.kind === 'journal' && m.format === 'plain')!.file));
  await page.goto('/email');
  await expect
    .poll(async () => (await disputesOf(page, `atm_id=${mailedAtm}&verdict=not_dispensed`)).count, { timeout: 45_000 })
    .toBeGreaterThanOrEqual(notDispensed.length);

  // The operator's way: the ATM typed, the verdict chosen, both applied together.
  await page.getByLabel('ATM ID', { exact: true }).fill(mailedAtm);
  await page.getByLabel('Verdict').selectOption({ label: 'Not dispensed' });
  await page.getByRole('button', { name: 'Apply Filters' }).click();
  await expect(page).toHaveURL(/[?&]verdict=not_dispensed/);
  const shown = await disputesOf(page, `atm_id=${mailedAtm}&verdict=not_dispensed`);
  await expect(page.getByText(`Total Records: ${shown.count.toLocaleString('en-US')}`, { exact: true })).toBeVisible();
  await expect(rowsOf(page)).toHaveCount(shown.count);
  for (const row of await rowsOf(page).all()) await expect(row).toContainText('Not dispensed');
  await page.screenshot({ path: join(screens, 'email-verdict.png'), fullPage: true });

  const target = notDispensed[0]!;
  const truth = withdrawalOf(mailed.manifest, target);
  await rowsOf(page)
    .filter({ hasText: target.txn_no })
    .getByRole('link', { name: new RegExp(`the story of ATM ${mailedAtm}`) })
    .click();
  await expect(page).toHaveURL(/\/disputes\/\d+$/);
  const panel = page.locator('.ej-panel').filter({ has: page.getByRole('heading', { name: 'Journal', exact: true }) });
  await expect(panel.getByText('Not dispensed', { exact: true })).toBeVisible();
  const journalFile = mailed.manifest.files.find((f) => f.atm_id === mailedAtm)!;
  await expect(panel.getByText(journalFile.sha256)).toBeVisible();
  // The lines the verdict rests on are marked in words, numbered as in the file received.
  const lines = fileLines(join(mailed.dir, journalFile.name));
  const marked = panel.getByRole('table', { name: /^Lines \d+ to \d+ of / }).locator('tbody tr', { hasText: '▶ Evidence' });
  await expect(marked.first()).toBeVisible();
  const markedRows = await marked.all();
  for (const row of markedRows) {
    const [number, , text] = await row.locator('td').allInnerTexts();
    const n = Number(number);
    expect(n).toBeGreaterThanOrEqual(truth.lines[0]);
    expect(n).toBeLessThanOrEqual(truth.lines[1]);
    expect(text!.trimEnd()).toBe(lines[n - 1]!.trimEnd());
  }
  const before = panel.getByRole('button', { name: /^The (\d+ transactions|transaction) before$/ });
  await expect(before).toHaveAttribute('aria-expanded', 'false');
  await before.click();
  await expect(before).toHaveAttribute('aria-expanded', 'true');
  await axeClean(page);
  await page.screenshot({ path: join(screens, 'dispute-journal.png'), fullPage: true });

  // The evidence pack, made by the server, read back as text.
  const download = page.waitForEvent('download');
  await panel.getByRole('button', { name: 'Download evidence (PDF)' }).click();
  const pdf = join(root, 'evidence.pdf');
  await (await download).saveAs(pdf);
  const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
  expect(text).toContain('Verdict: Not dispensed');
  expect(text).toContain(journalFile.sha256);
  expect(text).toContain(journalFile.name);
  expect(text).toContain(mailedAtm);
  expect(text).toContain('operator@example.com');
  // The pack marks the same line, with its number in the file (pdftotext spreads the spaces).
  const firstMarked = Number(await markedRows[0]!.locator('td').first().innerText());
  const spaced = (s: string) => s.trim().replace(/\s+/g, ' ');
  expect(spaced(text)).toContain(`>> ${firstMarked} ${spaced(lines[firstMarked - 1]!)}`);

  // The whole journal, opened at the transaction's first line.
  const open = panel.getByRole('link', { name: /^Open the whole journal at line \d+$/ });
  const at = Number((await open.innerText()).replace(/\D/g, ''));
  await open.click();
  await expect(page).toHaveURL(new RegExp(`/journals/\\d+\\?line=${at}$`));
  await expect(page.getByText(`Line ${at} is highlighted.`)).toBeVisible();
  const highlighted = page.locator('[role="listitem"][data-target]');
  await expect(highlighted).toContainText(String(at));
  await expect(highlighted).toBeInViewport();
  await expect(highlighted).toContainText(lines[at - 1]!.trim());
  await axeClean(page);
  await page.screenshot({ path: join(screens, 'journal-viewer.png'), fullPage: true });
});

test('the operator applies the suggestion to all matching: not dispensed disputes are resolved, credited', async ({ signedIn: page }) => {
  await page.goto(`/email?atm_id=${mailedAtm}&verdict=not_dispensed`);
  const before = await disputesOf(page, `atm_id=${mailedAtm}&verdict=not_dispensed`);
  expect(before.count).toBeGreaterThan(0);
  await page.getByRole('button', { name: `Apply the suggestion to all ${before.count} matching…` }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`Verdict: Not dispensed`);
  await dialog.getByRole('button', { name: 'Apply the suggestion', exact: true }).click();
  await expect(page.getByText(/^The suggestion is applied to \d+ disputes?/)).toBeVisible();
  await expect
    .poll(async () => (await disputesOf(page, `atm_id=${mailedAtm}&verdict=not_dispensed`)).results.map((r) => `${r.status}/${r.outcome}`))
    .toEqual(before.results.map(() => 'resolved/credited'));
  for (const row of await rowsOf(page).all()) await expect(row).toContainText('Resolved (credited)');
});

test('a journal dropped on /journals gives the disputes waiting for it their verdicts', async ({ signedIn: page, request }) => {
  const complaint = complaintOf(dropped.manifest);
  const atm = complaint.rows[0]!.atm_id;
  await page.goto('/journals');
  await deliver(request, join(dropped.dir, complaint.file));
  await expect.poll(async () => (await disputesOf(page, `atm_id=${atm}`)).count, { timeout: 45_000 }).toBe(complaint.rows.length);
  expect((await disputesOf(page, `atm_id=${atm}`)).results.every((r) => r.verdict === null)).toBe(true);

  await expect(page.getByRole('heading', { level: 1, name: 'Journals' })).toBeVisible();
  const file = dropped.manifest.files.find((f) => f.atm_id === atm)!;
  const content = readFileSync(join(dropped.dir, file.name)).toString('base64');
  // What a file dragged from the desktop hands the page: a DataTransfer holding the file.
  const dataTransfer = await page.evaluateHandle(
    ({ name, base64 }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], name, { type: 'text/plain' }));
      return transfer;
    },
    { name: file.name, base64: content },
  );
  const heading = page.getByRole('heading', { level: 1, name: 'Journals' });
  await heading.dispatchEvent('dragover', { dataTransfer });
  await expect(page.getByText('Drop the journal to upload it')).toBeVisible();
  await page.screenshot({ path: join(screens, 'journals-drop.png') });
  await heading.dispatchEvent('drop', { dataTransfer });
  const uploads = page.getByRole('list', { name: 'Uploads' });
  await expect(uploads).toContainText(`${file.name} New journal: HYOSUNG, ATM ${atm}`);
  await expect(page.getByRole('table', { name: 'Journals' }).locator('tbody tr', { hasText: file.name })).toContainText(atm);

  // The complaints whose numbers the journal prints now carry the generator's verdicts.
  const want = byNumber(dropped.manifest).map((row) => `${row.txn_no}: ${withdrawalOf(dropped.manifest, row).verdict}`);
  await expect
    .poll(async () => {
      const rows = (await disputesOf(page, `atm_id=${atm}`)).results;
      return byNumber(dropped.manifest).map((row) => `${row.txn_no}: ${rows.find((r) => r.txt_no === row.txn_no)?.verdict ?? null}`);
    })
    .toEqual(want);
  await page.goto(`/journals?atm_id=${atm}`);
  await expect(rowsOf(page)).toHaveCount(1);
  await axeClean(page);
  await page.screenshot({ path: join(screens, 'journals.png'), fullPage: true });
});
