import { demo, expect, signIn, test } from './fixtures.ts';

// An operator's side nav: every screen but the two admin lists (the roles).
const navigation = [
  'Dashboard',
  'Mail Flow',
  'Email',
  'All Email',
  'Journals',
  'Approvals',
  'Missing Data',
  'Missing TXN Data',
  'Between Successful Data',
  'Text Email Data',
  'Excel Email Data',
  'PDF Email Data',
  'Other Format Email Data',
  'Change Password',
];

test('logging in shows the loading state, then the dashboard inside the layout', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
  await page.getByPlaceholder('Enter your username').fill(demo.email);
  await page.getByPlaceholder('Enter your password').fill(demo.password);
  // Hold the token request so the loading state can be seen.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/auth/jwt/create/', async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole('button', { name: 'Login' }).click();
  const busy = page.getByRole('button', { name: 'Logging in...' });
  await expect(busy).toBeDisabled();
  await expect(busy).toHaveAttribute('aria-busy', 'true');
  release();

  await expect(page.getByText('Login successful')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link')).toHaveText(navigation);
  await expect(nav.getByRole('button', { name: 'Logout' })).toBeVisible();
  expect(await page.evaluate(() => [localStorage.getItem('isAuthenticated'), localStorage.getItem('currentUser_id')])).toEqual([
    'true',
    expect.stringMatching(/^\d+$/),
  ]);
});

test("the refresh token is out of scripts' reach: an HttpOnly cookie renews a lapsed access token", async ({ page }) => {
  await page.goto('/login');
  await page.getByPlaceholder('Enter your username').fill(demo.email);
  await page.getByPlaceholder('Enter your password').fill(demo.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const cookie = (await page.context().cookies()).find((c) => c.name === 'ejdesk_refresh');
  expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/api/auth/' });
  // Nothing a script on the page can read holds it.
  const readable = await page.evaluate(() => [document.cookie, JSON.stringify({ ...localStorage }), JSON.stringify({ ...sessionStorage })].join('\n'));
  expect(readable).not.toContain(cookie!.value);
  // An access token that no longer works: the console renews it through the cookie and goes on.
  await page.evaluate(() => localStorage.setItem('token', 'not.a.token'));
  const renewed = page.waitForResponse((r) => r.url().endsWith('/api/auth/jwt/refresh/'));
  await page.goto('/missing-data');
  expect((await renewed).status()).toBe(200);
  await expect(page.getByRole('heading', { name: 'Missing Data' })).toBeVisible();
  await expect(page.getByRole('table').locator('tbody tr').first()).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).not.toBe('not.a.token');
});

test('a wrong password shows the server message and stays on login', async ({ page }) => {
  await page.goto('/login');
  await page.getByPlaceholder('Enter your username').fill(demo.email);
  await page.getByPlaceholder('Enter your password').fill('not the password');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByText('No active account found with the given credentials')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: 'Login' })).toBeEnabled();
});

test('an empty field is never sent: the form says what is missing, puts the cursor there, and nothing moves', async ({ page }) => {
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST') posts.push(new URL(request.url()).pathname);
  });
  await page.goto('/login');
  const username = page.getByPlaceholder('Enter your username');
  const password = page.getByPlaceholder('Enter your password');
  const login = page.getByRole('button', { name: 'Login' });
  const top = async () => (await login.boundingBox())!.y;
  const before = await top();
  await login.click();
  await expect(page.getByRole('alert')).toHaveText('Enter your username and your password.');
  await expect(username).toBeFocused();
  await expect(username).toHaveAttribute('aria-invalid', 'true');
  expect(await top()).toBe(before);
  await username.fill(demo.email);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toHaveText('Enter your password.');
  await expect(password).toBeFocused();
  await expect(username).not.toHaveAttribute('aria-invalid');
  expect(posts).toEqual([]);
  // The server's refusal: the cursor is back in the password, its text selected to type again.
  await password.fill('not the password');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toHaveText('No active account found with the given credentials');
  await expect(password).toBeFocused();
  expect(await password.evaluate((input: HTMLInputElement) => [input.selectionStart, input.selectionEnd])).toEqual([0, 16]);
  expect(await top()).toBe(before);
  expect(posts).toEqual(['/api/auth/jwt/create/']);
  await page.screenshot({ path: '.artifacts/login-refused.png' });
});

test('logout clears the session; the guard then sends every page to login and back after login', async ({ page }) => {
  await signIn(page);
  await page.goto('/dashboard');
  const refresh = (await page.context().cookies()).find((c) => c.name === 'ejdesk_refresh')?.value;
  expect(refresh).toBeTruthy();
  const revoked = page.waitForResponse((r) => r.url().endsWith('/api/auth/jwt/logout/'));
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('isAuthenticated'))).toBeNull();
  // The server revoked the refresh token: a copy of it refreshes no more.
  expect((await revoked).status()).toBe(204);
  expect((await page.request.post('/api/auth/jwt/refresh/', { data: { refresh } })).status()).toBe(401);

  await page.goto('/missing-data');
  await expect(page).toHaveURL(/\/login$/);
  await page.getByPlaceholder('Enter your username').fill(demo.email);
  await page.getByPlaceholder('Enter your password').fill(demo.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/missing-data$/);
  await expect(page.getByRole('heading', { name: 'Missing Data' })).toBeVisible();
});

test('a first visit to a page without a session shows the login form there, then that page', async ({ page }) => {
  await page.goto('/email?page_size=20');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page).toHaveTitle('Login — EJ Desk');
  await expect(page.getByPlaceholder('Enter your username')).toBeFocused();
  await page.getByPlaceholder('Enter your username').fill(demo.email);
  await page.getByPlaceholder('Enter your password').fill(demo.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Login successful' })).toBeVisible();
  await expect(page).toHaveURL(/\/email\?page_size=20$/);
  await expect(page.getByRole('heading', { level: 1, name: 'EJ Error Data' })).toBeVisible();
  await expect(page.getByRole('table').locator('tbody tr')).toHaveCount(20);
});

test('a login the server refuses for throttling or an outage says so in the form', async ({ page }) => {
  await page.goto('/login');
  await page.route('**/api/auth/jwt/create/', (route) =>
    route.fulfill({ status: 429, contentType: 'application/json', body: JSON.stringify({ detail: 'Too many failed logins. Try again in 15 minutes.' }) }),
  );
  await page.getByPlaceholder('Enter your username').fill(demo.email);
  await page.getByPlaceholder('Enter your password').fill('a password');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('alert')).toHaveText('Too many failed logins. Try again in 15 minutes.');
  await page.unroute('**/api/auth/jwt/create/');
  await page.route('**/api/auth/jwt/create/', (route) => route.abort('connectionrefused'));
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('alert')).toHaveText('Login failed: the server did not answer.');
  await expect(page.getByRole('button', { name: 'Login' })).toBeEnabled();
});

test('/ and unknown paths go to login', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page);
  await page.goto('/no/such/screen');
  await expect(page).toHaveURL(/\/login$/);
});
