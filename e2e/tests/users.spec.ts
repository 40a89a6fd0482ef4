// The Users screen (issue 15): an admin adds an operator, who logs in elsewhere to a console
// without the admin entries; disabled, their session ends at the next request; made an admin
// and enabled again, they see the admin entries after logging in.
import { expect, rowsOf, test } from './fixtures.ts';

test('an admin adds, disables and promotes a user, and the user feels each change', async ({ signedInAdmin: page, browser }) => {
  const user = { email: `clerk${Date.now()}@bank.example`, password: 'a long enough phrase' };
  await page.goto('/users');
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await page.getByRole('button', { name: 'Add User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add New User' });
  await dialog.getByLabel('Email').fill(user.email);
  await dialog.getByLabel('Password (at least 10 characters)').fill(user.password);
  await expect(dialog.getByLabel('Role')).toHaveValue('operator');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog).toBeHidden();
  const row = rowsOf(page).filter({ hasText: user.email });
  await expect(row).toContainText('Operator');
  await expect(row).toContainText('Active');
  await expect(row).toContainText('Never');
  // The admin's own row offers no way to lock themselves out.
  await expect(rowsOf(page).filter({ hasText: 'admin@example.com' }).getByRole('button')).toHaveCount(0);

  const elsewhere = await browser.newContext();
  try {
    const other = await elsewhere.newPage();
    const logIn = async () => {
      await other.goto('/login');
      await other.getByPlaceholder('Enter your username').fill(user.email);
      await other.getByPlaceholder('Enter your password').fill(user.password);
      await other.getByRole('button', { name: 'Login' }).click();
    };
    await logIn();
    await expect(other).toHaveURL(/\/dashboard$/, { timeout: 5000 });
    const nav = other.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Users' })).toHaveCount(0);

    await row.getByRole('button', { name: `Disable: ${user.email}` }).click();
    await expect(row).toContainText('Disabled');
    // The next request of the disabled user ends their session.
    await nav.getByRole('link', { name: 'All Email' }).click();
    await expect(other).toHaveURL(/\/login$/, { timeout: 10_000 });
    await logIn();
    await expect(other.getByRole('alert')).toHaveText('No active account found with the given credentials');

    await row.getByRole('button', { name: `Enable: ${user.email}` }).click();
    await expect(row).toContainText('Active');
    await row.getByRole('button', { name: `Make admin: ${user.email}` }).click();
    await expect(row).toContainText('Admin');
    await logIn();
    await expect(other).toHaveURL(/\/dashboard$/, { timeout: 5000 });
    await expect(nav.getByRole('link', { name: 'Users' })).toBeVisible();
  } finally {
    await elsewhere.close();
  }
});
