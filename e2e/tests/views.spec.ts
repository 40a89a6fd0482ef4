// Saved views as operators keep them: the filters, order, page size and columns of a list under a
// name, kept by the server, so that they follow the operator to another machine; a view an admin
// shares shows in everyone's menu; a view whose filter the list no longer has says so.
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { api, dataHeaders, demo, demoAdmin, expect, rowsOf, signIn, test } from './fixtures.ts';

interface View {
  id: number;
  name: string;
  mine: boolean;
}

const viewsMenu = (page: Page) => page.getByRole('group', { name: /^Saved views of / });
const shownAtmIds = (page: Page) => rowsOf(page).evaluateAll((rows) => rows.map((row) => row.querySelector('td:not(.ej-tick)')?.textContent ?? ''));

/** Deletes the views an account saved (the other specs open these lists unfiltered, without a default). */
async function forgetViews(request: APIRequestContext, account: typeof demo) {
  const signedIn = await request.post('/api/auth/jwt/create/', { data: account });
  const headers = { authorization: `JWT ${((await signedIn.json()) as { access: string }).access}` };
  for (const list of ['email', 'all-email']) {
    const views = (await (await request.get(`/api/views/?list=${list}`, { headers })).json()) as View[];
    for (const view of views.filter((v) => v.mine)) expect((await request.delete(`/api/views/${view.id}/`, { headers })).status()).toBe(204);
  }
}
test.afterEach(async ({ request }) => {
  await forgetViews(request, demo);
  await forgetViews(request, demoAdmin);
});

// Two browsers and a logout each.
test.describe.configure({ timeout: 60_000 });

async function signedInElsewhere(browser: Browser, account = demo) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, account);
  return { context, page };
}

test('a view of /email with three filters and an order follows the operator to another machine, opened by default', async ({ signedIn: page, browser }) => {
  await page.goto('/email');
  // The first dispute's bank (its ATM IDs' prefix), sender and turnaround (other specs resolve many).
  const first = await api<{ results: { atm_id: string; mail_received_from: string; status: string }[] }>(
    page,
    '/scrape/extract/email/data/pagination/?page_size=1',
  );
  const { atm_id: atm, mail_received_from: sender, status } = first.results[0]!;
  const turnaround = status === 'resolved' ? 'Resolved' : 'Open';
  await page.getByLabel('ATM ID', { exact: true }).fill(atm.slice(0, 3));
  await page.getByLabel('Mail Received From', { exact: true }).fill(sender);
  await page.getByRole('button', { name: 'Apply Filters' }).click();
  await page.getByRole('group', { name: 'Turnaround' }).getByRole('button', { name: turnaround, exact: true }).click();
  await page.getByRole('columnheader', { name: 'Transaction Date' }).locator('button.ej-sort').click();
  await expect(page).toHaveURL(/ordering=transaction_date/);
  await page.getByRole('button', { name: 'Columns' }).click();
  await page.getByRole('checkbox', { name: 'Mail Subject' }).uncheck();
  await page.keyboard.press('Escape');
  await expect(rowsOf(page).first()).toBeVisible();
  const rows = await shownAtmIds(page);
  expect(rows.length).toBeGreaterThan(0);
  const url = new URL(page.url());

  await page.getByRole('button', { name: 'Views' }).click();
  await expect(viewsMenu(page)).toContainText('No saved views yet');
  await viewsMenu(page).getByRole('button', { name: 'Save view…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save a view of EJ error data' });
  // An operator cannot share: the box is not offered.
  await expect(dialog.getByRole('checkbox', { name: 'Shared with everyone' })).toHaveCount(0);
  await dialog.getByLabel('Name').fill('Open at my bank');
  await dialog.getByRole('checkbox', { name: 'Open EJ error data with this view' }).check();
  await dialog.getByRole('button', { name: 'Save view' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'View: Open at my bank' })).toBeVisible();

  // A second view of the same name is refused in the dialog, which keeps what was typed.
  await page.getByRole('button', { name: 'View: Open at my bank' }).click();
  await viewsMenu(page).getByRole('button', { name: 'Save view…' }).click();
  await dialog.getByLabel('Name').fill('Open at my bank');
  await dialog.getByRole('button', { name: 'Save view' }).click();
  await expect(dialog.getByRole('alert')).toContainText('You already have a view of that name on this list');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);

  // Another machine: no local state at all. /email without a query opens the default view.
  const elsewhere = await signedInElsewhere(browser);
  try {
    await elsewhere.page.goto('/email');
    await expect(elsewhere.page).toHaveURL(/atm_id=/);
    const opened = new URL(elsewhere.page.url());
    for (const name of ['atm_id', 'mail_received_from', 'tat', 'ordering']) expect(opened.searchParams.get(name)).toBe(url.searchParams.get(name));
    await expect(elsewhere.page.getByRole('button', { name: turnaround, pressed: true })).toBeVisible();
    await expect.poll(() => shownAtmIds(elsewhere.page)).toEqual(rows);
    await expect(dataHeaders(elsewhere.page).filter({ hasText: 'Mail Subject' })).toHaveCount(0);
    await expect(elsewhere.page.getByRole('button', { name: 'View: Open at my bank' })).toBeVisible();
    expect((await new AxeBuilder({ page: elsewhere.page }).include('.ej-views').analyze()).violations).toEqual([]);

    // Cleared stays cleared (the order is no filter): the default opens with the list, not after every clear.
    await elsewhere.page.getByRole('button', { name: 'Clear' }).click();
    await expect(elsewhere.page).toHaveURL(/\/email\?ordering=transaction_date$/);
    await expect(elsewhere.page.getByRole('button', { name: 'Views' })).toBeVisible();

    // Deleted, after a confirmation.
    await elsewhere.page.getByRole('button', { name: 'Views' }).click();
    await viewsMenu(elsewhere.page).getByRole('button', { name: 'Delete Open at my bank' }).click();
    await elsewhere.page.getByRole('dialog', { name: 'Delete “Open at my bank”?' }).getByRole('button', { name: 'Delete view' }).click();
    await expect.poll(async () => (await api<View[]>(elsewhere.page, '/views/?list=email')).length).toBe(0);
  } finally {
    await elsewhere.context.close();
  }
});

test('a view an admin shares shows in an operator’s menu and opens the same rows; a filter the list lost is named', async ({
  signedInAdmin: page,
  browser,
}) => {
  await page.goto('/all-email?subject_name=HRB&page_size=20&ordering=create_at');
  await expect(rowsOf(page).first()).toBeVisible();
  const operator = await signedInElsewhere(browser);
  try {
    await page.getByRole('button', { name: 'Views' }).click();
    await viewsMenu(page).getByRole('button', { name: 'Save view…' }).click();
    const dialog = page.getByRole('dialog', { name: /^Save a view of / });
    await dialog.getByLabel('Name').fill('HRB, oldest first');
    await dialog.getByRole('checkbox', { name: 'Shared with everyone' }).check();
    await dialog.getByRole('button', { name: 'Save view' }).click();
    await expect(dialog).toBeHidden();
    const adminRows = await rowsOf(page)
      .getByRole('link')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')));

    await operator.page.goto('/all-email');
    await operator.page.getByRole('button', { name: 'Views' }).click();
    const menu = viewsMenu(operator.page);
    await expect(menu.getByRole('listitem')).toHaveCount(1);
    await expect(menu.getByRole('listitem')).toContainText(`Shared by ${demoAdmin.email}`);
    // Not theirs to change: only "Make default" is offered.
    await expect(menu.getByRole('button', { name: 'Rename HRB, oldest first' })).toHaveCount(0);
    await menu.getByRole('link', { name: 'HRB, oldest first' }).click();
    await expect(operator.page).toHaveURL(/subject_name=HRB/);
    await expect(operator.page).toHaveURL(/page_size=20/);
    await expect
      .poll(() =>
        rowsOf(operator.page)
          .getByRole('link')
          .evaluateAll((links) => links.map((a) => a.getAttribute('href'))),
      )
      .toEqual(adminRows);

    // A view saved with a filter the list no longer reads opens with the rest and says what went.
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const made = await page.request.post('/api/views/', {
      headers: { authorization: `JWT ${token}` },
      data: { list: 'all-email', name: 'Old filter', query: 'subject_name=HRB&retired_filter=x', shared: true },
    });
    expect(made.status()).toBe(201);
    await operator.page.reload();
    await operator.page.getByRole('button', { name: /^View: |^Views$/ }).click();
    await viewsMenu(operator.page).getByRole('link', { name: 'Old filter' }).click();
    await expect(operator.page.getByRole('status').filter({ hasText: 'Old filter' })).toContainText('opened without the filter "retired_filter"');
    await expect(operator.page).not.toHaveURL(/retired_filter/);
    await expect(operator.page).toHaveURL(/subject_name=HRB/);
  } finally {
    await operator.context.close();
  }
});
