// The Users screen: an admin adds an operator, who logs in elsewhere to a console
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
    await expect(other).toHaveURL(/\/dashboard$/);
    const nav = other.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Users' })).toHaveCount(0);

    await row.getByRole('button', { name: `Disable: ${user.email}` }).click();
    await expect(row).toContainText('Disabled');
    // The next request of the disabled user ends their session (a screen's background refresh may
    // already have made it).
    await other.goto('/all-email');
    await expect(other).toHaveURL(/\/login$/, { timeout: 10_000 });
    await logIn();
    await expect(other.getByRole('alert')).toHaveText('No active account found with the given credentials');

    await row.getByRole('button', { name: `Enable: ${user.email}` }).click();
    await expect(row).toContainText('Active');
    await row.getByRole('button', { name: `Make admin: ${user.email}` }).click();
    await expect(row).toContainText('Admin');
    await logIn();
    await expect(other).toHaveURL(/\/dashboard$/);
    await expect(nav.getByRole('link', { name: 'Users' })).toBeVisible();
  } finally {
    await elsewhere.close();
  }
});

test('after an admin resets a password, the user logs in with it once to choose their own', async ({ signedInAdmin: page, browser }) => {
  const user = { email: `reset${Date.now()}@bank.example`, password: 'the first long phrase' };
  const token = async () => page.evaluate(() => localStorage.getItem('token'));
  await page.goto('/users');
  const made = await page.request.post('/api/admin/users/', { data: { ...user, role: 'operator' }, headers: { authorization: `JWT ${await token()}` } });
  expect(made.status()).toBe(201);
  await page.reload();
  const row = rowsOf(page).filter({ hasText: user.email });
  await row.getByRole('button', { name: `Reset password: ${user.email}` }).click();
  const dialog = page.getByRole('dialog', { name: `Reset the password of ${user.email}` });
  await dialog.getByLabel(/Password to give/).fill('given by the admin');
  await dialog.getByRole('button', { name: 'Reset password' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('Active, new password due');

  const elsewhere = await browser.newContext();
  try {
    const other = await elsewhere.newPage();
    await other.goto('/login');
    await other.getByPlaceholder('Enter your username').fill(user.email);
    await other.getByPlaceholder('Enter your password').fill('given by the admin');
    await other.getByRole('button', { name: 'Login' }).click();
    await expect(other.getByText('An admin has reset your password.')).toBeVisible();
    await other.getByLabel('New password', { exact: true }).fill('my very own phrase');
    await other.getByLabel('New password again').fill('not the same phrase');
    await other.getByRole('button', { name: 'Set password and continue' }).click();
    await expect(other.getByRole('alert')).toHaveText('The two new passwords differ.');
    await other.getByLabel('New password again').fill('my very own phrase');
    await other.getByRole('button', { name: 'Set password and continue' }).click();
    await expect(other).toHaveURL(/\/dashboard$/);
    await expect(other.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

    // Any role changes its own password from the side nav.
    await other.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Change Password' }).click();
    await expect(other).toHaveTitle('Change Password — EJ Desk');
    await other.getByLabel('Current password').fill('not my password');
    await other.getByLabel('New password (at least 10 characters)').fill('a third long phrase');
    await other.getByLabel('New password again').fill('a third long phrase');
    await other.getByRole('button', { name: 'Change password' }).click();
    await expect(other.getByRole('alert')).toHaveText('The current password is not right.');
    await other.getByLabel('Current password').fill('my very own phrase');
    await other.getByRole('button', { name: 'Change password' }).click();
    await expect(other.getByText('Your password is changed.')).toBeVisible();
    const check = await other.request.post('/api/auth/jwt/create/', { data: { email: user.email, password: 'a third long phrase' } });
    expect(check.status()).toBe(200);
  } finally {
    await elsewhere.close();
  }
  await page.reload();
  await expect(rowsOf(page).filter({ hasText: user.email })).not.toContainText('new password due');
});
