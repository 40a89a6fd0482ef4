import type { Page } from '@playwright/test';
import { api, expect, rowsOf, test } from './fixtures.ts';
import { readCsv, readXlsx } from './files.ts';

const detailHeaders = [
  'ID',
  'ATM ID',
  'CARD No.',
  'TXT No.',
  'TXT Date (DD/MM/YY)',
  'TXT Amt.',
  'Dispute Amt.',
  'Overage',
  'MSP Remarks',
  'MSP RefNo.',
  'Short Desc. EJ_Error',
  'Complaint Date/Received from MSP (DD/MM/YY)',
  'Short_Description',
  'Mail Received From',
  'MailSubject',
  'Response Code',
];

const paginated = [
  ['/text-email-data', '/scrape/text/email/data', 'Text Email Data'],
  ['/missing-data', '/scrape/text/missing/data', 'Missing Data'],
  ['/missing-txn-data', '/scrape/text/missing/txn/data', 'Missing TXN Data'],
  ['/between-successful-data', '/scrape/text/successful/between/data', 'Between Successful Data'],
] as const;
const listed = [
  ['/excel-email-data', '/scrape/excel/email/data', 'Excel Email Data', 'Excel File Name', 'excel_data'],
  ['/pdf-email-data', '/scrape/pdf/email/data', 'PDF Email Data', 'PDF File Name', 'pdf_data'],
  ['/other-email-data', '/scrape/other/email/data', 'Other Format Email Data', 'Other File Name', 'other_format_data'],
] as const;

/** Opens a row's Show Data and checks the detail shows that file's rows under the 16 headers. */
async function openDetail(page: Page, name: string, apiBase: string, rowsKey: string) {
  await rowsOf(page)
    .filter({ hasText: name })
    .getByRole('link', { name: /Show Data/ })
    .click();
  await expect(page.getByRole('heading', { name: new RegExp(`: ${name}$`) })).toBeVisible();
  // The original's 16 columns, then the dispute each row names.
  await expect(page.getByRole('columnheader')).toHaveText([...detailHeaders, 'Dispute']);
  const id = page.url().split('/').pop()!.split('?')[0];
  const detail = await api<Record<string, Record<string, string | number>[]>>(page, `${apiBase}/${id}/`);
  const rows = detail[rowsKey]!;
  await expect(rowsOf(page)).toHaveCount(rows.length);
  expect(await rowsOf(page).locator('td:nth-child(2)').allTextContents()).toEqual(rows.map((r) => String(r['ATM ID'])));
  return rows;
}

for (const [path, apiBase, title] of paginated) {
  test(`${path} lists, filters and pages its files and opens the right detail`, async ({ signedIn: page }) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: title })).toBeVisible();
    await expect(page.getByRole('columnheader')).toHaveText(['Text File Name', 'Email Subject', 'Data Creation', 'Last Update', 'Details']);
    const { count } = await api<{ count: number }>(page, `${apiBase}/pagination/`);
    await expect(page.getByText(`Total Records: ${count.toLocaleString('en-US')}`, { exact: true })).toBeVisible();
    await expect(page.getByText(`Page 1 of ${Math.ceil(count / 10)}`, { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await expect(page.getByText(`Page 2 of ${Math.ceil(count / 10)}`, { exact: true })).toBeVisible();
    await page.getByRole('combobox', { name: 'Rows per page' }).selectOption('20');
    await expect(rowsOf(page)).toHaveCount(Math.min(20, count));

    await page.getByLabel('Subject Name').fill('harbor');
    const filtered = await api<{ count: number }>(page, `${apiBase}/pagination/?subject_name=harbor`);
    await expect(page.getByText(`Total Records: ${filtered.count.toLocaleString('en-US')}`, { exact: true })).toBeVisible();
    for (const subject of await rowsOf(page).locator('td:nth-child(2)').allTextContents()) expect(subject).toContain('Harbor');
    await page.getByLabel('Name', { exact: true }).fill('nothing-like-this');
    await expect(page.getByText('No records found')).toBeVisible();
    await page.getByLabel('Name', { exact: true }).fill('');
    await expect(
      rowsOf(page)
        .first()
        .getByRole('link', { name: /Show Data/ }),
    ).toBeVisible();

    const name = (await rowsOf(page).first().locator('td').first().textContent())!;
    await openDetail(page, name, apiBase, 'text_data');
  });
}

for (const [path, apiBase, title, nameHeader, rowsKey] of listed) {
  test(`${path} lists every file and opens the right detail`, async ({ signedIn: page }) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: title })).toBeVisible();
    await expect(page.getByRole('columnheader')).toHaveText([nameHeader, 'Data Creation', 'Last Update', 'Details']);
    const files = await api<{ name: string; create_at: string }[]>(page, `${apiBase}/`);
    await expect(rowsOf(page)).toHaveCount(files.length);
    await expect(page.getByText(`Total Records: ${files.length.toLocaleString('en-US')}`, { exact: true })).toBeVisible();
    await openDetail(page, files[1]!.name, apiBase, rowsKey);
  });

  test(`${path} filters its files by name and day, counts and sorts them`, async ({ signedIn: page }) => {
    await page.goto(path);
    const files = await api<{ name: string; create_at: string }[]>(page, `${apiBase}/`);
    const part = files[0]!.name.slice(0, 4).toUpperCase();
    await page.getByLabel('Name', { exact: true }).fill(part);
    const named = files.filter((f) => f.name.toLowerCase().includes(part.toLowerCase()));
    await expect(page.getByText(`Total Records: ${named.length.toLocaleString('en-US')}`, { exact: true })).toBeVisible();
    await expect(rowsOf(page)).toHaveCount(named.length);
    await page.getByRole('button', { name: nameHeader }).click();
    await expect(page.getByRole('columnheader', { name: nameHeader })).toHaveAttribute('aria-sort', 'ascending');
    await expect(rowsOf(page).locator('td:nth-child(1)')).toHaveText(named.map((f) => f.name).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    // A day after every file: none.
    await page.getByLabel('Created After', { exact: true }).fill('31/12/2099');
    await expect(page.getByText('Total Records: 0', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Clear' }).click();
    await expect(page.getByText(`Total Records: ${files.length.toLocaleString('en-US')}`, { exact: true })).toBeVisible();
  });
}

test('the detail search boxes filter the rows, and both exports hold the rows shown', async ({ signedIn: page }) => {
  await page.goto('/text-email-data');
  const files = await api<{ results: { id: number; name: string }[] }>(page, '/scrape/text/email/data/pagination/?page_size=100');
  // A file with enough rows to filter.
  let rows: Record<string, string | number>[] = [];
  let file = files.results[0]!;
  for (const candidate of files.results) {
    const detail = await api<{ text_data: Record<string, string | number>[] }>(page, `/scrape/text/email/data/${candidate.id}/`);
    if (detail.text_data.length >= 20) {
      rows = detail.text_data;
      file = candidate;
      break;
    }
  }
  await page.goto(`/text-email-data/${file.id}`);
  await expect(rowsOf(page)).toHaveCount(rows.length);

  const atm = String(rows[3]!['ATM ID']).slice(0, 5);
  await page.getByLabel('ATM ID', { exact: true }).fill(atm);
  const byAtm = rows.filter((r) => String(r['ATM ID']).includes(atm));
  await expect(rowsOf(page)).toHaveCount(byAtm.length);
  await page.getByLabel('ATM ID', { exact: true }).fill('');
  await page.getByLabel('Card No', { exact: true }).fill(String(rows[5]!['CARD No.']).slice(-4));
  await expect(rowsOf(page)).toHaveCount(rows.filter((r) => String(r['CARD No.']).includes(String(rows[5]!['CARD No.']).slice(-4))).length);
  await page.getByLabel('Card No', { exact: true }).fill('');
  await page.getByLabel('Txn No', { exact: true }).fill(String(rows[7]!['TXT No.']));
  await expect(rowsOf(page)).toHaveCount(1);
  await page.getByLabel('Txn No', { exact: true }).fill('');
  await page.getByLabel('ATM ID', { exact: true }).fill(atm);
  // The rows themselves, not only their count: the Txn No filter's one row could pass for them.
  await expect(rowsOf(page).locator('td:nth-child(2)')).toHaveText(byAtm.map((r) => String(r['ATM ID'])));

  const shown = await rowsOf(page).evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
  const [csvFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export to CSV' }).click()]);
  expect(csvFile.suggestedFilename()).toBe('text_data.csv');
  const csv = await readCsv(csvFile);
  expect(csv[0]).toEqual(detailHeaders);
  // Same rows as the table: compare the identifying columns (amounts are formatted on screen).
  const ids = (table: string[][]) => table.map((r) => [r[0], r[1], r[2], r[3], r[4]].join('|'));
  expect(ids(csv.slice(1))).toEqual(ids(shown));
  const [xlsxFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export to Excel' }).click()]);
  expect(xlsxFile.suggestedFilename()).toBe('text_data.xlsx');
  const book = await readXlsx(xlsxFile, 'TextData');
  expect(book.sheets).toEqual(['TextData']);
  expect(book.rows[0]).toEqual(detailHeaders);
  expect(ids(book.rows.slice(1))).toEqual(ids(shown));
  // Typed cells: the two dates as date cells (shown DD/MM/YY, as on screen), the three amounts as numbers.
  const typed = book.cells.slice(1);
  for (const [i, row] of typed.entries()) {
    expect(row[4], `row ${i} TXT Date`).toBeInstanceOf(Date);
    for (const amount of [5, 6, 7]) if (row[amount] !== 'N/A') expect(typeof row[amount], `row ${i} column ${amount}`).toBe('number');
  }
  expect(typed.some((row) => row[11] instanceof Date)).toBe(true);
  expect(book.rows.slice(1).map((r) => r[4])).toEqual(shown.map((r) => r[4]));
});
