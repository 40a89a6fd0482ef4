// The lists by keyboard: `/` to the first filter and Escape back to the rows, arrows and j / k
// between rows, Enter opens one, Back returns to it with the focus kept, `[` and `]` page, `?`
// lists the keys. Each step is checked where the browser has its focus, as a screen reader would.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { api, expect, rowsOf, test } from './fixtures.ts';

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
  await expect(page.getByLabel('Start Date', { exact: true })).toBeFocused();
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

/** Presses Tab until the focused element is the one `is` picks (as a keyboard user would). */
async function tabTo(page: Page, is: (el: Element) => boolean, what: string, most = 80) {
  const test = `(${is.toString()})`;
  for (let i = 0; i < most; i++) {
    if (await page.evaluate((t) => !!document.activeElement && (0, eval)(t)(document.activeElement), test)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`${what} not reached in ${most} presses of Tab`);
}

const statusOf = (page: Page, ids: number[]) => Promise.all(ids.map(async (id) => (await api<{ status: string }>(page, `/disputes/${id}/`)).status));

test('the dispute loop by keyboard alone: Breached by days late, tick three, set, undo, then Save and next twice', async ({ signedIn: page }) => {
  // The dashboard of a month with breached disputes (the demo's data spreads over a year).
  await page.goto('/email');
  const latest = await api<{ results: { transaction_date: string }[] }>(
    page,
    '/scrape/extract/email/data/pagination/?tat=breached&ordering=-days_late&page_size=1',
  );
  await page.goto(`/dashboard?dispute_month=${latest.results[0]!.transaction_date.slice(0, 7)}`);
  await expect(page.getByRole('region', { name: 'Disputes' })).toBeVisible();
  await tabTo(page, (el) => el.textContent?.includes('Breached (past the due date)') ?? false, 'the Breached figure');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/email\?tat=breached.*ordering=-days_late/);
  await expect(rowsOf(page).locator('.ej-skeleton')).toHaveCount(0);
  await expect(rowsOf(page).first()).toContainText('Breached');

  // The rows are ready: j takes the keyboard to the first.
  await page.keyboard.press('j');
  expect(await focusedRow(page)).toBe(0);
  const ids = await rowsOf(page).evaluateAll((rows) =>
    rows.slice(0, 3).map((r) => Number(r.querySelector('a[href^="/disputes/"]')!.getAttribute('href')!.split('/').pop())),
  );
  await page.keyboard.press('x');
  await page.keyboard.press('j');
  await page.keyboard.press('Shift+J');
  await page.keyboard.press('Shift+ArrowUp');
  expect(await focusedRow(page)).toBe(1);
  // x, then Shift+j: rows 1 to 3 ticked; the box of each says so.
  await expect(page.getByRole('button', { name: 'Set status of 3 selected…' })).toBeVisible();
  for (const at of [0, 1, 2]) await expect(rowsOf(page).nth(at).getByRole('checkbox')).toBeChecked();
  await expect(page.getByRole('button', { name: 'Export 3 ticked to CSV' })).toBeVisible();

  // s: Set status of the ticked rows; nothing is chosen for the operator.
  await page.keyboard.press('s');
  const dialog = page.getByRole('dialog', { name: 'Set the status of 3 selected disputes' });
  await expect(dialog).toBeVisible();
  expect((await new AxeBuilder({ page }).include('dialog').analyze()).violations).toEqual([]);
  await tabTo(page, (el) => el.getAttribute('name') === 'status', 'the Status field');
  await page.keyboard.type('Awaiting');
  await expect(dialog.getByLabel('Status', { exact: true })).toHaveValue('awaiting_msp');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Asked the MSP for the EJ');
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Set the status of 3 disputes' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Status set to awaiting msp for 3 disputes.')).toBeVisible();
  expect(await statusOf(page, ids)).toEqual(['awaiting_msp', 'awaiting_msp', 'awaiting_msp']);
  // The focus is back on the rows, and u undoes the change (the toast's Undo is not needed).
  expect(await focusedRow(page)).toBe(1);
  await page.keyboard.press('u');
  await expect(page.getByText('Undone: 3 disputes have the status they had.')).toBeVisible();
  expect(await statusOf(page, ids)).toEqual(['open', 'open', 'open']);
  await page.screenshot({ path: '.artifacts/keyboard-loop-list.png' });

  // Enter on the first row opens its dispute; Save and next twice walks the list.
  await page.keyboard.press('Home');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/disputes/${ids[0]}$`));
  await expect(page.getByText(/Dispute 1 of \d+ on page 1/)).toBeVisible();
  expect((await new AxeBuilder({ page }).include('main').analyze()).violations).toEqual([]);
  for (const [from, to] of [
    [ids[0]!, ids[1]!],
    [ids[1]!, ids[2]!],
  ]) {
    await expect(page).toHaveURL(new RegExp(`/disputes/${from}$`));
    await tabTo(page, (el) => el.getAttribute('name') === 'status', 'the Status field');
    await page.keyboard.type('Awaiting');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Chased the MSP by keyboard');
    await tabTo(page, (el) => el.textContent === 'Save and next', 'Save and next');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/disputes/${to}$`));
  }
  await page.screenshot({ path: '.artifacts/keyboard-loop-dispute.png' });
  expect(await statusOf(page, ids)).toEqual(['awaiting_msp', 'awaiting_msp', 'open']);
  // [ goes back one; Back to the list returns to the list as it was.
  await page.keyboard.press('[');
  await expect(page).toHaveURL(new RegExp(`/disputes/${ids[1]}$`));
  await tabTo(page, (el) => el.textContent === '← Back to the list', 'Back to the list');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/email\?tat=breached.*ordering=-days_late/);
});
