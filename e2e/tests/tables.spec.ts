// Wide tables as operators read them: the header stays in view while the rows scroll, and the
// first column (ATM ID on /email) stays at the left while the 16 columns scroll sideways.
import { api, expect, rowsOf, test } from './fixtures.ts';

test('the EJ table keeps its header and its ATM ID column in view while it scrolls', async ({ signedIn: page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/email?page_size=100');
  await expect(rowsOf(page)).toHaveCount(100);
  const box = page.getByRole('region', { name: 'EJ error data' });
  const header = page.getByRole('columnheader', { name: 'ATM ID' });
  const lastHeader = page.getByRole('columnheader').last();
  const firstCell = rowsOf(page).nth(45).locator('td').first(); // in view after 1,500 px (36 px rows)

  // The box scrolls, not the page: 100 rows are far taller than the window.
  const scrollable = await box.evaluate((el) => ({ height: el.scrollHeight - el.clientHeight, width: el.scrollWidth - el.clientWidth }));
  expect(scrollable.height).toBeGreaterThan(1500);
  expect(scrollable.width).toBeGreaterThan(200);

  const boxTop = (await box.boundingBox())!.y;
  await box.evaluate((el) => el.scrollBy(0, 1500));
  await expect.poll(async () => Math.round((await header.boundingBox())!.y - boxTop)).toBe(0);

  const boxLeft = (await box.boundingBox())!.x;
  await box.evaluate((el) => el.scrollBy(10_000, 0));
  await expect.poll(async () => Math.round((await firstCell.boundingBox())!.x - boxLeft)).toBeLessThanOrEqual(1);
  await expect(firstCell).toBeInViewport();
  // The last column came into view beside the pinned one.
  await expect(lastHeader).toBeInViewport();
  await expect(header).toBeInViewport();
});

for (const [path, endpoint] of [
  ['/all-email', '/scrape/email/to/json/pagination/'],
  ['/text-email-data', '/scrape/text/email/data/pagination/'],
] as const) {
  test(`${path} sorts by its date header both ways, the order in the URL and aria-sort, as the API orders it`, async ({ signedIn: page }) => {
    await page.goto(path);
    const header = page.getByRole('columnheader', { name: 'Data Creation' });
    const shownIds = () => rowsOf(page).getByRole('link').evaluateAll((links) => links.map((a) => Number(a.getAttribute('href')!.split('/').pop())));
    await expect(header).toHaveAttribute('aria-sort', 'descending');
    const newest = await api<{ results: { id: number }[] }>(page, `${endpoint}?ordering=-create_at`);
    await expect.poll(shownIds).toEqual(newest.results.map((r) => r.id));

    await header.getByRole('button').click();
    await expect(page).toHaveURL(/[?&]ordering=create_at(&|$)/);
    await expect(header).toHaveAttribute('aria-sort', 'ascending');
    const oldest = await api<{ results: { id: number }[] }>(page, `${endpoint}?ordering=create_at`);
    await expect.poll(shownIds).toEqual(oldest.results.map((r) => r.id));
    expect(oldest.results[0]!.id).not.toBe(newest.results[0]!.id);
    // The order survives paging, and the back button returns to it.
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page).toHaveURL(/ordering=create_at/);
    await page.goBack();

    await header.getByRole('button').click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(header).toHaveAttribute('aria-sort', 'descending');
    await expect.poll(shownIds).toEqual(newest.results.map((r) => r.id));
  });
}

test('/email sorts by amount, date and ATM ID headers both ways, as the API orders them, with a filter too', async ({ signedIn: page }) => {
  await page.goto('/email?page_size=20');
  const shownAtms = () => rowsOf(page).evaluateAll((rows) => rows.map((r) => r.querySelector('td')!.textContent!.trim()));
  const apiAtms = async (query: string) =>
    (await api<{ results: { atm_id: string }[] }>(page, `/scrape/extract/email/data/pagination/?page_size=20&${query}`)).results.map((r) => r.atm_id);
  // Newest extracted first: no column claims the order.
  await expect(page.locator('th[aria-sort="ascending"], th[aria-sort="descending"]')).toHaveCount(0);
  await expect.poll(shownAtms).toEqual(await apiAtms(''));

  for (const [name, field] of [
    ['Transaction Amt.', 'transaction_amt'],
    ['Transaction Date', 'transaction_date'],
    ['ATM ID', 'atm_id'],
  ] as const) {
    const header = page.getByRole('columnheader', { name, exact: true });
    await header.getByRole('button').click();
    await expect(page).toHaveURL(new RegExp(`[?&]ordering=${field}(&|$)`));
    await expect(header).toHaveAttribute('aria-sort', 'ascending');
    await expect.poll(shownAtms).toEqual(await apiAtms(`ordering=${field}`));
    await header.getByRole('button').click();
    await expect(page).toHaveURL(new RegExp(`[?&]ordering=-${field}(&|$)`));
    await expect(header).toHaveAttribute('aria-sort', 'descending');
    await expect.poll(shownAtms).toEqual(await apiAtms(`ordering=-${field}`));
  }
  // A filter keeps the order, and the order keeps the filter.
  await page.getByLabel('Bank Name', { exact: true }).fill('harbor');
  await page.getByRole('button', { name: 'Apply Filters' }).click();
  await expect(page).toHaveURL(/bank_name=harbor/);
  await expect(page).toHaveURL(/ordering=-atm_id/);
  await expect.poll(shownAtms).toEqual(await apiAtms('bank_name=harbor&ordering=-atm_id'));
});

test('/overage sorts in the browser by its amount header, the order in the URL', async ({ signedIn: page }) => {
  await page.goto('/overage');
  const header = page.getByRole('columnheader', { name: 'Transaction Amt.', exact: true });
  await expect(rowsOf(page).first()).toBeVisible();
  const column = await page.getByRole('columnheader').evaluateAll((ths) => ths.findIndex((th) => th.textContent === 'Transaction Amt.'));
  const shownAmounts = () =>
    rowsOf(page).evaluateAll(
      (rows, i) => rows.flatMap((r) => [r.querySelectorAll('td')[i]?.textContent?.replace(/,/g, '') ?? '']).filter((t) => t !== '').map(Number),
      column,
    );
  await header.getByRole('button').click();
  await expect(page).toHaveURL(/[?&]ordering=transaction_amt(&|$)/);
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  const ascending = await shownAmounts();
  expect(ascending.length).toBeGreaterThan(1);
  expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  const descending = await shownAmounts();
  expect(descending).toEqual([...descending].sort((a, b) => b - a));
  expect(descending[0]).toBeGreaterThan(ascending[0]!);
});

test('long EJ text is cut to one line with the whole on hover, and an ATM ID copies with one click', async ({ signedIn: page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/email');
  const row = rowsOf(page).first();
  await expect(row).toBeVisible();
  // The cut cells carry their whole text, and none is taller than one line.
  const cut = row.locator('span.ej-cut').first();
  const whole = await cut.getAttribute('title');
  expect(whole && whole.length).toBeTruthy();
  await expect(cut).toHaveText(whole!);
  const rowHeight = (await row.boundingBox())!.height;
  expect(rowHeight).toBeLessThan(48);

  const atm = (await row.locator('td').first().textContent())!;
  expect(atm).toMatch(/^[A-Z]{3}\d+$/);
  await row.hover();
  await row.getByRole('button', { name: `Copy ATM ID ${atm}` }).click();
  await expect(row.getByRole('button', { name: `Copied ATM ID ${atm}` })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(atm);
});
