// Single sign-on as a bank's staff meet it, in Chromium against `pnpm start` and the run's OpenID
// provider (support/mailbox-server.ts: oidc-provider with its own login and logout pages): "Sign
// in with Bank SSO" -> the provider's login page -> the dashboard with the nav the role allows;
// Logout passes through the provider's logout and lands on /login; a second sign-in after the
// person's group changed shows the new role; a person in neither group is told why on /login.
import type { Page } from '@playwright/test';
import { mailboxControl, signInProvider } from '../support/mailbox.ts';
import { adminEntries, demoAdmin, expect, test } from './fixtures.ts';

// The provider serves https with a certificate of the run's own CA, which Chromium does not know.
test.use({ ignoreHTTPSErrors: true });

const provider = `https://127.0.0.1:${signInProvider.port}`;

async function setPerson(login: string, groups: string[]) {
  const response = await fetch(`${mailboxControl}/person?login=${login}`, {
    method: 'POST',
    body: JSON.stringify({ email: `${login}@bank.test`, name: login, groups }),
  });
  expect(response.ok).toBe(true);
}

async function signInWithSso(page: Page, login: string) {
  await page.goto('/login');
  await page.getByRole('link', { name: `Sign in with ${signInProvider.displayName}` }).click();
  // The provider's own login page.
  await expect(page).toHaveURL(new RegExp(`^${provider}/interaction/`));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('the provider checks this, not EJ Desk');
  await page.getByRole('button', { name: 'Sign-in' }).click();
}

test('Sign in with the bank’s provider, log out through it, and sign in again with the role the group now gives', async ({ page }) => {
  await setPerson('sso-user', [signInProvider.admins]);
  await page.goto('/login');
  // The password form stays below the provider's button (LOCAL_LOGIN is on).
  await expect(page.getByRole('link', { name: 'Sign in with Bank SSO' })).toBeVisible();
  await expect(page.getByPlaceholder('Enter your username')).toBeVisible();
  await page.screenshot({ path: '.artifacts/screens/login-sso.png' });

  await signInWithSso(page, 'sso-user');
  await expect(page.getByText('Login successful')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 10_000 });
  // The code the provider's callback left in the address is gone from it.
  expect(new URL(page.url()).hash).toBe('');
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const entry of adminEntries) await expect(nav.getByRole('link', { name: entry })).toBeVisible();

  // Logout ends the provider's session too: its logout page, then /login.
  await nav.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(new RegExp(`^${provider}/session/end`));
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('isAuthenticated'))).toBeNull();

  // The directory moved the person to the operators: the next sign-in shows an operator's console.
  await setPerson('sso-user', [signInProvider.operators]);
  await signInWithSso(page, 'sso-user');
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 10_000 });
  await expect(nav.getByRole('link', { name: 'Mail Flow' })).toBeVisible();
  for (const entry of adminEntries) await expect(nav.getByRole('link', { name: entry })).toHaveCount(0);
});

test('a person in neither group is told why, on the login page', async ({ page }) => {
  await setPerson('sso-outsider', ['finance']);
  await signInWithSso(page, 'sso-outsider');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('alert')).toHaveText(
    'sso-outsider@bank.test is in neither the admins’ nor the operators’ group for EJ Desk. Ask your administrator for access.',
  );
});

test('with the password form off, “Sign in with a break-glass account” opens the form without submitting it', async ({ page }) => {
  // What a server with LOCAL_LOGIN=off offers (this run's server keeps the form on for the other specs).
  await page.route('**/api/auth/oidc/', (route) => route.fulfill({ json: { enabled: true, display_name: signInProvider.displayName, local_login: false } }));
  const posts: string[] = [];
  page.on('request', (request) => void (request.method() === 'POST' && posts.push(new URL(request.url()).pathname)));
  await page.goto('/login');
  await expect(page.getByRole('link', { name: 'Sign in with Bank SSO' })).toBeVisible();
  await expect(page.getByPlaceholder('Enter your username')).toHaveCount(0);
  await page.getByRole('button', { name: 'Sign in with a break-glass account' }).click();
  await expect(page.getByPlaceholder('Enter your username')).toBeFocused();
  // The click that opened the form did not also send it (React reusing the button would have).
  await page.waitForTimeout(500);
  expect(posts).toEqual([]);
  await expect(page.getByRole('alert')).toHaveText('');
  await page.getByPlaceholder('Enter your username').fill(demoAdmin.email);
  await page.getByPlaceholder('Enter your password').fill(demoAdmin.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 10_000 });
});
