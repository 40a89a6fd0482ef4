// Roles: an operator's console has no way into the admin lists, and the API refuses
// them; an admin's has both. The session survives a refusal (a 403 is not a logout).
import { adminEntries, demo, expect, test } from './fixtures.ts';

test('an operator sees no admin entries; a forced admin URL says so, and its API answers 403', async ({ signedIn: page }) => {
  await page.goto('/dashboard');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeVisible();
  for (const name of adminEntries) await expect(nav.getByRole('link', { name })).toHaveCount(0);

  await page.goto('/store-password-list');
  await expect(page.getByRole('heading', { level: 1, name: 'Not available' })).toBeVisible();
  await expect(page.getByText('The admin lists are for admins.')).toBeVisible();
  await expect(page).toHaveTitle('Not available — EJ Desk');

  const token = await page.evaluate(() => localStorage.getItem('token'));
  for (const [method, path] of [
    ['GET', '/api/scrape/store/password/list/'],
    ['GET', '/api/scrape/bank/msp/list/'],
    ['POST', '/api/scrape/store/password/1/reveal/'],
    ['POST', '/api/scrape/bank/msp/create/'],
    ['GET', '/api/admin/sender-mappings/'],
    ['POST', '/api/admin/ignore-rules/'],
    ['GET', '/api/admin/mailboxes/'],
    ['POST', '/api/admin/mailboxes/test/'],
    ['POST', '/api/admin/emails/1/reprocess/'],
  ] as const) {
    const response = await page.request.fetch(path, {
      method,
      headers: { authorization: `JWT ${token}` },
      ...(method === 'POST' ? { data: { msp: 'M', bank_name: 'B' } } : {}),
    });
    expect(response.status(), path).toBe(403);
    expect(await response.json()).toEqual({ detail: 'You do not have permission to perform this action.' });
  }
  // Still signed in: the rest of the console works.
  await nav.getByRole('link', { name: 'Email', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'EJ Error Data' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('isAuthenticated'))).toBe('true');
});

test('an admin sees and opens the admin lists', async ({ signedInAdmin: page }) => {
  await page.goto('/dashboard');
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const name of adminEntries) await expect(nav.getByRole('link', { name })).toBeVisible();
  await nav.getByRole('link', { name: 'Password List' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Password List' })).toBeVisible();
  await expect(page.getByRole('table').locator('tbody tr').first()).toBeVisible();
});

test('the operator account logs in through the form to a console without the admin entries', async ({ page }) => {
  await page.goto('/login');
  await page.getByPlaceholder('Enter your username').fill(demo.email);
  await page.getByPlaceholder('Enter your password').fill(demo.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Bank MSP List' })).toHaveCount(0);
});
