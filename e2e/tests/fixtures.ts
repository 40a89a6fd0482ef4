import { test as base, expect, type Locator, type Page } from '@playwright/test';

export const demo = { email: 'operator@example.com', password: 'ejdesk-demo' };
/** The admin remote's side-nav entries, in order: an admin sees them all, an operator none. */
export const adminEntries = [
  'Password List',
  'Bank MSP List',
  'Sender Mappings',
  'Ignore Rules',
  'TAT Rules',
  'Rule Sets',
  'Alert Rules',
  'Alert Deliveries',
  'Four Eyes',
  'Mailboxes',
  'Users',
  'Releases',
  'Deploy Tokens',
  'Audit Log',
];
/** The demo admin: the admin lists are admins' only. */
export const demoAdmin = { email: 'admin@example.com', password: 'ejdesk-admin' };

/** Signs in through the API and hands the page a session, as the login screen would leave it. */
export async function signIn(page: Page, account = demo): Promise<void> {
  const response = await page.request.post('/api/auth/jwt/create/', { data: account });
  expect(response.ok()).toBe(true);
  // The refresh token stays in the session cookie this answer set in the page's context.
  const { access } = (await response.json()) as { access: string };
  const userId = JSON.parse(Buffer.from(access.split('.')[1]!, 'base64url').toString()).user_id as number;
  await page.addInitScript(
    (session) => {
      // Only on the first page load, so that a later logout sticks.
      if (sessionStorage.getItem('e2e-signed-in')) return;
      sessionStorage.setItem('e2e-signed-in', '1');
      localStorage.setItem('token', session.access);
      localStorage.setItem('isAuthenticated', 'true');
      localStorage.setItem('currentUser_id', session.userId);
    },
    { access, userId: String(userId) },
  );
}

export const test = base.extend<{ signedIn: Page; signedInAdmin: Page }>({
  signedIn: async ({ page }, use) => {
    await signIn(page);
    await use(page);
  },
  signedInAdmin: async ({ page }, use) => {
    await signIn(page, demoAdmin);
    await use(page);
  },
});
export { expect };

/** A GET on the API with the page's session, for what a test needs to know independently of the screen. */
export async function api<T>(page: Page, path: string): Promise<T> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const response = await page.request.get(`/api${path}`, { headers: { authorization: `JWT ${token}` } });
  expect(response.ok()).toBe(true);
  return (await response.json()) as T;
}

export const rowsOf = (page: Page) => page.getByRole('table').locator('tbody tr');
/** The data columns' headers, without the tick-box column a list with row selection leads with. */
export const dataHeaders = (page: Page) => page.getByRole('table').locator('thead th:not(.ej-tick)');
/** A row's data cells, without its tick box. */
export const dataCells = (row: Locator) => row.locator('td:not(.ej-tick)');
