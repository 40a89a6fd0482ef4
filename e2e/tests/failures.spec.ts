// One message per failure, in words: inline for a load (with Retry), a toast only for an action.
// The messages on screen are counted: alerts (inline errors) and toasts together.
import type { Page } from '@playwright/test';
import { expect, rowsOf, test } from './fixtures.ts';

const toasts = (page: Page) => page.locator('[data-sonner-toast]');
const alerts = (page: Page) => page.getByRole('alert');

/** The messages showing once the failed request and its one retry have settled. */
async function messagesAfterSettling(page: Page): Promise<string[]> {
  // The query client retries a failed load once (about a second later): a toast or a second alert
  // from either attempt would show within this wait.
  await page.waitForTimeout(2_000);
  const texts = [...(await alerts(page).allInnerTexts()), ...(await toasts(page).allInnerTexts())];
  return texts.map((t) =>
    t
      .replace(/\s+/g, ' ')
      .replace(/ ?Retry$/, '')
      .trim(),
  );
}

test('a list whose server does not answer says so once, shows no made-up total, and Retry loads it', async ({ signedIn: page }) => {
  await page.route('**/api/scrape/email/to/json/pagination/**', (route) => route.abort('connectionrefused'));
  await page.goto('/all-email');
  await expect(alerts(page)).toContainText('The list could not be loaded: the server did not answer.');
  expect(await messagesAfterSettling(page)).toEqual(['The list could not be loaded: the server did not answer.']);
  // "Total Records: 0" would claim an empty list.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Total Records: —');

  await page.unroute('**/api/scrape/email/to/json/pagination/**');
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(rowsOf(page).first()).toBeVisible();
  await expect(alerts(page)).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Total Records: \d{1,3}(,\d{3})*$/);
});

test("a server error's own reason is the one message, with no status code or JSON", async ({ signedIn: page }) => {
  await page.route('**/api/scrape/extract/email/data/pagination/**', (route) =>
    route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ detail: 'The database is not reachable.' }) }),
  );
  await page.goto('/email');
  await expect(alerts(page)).toContainText('The EJ error data could not be loaded: The database is not reachable.');
  expect(await messagesAfterSettling(page)).toEqual(['The EJ error data could not be loaded: The database is not reachable.']);
  await expect(page.getByText('Total Records: —')).toBeVisible();
});

test('a failed export is one toast (an action), and the list stays as it was', async ({ signedIn: page }) => {
  await page.goto('/email');
  await expect(rowsOf(page).first()).toBeVisible();
  await page.route('**/api/scrape/extract/export/**', (route) => route.fulfill({ status: 500, body: 'Internal Server Error' }));
  await page.getByRole('button', { name: 'Export to CSV' }).click();
  await expect(toasts(page)).toHaveCount(1);
  expect(await messagesAfterSettling(page)).toEqual(['The export failed. Please try again.']);
  await expect(rowsOf(page).first()).toBeVisible();
});

test('a failed save is one message, in the form it belongs to', async ({ signedInAdmin: page }) => {
  await page.goto('/bank-msp-list');
  await page.route('**/api/scrape/bank/msp/create/', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: '{"detail":"Saving failed: the database is not reachable."}' }),
  );
  await page.getByRole('button', { name: 'Add Bank MSP' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New Bank MSP' });
  await dialog.getByLabel('MSP').fill('Atlas ATM Services');
  await dialog.getByLabel('Bank Name').fill('Orbit Bank');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Saving failed: the database is not reachable.');
  expect(await messagesAfterSettling(page)).toEqual(['Saving failed: the database is not reachable.']);
});
