import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

interface ListCase {
  path: string;
  heading: string;
  add: string;
  modal: string;
  headers: string[];
  fields: Record<string, string>;
  duplicate: Record<string, string>;
  duplicateMessage: string;
}

const lists: ListCase[] = [
  {
    path: '/store-password-list',
    heading: 'Password List',
    add: 'Add Password',
    modal: 'Add New Password',
    headers: ['Bank Name', 'Password', 'Created At', 'Updated At', 'Actions'],
    fields: { 'Bank Name': `E2E Bank ${Date.now()}`, 'Bank Password': 'e2e-Secret#1' },
    duplicate: { 'Bank Name': 'Harbor Bank', 'Bank Password': 'x' },
    duplicateMessage: "A password for bank 'Harbor Bank' is already stored.",
  },
  {
    path: '/bank-msp-list',
    heading: 'Bank MSP List',
    add: 'Add Bank MSP',
    modal: 'Add New Bank MSP',
    headers: ['MSP', 'Bank Name', 'Created At', 'Updated At', 'Actions'],
    fields: { MSP: `E2E MSP ${Date.now()}`, 'Bank Name': 'Harbor Bank' },
    duplicate: { MSP: 'Atlas ATM Services', 'Bank Name': 'Apex Bank' },
    duplicateMessage: "Bank 'Apex Bank' is already mapped to MSP 'Atlas ATM Services'.",
  },
];

async function fill(page: Page, fields: Record<string, string>) {
  for (const [label, value] of Object.entries(fields)) await page.getByRole('dialog').getByLabel(label).fill(value);
}

for (const list of lists) {
  test.describe(list.heading, () => {
    test.beforeEach(async ({ signedInAdmin: page }) => {
      await page.goto(list.path);
      await expect(page.getByRole('heading', { name: list.heading })).toBeVisible();
      await expect(page.getByRole('table').getByRole('row')).not.toHaveCount(1);
    });

    test('shows its columns, and adds a row that appears after the list reloads', async ({ page }) => {
      await expect(page.getByRole('columnheader')).toHaveText(list.headers);
      await page.getByRole('button', { name: list.add }).click();
      const dialog = page.getByRole('dialog', { name: list.modal });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('button')).toHaveText(['Cancel', 'Submit']);
      await fill(page, list.fields);
      await dialog.getByRole('button', { name: 'Submit' }).click();
      await expect(dialog).toBeHidden();
      const first = Object.values(list.fields)[0]!;
      await expect(page.getByRole('row', { name: new RegExp(first) })).toBeVisible();
      // Reopened, the form is empty again.
      await page.getByRole('button', { name: list.add }).click();
      for (const label of Object.keys(list.fields)) await expect(dialog.getByLabel(label)).toHaveValue('');
    });

    test('Cancel closes the modal and clears it; nothing is stored', async ({ page }) => {
      const rows = await page.getByRole('row').count();
      await page.getByRole('button', { name: list.add }).click();
      await fill(page, { [Object.keys(list.fields)[0]!]: 'Typed then cancelled' });
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
      await expect(page.getByRole('dialog')).toBeHidden();
      await expect(page.getByRole('row')).toHaveCount(rows);
      await page.getByRole('button', { name: list.add }).click();
      await expect(page.getByRole('dialog').getByLabel(Object.keys(list.fields)[0]!)).toHaveValue('');
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toBeHidden();
    });

    test('a failed create keeps the modal open with the reason and the typed values', async ({ page }) => {
      await page.getByRole('button', { name: list.add }).click();
      await fill(page, list.duplicate);
      await page.getByRole('dialog').getByRole('button', { name: 'Submit' }).click();
      const dialog = page.getByRole('dialog', { name: list.modal });
      await expect(dialog.getByRole('alert')).toHaveText(list.duplicateMessage);
      await expect(dialog).toBeVisible();
      for (const [label, value] of Object.entries(list.duplicate)) await expect(dialog.getByLabel(label)).toHaveValue(value);
    });
  });
}

test('stored passwords are masked, and shown one row at a time on request', async ({ signedInAdmin: page }) => {
  await page.goto('/store-password-list');
  const row = page.getByRole('row', { name: /Harbor Bank/ });
  await expect(row).toContainText('••••••••');
  await expect(page.getByText('HRB@2026')).toHaveCount(0);
  await row.getByRole('button', { name: 'Show password for Harbor Bank' }).click();
  // The reveal asks why; the reason goes to the audit log with it.
  const dialog = page.getByRole('dialog', { name: 'Show the password for Harbor Bank' });
  const show = dialog.getByRole('button', { name: 'Show password' });
  await expect(show).toBeDisabled();
  const revealed = page.waitForRequest((r) => r.url().includes('/reveal/'));
  await dialog.getByLabel('Reason (kept in the audit log)').fill('Opening the March statement');
  await show.click();
  expect((await revealed).postDataJSON()).toEqual({ reason: 'Opening the March statement' });
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('HRB@');
  await expect(page.getByRole('row', { name: /Apex Bank/ })).toContainText('••••••••');
  await row.getByRole('button', { name: 'Hide password for Harbor Bank' }).click();
  await expect(row).toContainText('••••••••');

  // A reveal that fails says why in its dialog, once, and shows nothing.
  await page.route('**/reveal/', (route) =>
    route.fulfill({ status: 503, contentType: 'application/json', body: '{"detail":"The database is not reachable."}' }),
  );
  await row.getByRole('button', { name: 'Show password for Harbor Bank' }).click();
  await dialog.getByLabel('Reason (kept in the audit log)').fill('Checking again');
  await show.click();
  await expect(dialog.getByRole('alert')).toHaveText('The database is not reachable.');
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);
  await expect(row).toContainText('••••••••');
});

test('a rotated bank password is changed in place, copied, and a Bank MSP row edited and deleted', async ({ signedInAdmin: page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const bank = `Rotating Bank ${Date.now()}`;
  await page.goto('/store-password-list');
  await page.getByRole('button', { name: 'Add Password' }).click();
  await fill(page, { 'Bank Name': bank, 'Bank Password': 'old-Secret#1' });
  await page.getByRole('dialog').getByRole('button', { name: 'Submit' }).click();
  const row = page.getByRole('row', { name: new RegExp(bank) });
  await row.getByRole('button', { name: `Edit: the password of ${bank}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Password' });
  // The stored password is never sent to the browser: the field starts empty, and says so.
  await expect(edit.getByLabel('Bank Password')).toHaveValue('');
  await expect(edit.getByText('Leave empty to keep the stored password')).toBeVisible();
  // An emptied name is said under it, in plain words, and nothing is sent.
  await edit.getByLabel('Bank Name').fill('');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit.getByText('Enter the bank name.')).toBeVisible();
  await expect(edit.getByLabel('Bank Name')).toBeFocused();
  await page.screenshot({ path: '.artifacts/screens/password-edit.png' });
  await edit.getByLabel('Bank Name').fill(bank);
  await edit.getByLabel('Bank Password').fill('new-Secret#2');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();

  await row.getByRole('button', { name: `Show password for ${bank}` }).click();
  await page.getByRole('dialog').getByLabel('Reason (kept in the audit log)').fill('Checking the rotation');
  await page.getByRole('dialog').getByRole('button', { name: 'Show password' }).click();
  await expect(row).toContainText('new-Secret#2');
  await row.getByRole('button', { name: `Copy password for ${bank}` }).click();
  await expect(page.getByText('Password copied. It is taken off the clipboard in a minute.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('new-Secret#2');

  await row.getByRole('button', { name: `Delete: the password of ${bank}` }).click();
  await page.getByRole('dialog', { name: 'Delete Password' }).getByRole('button', { name: 'Delete' }).click();
  await expect(row).toHaveCount(0);

  // A Bank MSP row: edited, then deleted.
  const msp = `Edited MSP ${Date.now()}`;
  await page.goto('/bank-msp-list');
  await page.getByRole('button', { name: 'Add Bank MSP' }).click();
  await fill(page, { MSP: msp, 'Bank Name': 'Harbor Bank' });
  await page.getByRole('dialog').getByRole('button', { name: 'Submit' }).click();
  await page.getByRole('button', { name: `Edit: Harbor Bank and ${msp}` }).click();
  await page.getByRole('dialog', { name: 'Edit Bank MSP' }).getByLabel('MSP').fill(`${msp} Ltd`);
  await page.getByRole('dialog', { name: 'Edit Bank MSP' }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('row', { name: new RegExp(`${msp} Ltd`) })).toBeVisible();
  await page.getByRole('button', { name: `Delete: Harbor Bank and ${msp} Ltd` }).click();
  await page.getByRole('dialog', { name: 'Delete Bank MSP' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('row', { name: new RegExp(msp) })).toHaveCount(0);
});
