import type { Page } from '@playwright/test';
import { api, dataHeaders, expect, rowsOf, test } from './fixtures.ts';
import { readCsv, readXlsx } from './files.ts';

interface EjRow {
  atm_id: string;
  txt_no: string;
  card_no: string;
  transaction_date: string;
  transaction_amt?: string | null;
  mail_subject: string;
  mail_received_from: string;
  file_name?: string;
}
interface EjPage {
  count: number;
  total_pages: number;
  results: EjRow[];
}

/** Every record the API returns for a query, across its pages. */
async function everything(page: Page, query: string): Promise<EjRow[]> {
  const rows: EjRow[] = [];
  for (let n = 1; ; n++) {
    const body = await api<EjPage>(page, `/scrape/extract/email/data/pagination/?page_size=100&page=${n}&${query}`);
    rows.push(...body.results);
    if (n >= body.total_pages) return rows;
  }
}

/** YYYY-MM-DD, days before today (the seed spreads its dates over the 12 months up to today). */
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
const weekFrom = daysAgo(60);
const weekTo = daysAgo(54);
const halfYear = daysAgo(180);

/** The n-th data column's cells (/email leads each row with its tick box). */
const column = (page: Page, n: number) =>
  rowsOf(page)
    .locator(`td:nth-child(${n + 1})`)
    .allTextContents();

async function applyFilters(page: Page, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) await page.getByLabel(label, { exact: true }).fill(value);
  await page.getByRole('button', { name: 'Apply Filters' }).click();
}

test.describe('/email', () => {
  test('shows the columns operators know, pages and changes page size', async ({ signedIn: page }) => {
    await page.goto('/email');
    // ATM ID and the dispute's clock first: what an operator works by.
    await expect(dataHeaders(page)).toHaveText([
      'ATM ID',
      'Status',
      'Due Date',
      'Next Deadline',
      'Days Late',
      'Age (days)',
      'Penalty',
      'Owner',
      'Follow Up',
      'Card No.',
      'TXT No.',
      'Transaction Date',
      'Transaction Amt.',
      'Dispute Amt.',
      'Verdict',
      'Overage',
      'MSP Remarks',
      'MSP RefNo.',
      'Short Desc. EJ_Error',
      'Complaint Date',
      'Short Description',
      'Mail Received From',
      'Mail Subject',
    ]);
    const { count } = await api<EjPage>(page, '/scrape/extract/email/data/pagination/');
    await expect(page.getByText(`Total Records: ${count.toLocaleString('en-US')}`, { exact: true })).toBeVisible();
    await expect(page.getByText(`Page 1 of ${Math.ceil(count / 10)}`, { exact: true })).toBeVisible();
    const firstPage = await column(page, 1);
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await expect(page.getByText(`Page 2 of ${Math.ceil(count / 10)}`, { exact: true })).toBeVisible();
    // The previous page stays on screen (no layout jump) until the next one arrives.
    await expect.poll(() => column(page, 1)).not.toEqual(firstPage);
    await page.getByRole('combobox', { name: 'Rows per page' }).selectOption('100');
    await expect(page.getByText(`Page 1 of ${Math.ceil(count / 100)}`, { exact: true })).toBeVisible();
    await expect(rowsOf(page)).toHaveCount(100);
    await expect(page.getByRole('combobox', { name: 'Rows per page' }).getByRole('option')).toHaveText(['10', '20', '50', '100']);
  });

  const filters: [string, Record<string, string>, string, (row: EjRow) => boolean][] = [
    ['ATM ID', { 'ATM ID': 'HRB0012' }, 'atm_id=HRB0012', (r) => r.atm_id.includes('HRB0012')],
    ['Card No.', { 'Card No.': 'XXXXXX12' }, 'card_no=XXXXXX12', (r) => r.card_no.includes('XXXXXX12')],
    ['Bank Name', { 'Bank Name': 'meridian' }, 'bank_name=meridian', (r) => r.atm_id.startsWith('MRD')],
    ['Mail Subject', { 'Mail Subject': 'APX0002' }, 'mail_subject=APX0002', (r) => r.mail_subject.includes('APX0002')],
    ['Mail Received From', { 'Mail Received From': 'ORBIT' }, 'mail_received_from=ORBIT', (r) => r.mail_received_from.includes('orbit')],
    [
      'the dates',
      { 'Start Date': weekFrom, 'End Date': weekTo },
      `start_date=${weekFrom}&end_date=${weekTo}`,
      (r) => r.transaction_date >= weekFrom && r.transaction_date <= weekTo,
    ],
  ];
  for (const [name, values, query, matches] of filters) {
    test(`filtering by ${name} narrows the table to matching rows`, async ({ signedIn: page }) => {
      await page.goto('/email?page=3');
      await applyFilters(page, values);
      const expected = await everything(page, query);
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.every(matches)).toBe(true);
      await expect(page.getByText(`Total Records: ${expected.length.toLocaleString('en-US')}`, { exact: true })).toBeVisible();
      await expect(page.getByText(`Page 1 of ${Math.ceil(expected.length / 10)}`, { exact: true })).toBeVisible();
      await expect.poll(() => column(page, 1)).toEqual(expected.slice(0, 10).map((r) => r.atm_id));
    });
  }

  test('both exports hold exactly the filtered set, formulas neutralised', async ({ signedIn: page }) => {
    await page.goto('/email');
    await applyFilters(page, { 'Bank Name': 'apex', 'Start Date': halfYear });
    const expected = await everything(page, `bank_name=apex&start_date=${halfYear}`);
    expect(expected.length).toBeGreaterThan(100);
    const key = (atm: string, txt: string) => `${atm}/${txt}`;

    const [csvFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export to CSV' }).click()]);
    // The file's name says what it holds.
    expect(csvFile.suggestedFilename()).toBe(`ej_error_${halfYear}_bank_name-apex.csv`);
    const csv = await readCsv(csvFile);
    expect(csv[0]!.slice(0, 7)).toEqual(['ATM ID', 'Status', 'Due Date', 'Days Late', 'Age (days)', 'Penalty', 'Currency']);
    const txt = csv[0]!.indexOf('TXT No.');
    expect(csv.slice(1).map((r) => key(r[0]!, r[txt]!))).toEqual(expected.map((r) => key(r.atm_id, r.txt_no)));

    const [xlsxFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export to Excel' }).click()]);
    expect(xlsxFile.suggestedFilename()).toBe(`ej_error_${halfYear}_bank_name-apex.xlsx`);
    const book = await readXlsx(xlsxFile, 'AttendanceData');
    expect(book.sheets).toEqual(['AttendanceData']);
    expect(book.rows.slice(1).map((r) => key(r[0]!, r[txt]!))).toEqual(expected.map((r) => key(r.atm_id, r.txt_no)));
    // Typed cells: Transaction Date and Complaint Date as date cells, the amounts and the penalty as numbers.
    const at = (header: string) => csv[0]!.indexOf(header);
    for (const row of book.cells.slice(1)) {
      expect(row[at('Transaction Date')]).toBeInstanceOf(Date);
      for (const amount of ['Transaction Amt.', 'Dispute Amt.', 'Overage', 'Penalty'])
        if (row[at(amount)] !== 'N/A') expect(typeof row[at(amount)]).toBe('number');
    }

    // The seeded record whose remark is a formula comes out as inert text in both files.
    const remark = csv[0]!.indexOf('MSP Remarks');
    const subject = csv[0]!.indexOf('Mail Subject');
    const formulaRow = csv.find((r) => r[0] === 'EVL00001')!;
    expect(formulaRow[remark]).toBe(`'=HYPERLINK("http://evil.example","Refund")`);
    expect(formulaRow[subject]).toBe("'@SUM(1+1)");
    const xlsxRow = book.rows.find((r) => r[0] === 'EVL00001')!;
    expect(xlsxRow[remark]).toBe(`'=HYPERLINK("http://evil.example","Refund")`);
    expect(xlsxRow[subject]).toBe("'@SUM(1+1)");
  });

  test('an export of 0 rows says so instead of saving a header-only file', async ({ signedIn: page }) => {
    await page.goto('/email');
    await applyFilters(page, { 'ATM ID': 'NO-SUCH-ATM' });
    await expect(page.getByText('Total Records: 0', { exact: true })).toBeVisible();
    let downloads = 0;
    page.on('download', () => downloads++);
    await page.getByRole('button', { name: 'Export to CSV' }).click();
    await expect(page.locator('[data-sonner-toast]')).toHaveText('Nothing to export: no rows match the filters.');
    await page.getByRole('button', { name: 'Export to Excel' }).click();
    await expect(page.locator('[data-sonner-toast]')).toHaveCount(2);
    expect(downloads).toBe(0);
  });

  test('a long export shows the rows received so far and can be cancelled', async ({ signedIn: page }) => {
    await page.goto('/email');
    await expect(rowsOf(page).first()).toBeVisible();
    // A slow line (16 KB/s): the CSV of every dispute record takes many seconds to arrive.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: 16 * 1024, uploadThroughput: -1 });
    let downloads = 0;
    page.on('download', () => downloads++);
    await page.getByRole('button', { name: 'Export to CSV' }).click();
    const status = page.getByRole('status').filter({ hasText: 'Exporting to CSV' });
    await expect(status).toHaveText(/Exporting to CSV… [1-9][\d,]* rows so far/, { timeout: 20_000 });
    const first = Number(/([\d,]+) rows/.exec(await status.innerText())![1]!.replace(/,/g, ''));
    await expect
      .poll(async () => Number(/([\d,]+) rows/.exec(await status.innerText())?.[1]?.replace(/,/g, '') ?? 0), { timeout: 20_000 })
      .toBeGreaterThan(first);
    await page.getByRole('button', { name: 'Cancel export' }).click();
    await expect(page.locator('[data-sonner-toast]')).toHaveText('Export cancelled.');
    await expect(page.getByRole('button', { name: 'Export to CSV' })).toBeEnabled();
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    expect(downloads).toBe(0);
  });
});

for (const [path, kind, title, lastHeader, file] of [
  ['/overage', 'overage', 'Overage', 'Name of File', 'overage'],
  ['/successing', 'succeeding', 'Successing', 'Name Of File', 'successing'],
] as const) {
  test(`${path} shows every record, scrolls, and exports them`, async ({ signedIn: page }) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: title })).toBeVisible();
    const records = await api<EjRow[]>(page, `/scrape/extract/${kind}/data/`);
    await expect(page.getByText(`Total Records: ${records.length.toLocaleString('en-US')}`, { exact: true })).toBeVisible();
    await expect(page.getByRole('columnheader').last()).toHaveText(lastHeader);
    await expect(rowsOf(page).first().locator('td').first()).toHaveText(records[0]!.atm_id);
    await expect(rowsOf(page).first().locator('td').last()).toHaveText(records[0]!.file_name!);
    // Virtualised: far fewer rows in the DOM than records, and scrolling brings the last one in.
    expect(await rowsOf(page).count()).toBeLessThan(Math.min(records.length, 80));
    await page.getByRole('region', { name: title }).evaluate((box) => box.scrollTo(0, box.scrollHeight));
    await expect(page.getByRole('cell', { name: records.at(-1)!.file_name!, exact: true })).toBeVisible();

    const [csvFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export to CSV' }).click()]);
    expect(csvFile.suggestedFilename()).toBe(`${file}.csv`);
    const csv = await readCsv(csvFile);
    expect(csv[0]!.at(-1)).toBe(lastHeader);
    expect(csv.slice(1).map((r) => r.at(-1))).toEqual(records.map((r) => r.file_name));
    const [xlsxFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export to Excel' }).click()]);
    expect(xlsxFile.suggestedFilename()).toBe(`${file}.xlsx`);
    expect((await readXlsx(xlsxFile, title)).rows).toHaveLength(records.length + 1);
  });

  test(`${path} filters the whole list, counts it, sorts it, and exports what it shows`, async ({ signedIn: page }) => {
    await page.goto(path);
    const records = await api<EjRow[]>(page, `/scrape/extract/${kind}/data/`);
    await expect(page.getByText(`Total Records: ${records.length.toLocaleString('en-US')}`, { exact: true })).toBeVisible();
    // Part of an ATM ID, as the API matches it (any case, anywhere in the ID).
    const part = records[0]!.atm_id.slice(0, 3).toLowerCase();
    await page.getByLabel('ATM ID', { exact: true }).fill(part);
    const matching = records.filter((r) => r.atm_id.toLowerCase().includes(part));
    await expect(page).toHaveURL(new RegExp(`atm_id=${part}`));
    await expect(page.getByText(`Total Records: ${matching.length.toLocaleString('en-US')}`, { exact: true })).toBeVisible();
    // A day range too, typed as operators write days.
    const days = matching
      .map((r) => r.transaction_date!)
      .filter(Boolean)
      .sort();
    const from = days[Math.floor(days.length / 2)]!;
    await page.getByLabel('Start Date', { exact: true }).fill(from.split('-').reverse().join('/'));
    const both = matching.filter((r) => r.transaction_date && r.transaction_date >= from);
    await expect(page.getByText(`Total Records: ${both.length.toLocaleString('en-US')}`, { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: /^ATM ID: .* remove filter$/ })).toBeVisible();
    // Sorted by amount, the smallest first, as the API would.
    await page.getByRole('button', { name: 'Transaction Amt.' }).click();
    const amounts = both.map((r) => Number(r.transaction_amt ?? -Infinity)).sort((a, b) => a - b);
    await expect(page.getByRole('columnheader', { name: 'Transaction Amt.' })).toHaveAttribute('aria-sort', 'ascending');
    const firstAmount = await rowsOf(page).first().locator('td').nth(4).textContent();
    expect(Number(firstAmount!.replace(/,/g, '') || -Infinity)).toBe(amounts[0]);
    // The export holds the rows shown: the server applies the same filters.
    const [csvFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export to CSV' }).click()]);
    expect((await readCsv(csvFile)).length - 1).toBe(both.length);
  });
}
