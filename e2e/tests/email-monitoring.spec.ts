import { api, expect, rowsOf, test } from './fixtures.ts';
import { readCsv, readXlsx } from './files.ts';

const monthNames = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

test.describe('dashboard', () => {
  test('the pie shows the month’s read and unread shares, and changing the month refetches', async ({ signedIn: page }) => {
    await page.goto('/dashboard');
    const now = new Date();
    const counts = await api<{ total_emails: number; read: number; unread: number }>(
      page,
      `/scrape/email/dashboard/count/?date=${now.getFullYear()}-${monthNames[now.getMonth()]}`,
    );
    expect(counts.total_emails).toBeGreaterThan(0);
    const share = (n: number) => `${((n / counts.total_emails) * 100).toFixed(1)}%`;
    const pie = page.getByRole('group', { name: 'Read and unread emails' });
    await expect(pie.locator('text')).toHaveText([share(counts.read), share(counts.unread)]);
    // Each slice is a link that says its share and count.
    await expect(pie.getByRole('link').first()).toHaveAccessibleName(`Read: ${share(counts.read)}, ${counts.read} emails`);
    await expect(pie.getByRole('link').last()).toHaveAccessibleName(`UnRead: ${share(counts.unread)}, ${counts.unread} emails`);

    const summary = page.getByRole('region', { name: 'Email', exact: true }).getByRole('listitem');
    await expect(summary).toHaveText([
      `Total Email${counts.total_emails.toLocaleString('en-US')}`,
      `Read Email${counts.read.toLocaleString('en-US')}`,
      `Unread Email${counts.unread.toLocaleString('en-US')}`,
    ]);

    const picker = page.getByRole('region', { name: 'Email', exact: true }).getByLabel('Select Month');
    await expect(picker).toHaveValue(`${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`);
    await picker.fill('2019-03');
    await expect(page.getByText('No emails received in this month.')).toBeVisible();
    await expect(summary.first()).toHaveText('Total Email0');
  });

  const links = [
    ['Total Email', '/get-all-email-data', 'total_emails'],
    ['Read Email', '/read-email', 'read'],
    ['Unread Email', '/unread-email', 'unread'],
    ['EJs not found Email', '/ej-not-found', 'ej_not_found'],
    ['Emails processed along with the subject line', '/same-subject-processing', 'email_same_subject_processing'],
    ['Mails having the same subject line', '/same-subject', 'email_same_subject_count'],
    ['Emails ignored', '/email-ignored', 'email_ignores'],
  ] as const;
  const thisMonth = () => {
    const now = new Date();
    return { picker: `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`, api: `${now.getFullYear()}-${monthNames[now.getMonth()]}` };
  };

  for (const [label, path, key] of links) {
    test(`“${label}” opens its list for the month, whose Total Records is the count clicked`, async ({ signedIn: page }) => {
      await page.goto('/dashboard');
      const month = thisMonth();
      const counts = await api<Record<string, number>>(page, `/scrape/email/dashboard/count/?date=${month.api}`);
      // Count cards read as '77 EJs not found Email'; summary links as the label alone, the figure beside.
      const name = new RegExp(`^([\\d,]+ ?)?${label}$`);
      const link = page.getByRole('main').getByRole('link', { name });
      await expect(
        page
          .getByRole('main')
          .getByRole('listitem')
          .filter({ has: page.getByRole('link', { name }) }),
      ).toContainText(counts[key]!.toLocaleString('en-US'));
      await link.click();
      await expect(page).toHaveURL(new RegExp(`${path}\\?month=${month.picker}$`));
      await expect(page.getByRole('heading', { name: label, level: 1 })).toBeVisible();
      await expect(page.getByText(`Total Records: ${counts[key]!.toLocaleString('en-US')}`, { exact: true })).toBeVisible();
      await expect(page.getByLabel('Received In')).toHaveValue(month.picker);
      if (counts[key]! > 0) await expect(rowsOf(page).first()).toBeVisible();
      // Without the month, the list counts every month again.
      await page.getByLabel('Received In').fill('');
      await expect(page).toHaveURL(new RegExp(`${path}$`));
    });
  }

  test('a slice of the pie opens its list for the month', async ({ signedIn: page }) => {
    await page.goto('/dashboard');
    const month = thisMonth();
    const counts = await api<Record<string, number>>(page, `/scrape/email/dashboard/count/?date=${month.api}`);
    await page.getByRole('group', { name: 'Read and unread emails' }).getByRole('link').nth(1).click();
    await expect(page).toHaveURL(new RegExp(`/unread-email\\?month=${month.picker}$`));
    await expect(page.getByText(`Total Records: ${counts.unread!.toLocaleString('en-US')}`, { exact: true })).toBeVisible();
  });
});

test.describe('/all-email', () => {
  test('pages, changes page size, filters, resets, keeps its state in the URL, and opens the JSON data', async ({ signedIn: page }) => {
    await page.goto('/all-email');
    const { count } = await api<{ count: number }>(page, '/scrape/email/to/json/pagination/');
    await expect(page.getByRole('heading', { name: `Total Records: ${count.toLocaleString('en-US')}` })).toBeVisible();
    const pages = Math.ceil(count / 10);
    await expect(page.getByText(`Page 1 of ${pages}`, { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'First' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Prev' })).toBeDisabled();
    await expect(rowsOf(page)).toHaveCount(10);

    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await expect(page.getByText(`Page 2 of ${pages}`, { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/page=2/);
    await page.getByRole('button', { name: 'Last', exact: true }).click();
    await expect(page.getByText(`Page ${pages} of ${pages}`, { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Next', exact: true })).toBeDisabled();
    await page.goBack();
    await expect(page.getByText(`Page 2 of ${pages}`, { exact: true })).toBeVisible();

    await page.getByRole('combobox', { name: 'Rows per page' }).selectOption('20');
    await expect(page.getByText(`Page 1 of ${Math.ceil(count / 20)}`, { exact: true })).toBeVisible();
    await expect(rowsOf(page)).toHaveCount(20);
    await expect(page.getByRole('option', { name: '20 per page' })).toBeAttached();

    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await page.getByLabel('Subject Name').fill('newsletter');
    await expect(page.getByText(/^Page 1 of/)).toBeVisible();
    const filtered = await api<{ count: number }>(page, '/scrape/email/to/json/pagination/?subject_name=newsletter');
    await expect(page.getByRole('heading', { name: `Total Records: ${filtered.count.toLocaleString('en-US')}` })).toBeVisible();
    for (const subject of await rowsOf(page).locator('td:nth-child(2)').allTextContents()) expect(subject.toLowerCase()).toContain('newsletter');

    await page.getByRole('button', { name: 'Reset Filters' }).click();
    await expect(page.getByRole('heading', { name: `Total Records: ${count.toLocaleString('en-US')}` })).toBeVisible();
    await expect(page.getByLabel('Subject Name')).toHaveValue('');

    const first = rowsOf(page).first();
    const subject = await first.locator('td:nth-child(2)').textContent();
    await first.getByRole('link', { name: /Show Data/ }).click();
    await expect(page).toHaveURL(/\/all-email\/\d+$/);
    await expect(page.getByRole('heading', { name: 'Email Data Table' })).toBeVisible();
    const id = page.url().split('/').pop();
    const [item] = await api<{ subject_name: string; json_load_data: object[] }[]>(page, `/scrape/email/to/json/data/${id}/`);
    expect(item!.subject_name).toBe(subject);
    await expect(rowsOf(page)).toHaveCount(Math.max(1, item!.json_load_data.length));
  });
});

const categories = [
  ['/ej-not-found', '/scrape/ejs/not/found/email/'],
  ['/same-subject', '/scrape/ejs/same/subject/email/'],
  ['/same-subject-processing', '/scrape/ejs/same/subject/email/processing/'],
  ['/email-ignored', '/scrape/ejs/ignore/email/data/'],
  ['/read-email', '/scrape/ejs/read/email/'],
  ['/unread-email', '/scrape/ejs/un/read/email/'],
  ['/get-all-email-data', '/scrape/ejs/total/email/'],
] as const;

for (const [path, endpoint] of categories) {
  test(`${path} pages, filters, changes page size and opens the right details`, async ({ signedIn: page }) => {
    await page.goto(path);
    const { count } = await api<{ count: number }>(page, endpoint);
    await expect(page.getByText(`Total Records: ${count.toLocaleString('en-US')}`, { exact: true })).toBeVisible();
    await expect(page.getByText(`Page 1 of ${Math.ceil(count / 10)}`, { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await expect(page.getByText(`Page 2 of ${Math.ceil(count / 10)}`, { exact: true })).toBeVisible();
    await page.getByRole('combobox', { name: 'Rows per page' }).selectOption('50');
    await expect(page.getByText(`Page 1 of ${Math.ceil(count / 50)}`, { exact: true })).toBeVisible();
    await expect(rowsOf(page)).toHaveCount(Math.min(50, count));

    const subject = (await rowsOf(page).nth(3).locator('td:nth-child(2)').textContent())!;
    const from = (await rowsOf(page).nth(3).locator('td:nth-child(1)').textContent())!;
    await page.getByLabel('Search Subject').fill(subject);
    await expect(page.getByText(/^Page 1 of 1$/)).toBeVisible();
    for (const text of await rowsOf(page).locator('td:nth-child(2)').allTextContents()) expect(text).toContain(subject);
    await rowsOf(page)
      .filter({ hasText: from })
      .first()
      .getByRole('link', { name: /Show Data/ })
      .click();
    await expect(page).toHaveURL(/\/email-details-data\/\d+$/);
    await expect(page.locator('dd').nth(1)).toHaveText(subject);
    await expect(page.locator('dd').nth(4)).toHaveText(from);
  });
}

test('a page past the end opens the last page, and the URL says so without a new history entry', async ({ signedIn: page }) => {
  await page.goto('/read-email');
  await expect(rowsOf(page).first()).toBeVisible();
  const { count } = await api<{ count: number }>(page, '/scrape/ejs/read/email/');
  const last = Math.ceil(count / 10);
  expect(last).toBeGreaterThan(1);
  await page.goto('/read-email?page=99999');
  await expect(page).toHaveURL(new RegExp(`[?&]page=${last}(&|$)`));
  await expect(page.getByText(`Page ${last} of ${last}`)).toBeVisible();
  await expect(rowsOf(page)).toHaveCount(count - (last - 1) * 10);
  await page.goBack();
  await expect(page).toHaveURL(/\/read-email$/);
});

test('a missing email or file says it was not found, with no Retry that could not help', async ({ signedIn: page }) => {
  await page.goto('/email-details-data/987654321');
  await expect(page.getByRole('alert').filter({ hasText: 'Email 987654321 was not found' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await page.goto('/text-email-data/987654321');
  await expect(page.getByRole('alert').filter({ hasText: 'File 987654321 was not found' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
});

test('the email data exports hold the rows the table shows', async ({ signedIn: page }) => {
  await page.goto('/data-email');
  await expect(page.getByRole('heading', { name: 'Email Data Table' })).toBeVisible();
  const headers = await page.getByRole('columnheader').allTextContents();
  const shown = await rowsOf(page).evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent ?? '')));
  expect(shown.length).toBeGreaterThan(100);
  expect(shown.flat()).toContain('N/A');

  const [csvFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export to CSV' }).click()]);
  expect(csvFile.suggestedFilename()).toBe('email_data.csv');
  // The CSV keeps dates as YYYY-MM-DD (any tool reads them); the table shows them DD/MM/YY.
  // Money columns keep their number too; the table shows it with two decimals and separators.
  const money = headers.map((h) => /amount|\bamt\b|overage|penalty/i.test(h));
  const asShown = (cell: string, at: number) =>
    money[at] && /^-?\d+(\.\d+)?$/.test(cell)
      ? Number(cell).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
      : cell.replace(/^(\d{2})(\d{2})-(\d{2})-(\d{2})$/, '$4/$3/$2');
  expect((await readCsv(csvFile)).map((row, i) => (i === 0 ? row : row.map(asShown)))).toEqual([headers, ...shown]);
  expect(shown.flat().some((cell) => /^\d{2}\/\d{2}\/\d{2}$/.test(cell))).toBe(true);

  const [xlsxFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export to Excel' }).click()]);
  expect(xlsxFile.suggestedFilename()).toBe('email_data.xlsx');
  const book = await readXlsx(xlsxFile, 'Email Data');
  expect(book.sheets).toEqual(['Email Data']);
  expect(book.rows.map((row, i) => (i === 0 ? row : row.map(asShown)))).toEqual([headers, ...shown]);
  // The date column is made of date cells.
  const dateColumn = headers.indexOf('Txn Date');
  const dates = book.cells
    .slice(1)
    .map((row) => row[dateColumn])
    .filter((cell) => cell !== 'N/A');
  expect(dates.length).toBeGreaterThan(100);
  expect(dates.every((cell) => cell instanceof Date)).toBe(true);
});

test('the email details exports hold the fields the page shows', async ({ signedIn: page }) => {
  await page.goto('/get-all-email-data');
  await rowsOf(page)
    .first()
    .getByRole('link', { name: /Show Data/ })
    .click();
  await expect(page.getByText('Loading email details...')).toBeHidden();
  const labels = await page.locator('dt').allTextContents();
  expect(labels).toEqual(['Email ID', 'Subject', 'Email Body', 'Email Body (HTML)', 'From', 'To', 'Received Date', 'Created At', 'Last Updated']);
  const id = page.url().split('/').pop()!;
  const email = await api<Record<string, string | number>>(page, `/scrape/email/body/html/text/data/${id}/`);
  const expected = [
    String(email.id),
    email.subject,
    email.email_body,
    email.email_body_html,
    email.from_email,
    email.to_email,
    email.date_time_of_email,
    email.create_at,
    email.update_at,
  ].map(String);

  const [csvFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export to CSV' }).click()]);
  expect(csvFile.suggestedFilename()).toBe('email_details.csv');
  expect(await readCsv(csvFile)).toEqual([labels, expected]);
  const [xlsxFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export to Excel' }).click()]);
  expect(xlsxFile.suggestedFilename()).toBe('email_details.xlsx');
  expect(await readXlsx(xlsxFile, 'EmailData')).toMatchObject({ sheets: ['EmailData'], rows: [labels, expected] });
});

test('an email’s hostile HTML is shown without running or fetching anything', async ({ signedIn: page }) => {
  const fetched: string[] = [];
  page.on('request', (request) => fetched.push(request.url()));
  await page.goto('/get-all-email-data?subject=Suspicious%20HTML%20sample');
  await rowsOf(page)
    .first()
    .getByRole('link', { name: /Show Data/ })
    .click();
  const frame = page.frameLocator('iframe[title^="Email body"]');
  await expect(frame.getByText('Please review the attached dispute.')).toBeVisible();
  await expect(frame.locator('script')).toHaveCount(0);
  await expect(frame.locator('[onerror]')).toHaveCount(0);
  await expect(frame.locator('a[href^="javascript"]')).toHaveCount(0);
  await expect(frame.locator('img[src*="tracker.invalid"]')).toHaveCount(0);
  await frame.getByText('Open the statement').click();
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => (window as { __ejdeskPwned?: string }).__ejdeskPwned)).toBeUndefined();
  expect(fetched.filter((url) => url.includes('tracker.invalid'))).toEqual([]);
  await expect(page.locator('iframe[title^="Email body"]')).toHaveAttribute('sandbox', '');
});
