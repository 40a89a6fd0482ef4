// Filters as operators use them: applied ones as removable chips, Clear, typed-but-not-applied
// shown as such, and a value still waiting for a pause in typing never undoing a later action.
import type { Page } from '@playwright/test';
import { api, expect, rowsOf, test } from './fixtures.ts';

const chips = (page: Page) => page.getByRole('group', { name: 'Applied filters' });

test('a category list shows its applied filters as chips; each removes its filter, Clear removes all', async ({ signedIn: page }) => {
  await page.goto('/ej-not-found');
  await expect(chips(page)).toHaveText('No filters applied');
  const all = await api<{ count: number }>(page, '/scrape/ejs/not/found/email/');
  const filtered = await api<{ count: number }>(page, '/scrape/ejs/not/found/email/?subject=HRB');
  expect(filtered.count).toBeLessThan(all.count);

  await page.getByLabel('Search Subject').fill('HRB');
  await expect(chips(page).getByRole('listitem')).toHaveText(['Search Subject: HRB, remove filter×']);
  await expect(page).toHaveURL(/[?&]subject=HRB/);
  await expect(page.getByText(`Total Records: ${filtered.count.toLocaleString('en-US')}`, { exact: true })).toBeVisible();

  await chips(page)
    .getByRole('button', { name: /^Search Subject: HRB ?, remove filter$/ })
    .click();
  await expect(chips(page)).toHaveText('No filters applied');
  await expect(page.getByLabel('Search Subject')).toHaveValue('');
  await expect(page.getByText(`Total Records: ${all.count.toLocaleString('en-US')}`, { exact: true })).toBeVisible();

  const now = new Date();
  const month = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;
  await page.getByLabel('Search Subject').fill('HRB');
  await page.getByLabel('Received In').fill(month);
  await expect(chips(page).getByRole('listitem')).toHaveCount(2);
  await expect(chips(page).getByRole('listitem').nth(1)).toContainText(`Received In: ${now.toLocaleString('en', { month: 'short' })} ${now.getFullYear()}`);
  await chips(page).getByRole('button', { name: 'Clear' }).click();
  await expect(chips(page)).toHaveText('No filters applied');
  await expect(page).toHaveURL(/\/ej-not-found$/);
  await expect(page.getByText(`Total Records: ${all.count.toLocaleString('en-US')}`, { exact: true })).toBeVisible();
});

test('/email says which filters are typed but not applied, shows the applied ones, and clears them', async ({ signedIn: page }) => {
  await page.goto('/email');
  await expect(rowsOf(page).first()).toBeVisible();
  await page.getByLabel('ATM ID', { exact: true }).fill('HRB');
  await expect(page.getByRole('status').filter({ hasText: 'Typed, not applied yet' })).toHaveText(
    'Typed, not applied yet: ATM ID. Press Apply Filters to apply.',
  );
  await expect(chips(page)).toHaveText('No filters applied');
  await expect(page).toHaveURL(/\/email$/);

  await page.getByRole('button', { name: 'Apply Filters' }).click();
  await expect(chips(page).getByRole('listitem')).toHaveText(['ATM ID: HRB, remove filter×']);
  await expect(page.getByText('Typed, not applied yet')).toHaveCount(0);
  const filtered = await api<{ count: number }>(page, '/scrape/extract/email/data/pagination/?atm_id=HRB');
  await expect(page.getByText(`Total Records: ${filtered.count.toLocaleString('en-US')}`, { exact: true })).toBeVisible();

  await chips(page).getByRole('button', { name: 'Clear' }).click();
  await expect(chips(page)).toHaveText('No filters applied');
  await expect(page.getByLabel('ATM ID', { exact: true })).toHaveValue('');
  await expect(page).toHaveURL(/\/email$/);
});

test('Reset Filters pressed while a typed filter waits for its pause: the filter does not come back', async ({ signedIn: page }) => {
  await page.goto('/all-email');
  const all = await api<{ count: number }>(page, '/scrape/email/to/json/pagination/');
  await expect(page.getByRole('heading', { name: `Total Records: ${all.count.toLocaleString('en-US')}` })).toBeVisible();
  await page.getByLabel('Subject Name').pressSequentially('no such subject', { delay: 0 });
  await page.getByRole('button', { name: 'Reset Filters' }).click();
  // Past the 300 ms pause: a stale timer would apply the typed text now.
  await page.waitForTimeout(800);
  await expect(page).toHaveURL(/\/all-email$/);
  await expect(page.getByLabel('Subject Name')).toHaveValue('');
  await expect(page.getByRole('heading', { name: `Total Records: ${all.count.toLocaleString('en-US')}` })).toBeVisible();
  await expect(chips(page)).toHaveText('No filters applied');
});

test('a page size chosen while a typed filter waits: both apply, neither undoes the other', async ({ signedIn: page }) => {
  await page.goto('/all-email');
  await expect(rowsOf(page).first()).toBeVisible();
  const filtered = await api<{ count: number }>(page, '/scrape/email/to/json/pagination/?subject_name=dispute');
  expect(filtered.count).toBeGreaterThan(20);
  await page.getByLabel('Subject Name').pressSequentially('dispute', { delay: 0 });
  await page.getByRole('combobox', { name: 'Rows per page' }).selectOption('20');
  await page.waitForTimeout(800);
  await expect(page).toHaveURL(/page_size=20/);
  await expect(page).toHaveURL(/subject_name=dispute/);
  await expect(page.getByRole('combobox', { name: 'Rows per page' })).toHaveValue('20');
  await expect(page.getByRole('heading', { name: `Total Records: ${filtered.count.toLocaleString('en-US')}` })).toBeVisible();
  await expect(rowsOf(page)).toHaveCount(20);
});

test('typed filter, 20 per page and Next in quick succession: the filter, the size and page 2 all stay', async ({ signedIn: page }) => {
  await page.goto('/all-email');
  await expect(rowsOf(page).first()).toBeVisible();
  const filtered = await api<{ count: number; results: { id: number }[] }>(page, '/scrape/email/to/json/pagination/?email_from=example&page_size=20&page=2');
  expect(filtered.count).toBeGreaterThan(40);
  await page.getByLabel('Email From').pressSequentially('example', { delay: 0 });
  await page.getByRole('combobox', { name: 'Rows per page' }).selectOption('20');
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  // Past the 300 ms pause: a timer still holding the filter would send the list back to page 1.
  await page.waitForTimeout(800);
  await expect(page).toHaveURL(/email_from=example/);
  await expect(page).toHaveURL(/page_size=20/);
  await expect(page).toHaveURL(/[?&]page=2(&|$)/);
  await expect(page.getByLabel('Email From')).toHaveValue('example');
  await expect(page.getByText(`Page 2 of ${Math.ceil(filtered.count / 20)}`, { exact: true })).toBeVisible();
  await expect
    .poll(() =>
      rowsOf(page)
        .getByRole('link')
        .evaluateAll((links) => links.map((a) => Number(a.getAttribute('href')!.split('/').pop()))),
    )
    .toEqual(filtered.results.map((r) => r.id));
});
