// The lists by keyboard: `/` to the first filter and Escape back to the rows, arrows and j / k
// between rows, Enter opens one, Back returns to it with the focus kept, `[` and `]` page, `?`
// lists the keys. Each step is checked where the browser has its focus, as a screen reader would.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, rowsOf, test } from './fixtures.ts';

/** Which row of the table has the focus (-1: none). */
const focusedRow = (page: Page) =>
  page.evaluate(() => {
    const row = document.activeElement?.closest('tbody tr');
    return row ? [...row.parentElement!.children].indexOf(row) : -1;
  });

test('an operator walks /all-email by keyboard: down three rows, Enter opens the third, Back returns with the focus kept', async ({ signedIn: page }) => {
  await page.goto('/all-email');
  // Loaded rows, not the skeleton's.
  await expect(rowsOf(page).getByRole('link')).toHaveCount(10);
  const links = await rowsOf(page)
    .getByRole('link')
    .evaluateAll((all) => all.map((a) => a.getAttribute('href')));

  await page.keyboard.press('/');
  await expect(page.getByLabel('Subject Name')).toBeFocused();
  await page.keyboard.press('Escape');
  expect(await focusedRow(page)).toBe(0);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('j');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('k');
  expect(await focusedRow(page)).toBe(2);
  // One row in the tab order: the focused one.
  await expect(rowsOf(page).and(page.locator('[tabindex="0"]'))).toHaveCount(1);
  expect((await new AxeBuilder({ page }).include('.ej-card').analyze()).violations).toEqual([]);

  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`${links[2]!.replace(/[/?]/g, '\\$&')}$`));
  await page.goBack();
  await expect(page).toHaveURL(/\/all-email$/);
  await expect.poll(() => focusedRow(page)).toBe(2);

  // Pages: ] and [ (the page in the URL), not while typing in a filter.
  await page.keyboard.press(']');
  await expect(page).toHaveURL(/[?&]page=2/);
  await expect(page.getByText(/^Page 2 of/)).toBeVisible();
  await page.keyboard.press('[');
  await expect(page).toHaveURL(/\/all-email$/);
  await page.getByLabel('Subject Name').focus();
  await page.keyboard.press(']');
  await expect(page.getByLabel('Subject Name')).toHaveValue(']');
  await expect(page).not.toHaveURL(/page=2/);
  await page.getByLabel('Subject Name').fill('');
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/\/all-email$/);

  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard' });
  await expect(help).toContainText('Open the row');
  expect((await new AxeBuilder({ page }).include('dialog').analyze()).violations).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
});

test('/email’s rows open their dispute’s story by Enter', async ({ signedIn: page }) => {
  await page.goto('/email');
  await expect(rowsOf(page)).toHaveCount(10);
  await expect(rowsOf(page).locator('.ej-skeleton')).toHaveCount(0);
  await page.keyboard.press('/');
  await expect(page.getByLabel('Start Date')).toBeFocused();
  await page.keyboard.press('Escape');
  // The last row with a dispute (a row without one has no story to open).
  const withStory = await rowsOf(page).evaluateAll((rows) => rows.map((row) => row.querySelector('a[href^="/disputes/"]') !== null).lastIndexOf(true));
  expect(withStory).toBeGreaterThan(0);
  await page.keyboard.press('End');
  expect(await focusedRow(page)).toBe(9);
  for (let at = 9; at > withStory; at--) await page.keyboard.press('ArrowUp');
  expect(await focusedRow(page)).toBe(withStory);
  const story = await rowsOf(page).nth(withStory).locator('a[href^="/disputes/"]').getAttribute('href');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`${story}$`));
  await page.goBack();
  await expect.poll(() => focusedRow(page)).toBe(withStory);
});
