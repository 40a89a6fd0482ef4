// JavaScript budgets, as Chromium transfers it from the composed `pnpm start` build (brotli where
// the browser asks for it): under 120 KB before the login form is usable (it loads React and the
// form alone: ~89 KB), and under 250 KB more for the dashboard's first full render, its pie chart
// included (the console: router, API and query clients, ui, the email remote, the chart). Figures
// are printed so a regression shows its size, not only a failure.
import type { Page, Request } from '@playwright/test';
import { demo, expect, test } from './fixtures.ts';

const KB = 1024;

/** The scripts the page loads from now on: their transferred (encoded) bytes. */
function scriptBytes(page: Page): { total: () => Promise<number> } {
  const scripts: Request[] = [];
  page.on('requestfinished', (request) => {
    if (request.resourceType() === 'script') scripts.push(request);
  });
  return {
    total: async () => {
      let sum = 0;
      for (const request of scripts) sum += (await request.sizes()).responseBodySize;
      return sum;
    },
  };
}

/** The dashboard's pie, drawn: the last part of its first full render. */
const pieSlice = (page: Page) => page.getByRole('group', { name: 'Read and unread emails' }).getByRole('link').first();

test('the login form and the dashboard load within their JavaScript budgets', async ({ page }) => {
  const beforeLogin = scriptBytes(page);
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Login' })).toBeEnabled();
  await page.waitForLoadState('networkidle');
  const login = await beforeLogin.total();

  const afterLogin = scriptBytes(page);
  await page.getByPlaceholder('Enter your username').fill(demo.email);
  await page.getByPlaceholder('Enter your password').fill(demo.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(pieSlice(page)).toBeVisible();
  await page.waitForLoadState('networkidle');
  const dashboard = await afterLogin.total();

  console.log(`JavaScript transferred: login ${(login / KB).toFixed(1)} KB, dashboard with its pie chart +${(dashboard / KB).toFixed(1)} KB`);
  expect(login).toBeGreaterThan(10 * KB); // the count saw the scripts at all
  expect(dashboard).toBeGreaterThan(10 * KB);
  expect(login).toBeLessThan(120 * KB);
  expect(dashboard).toBeLessThan(250 * KB);
});

test('every script and stylesheet over 1 KB the login and the dashboard load comes compressed', async ({ page }) => {
  const seen: { url: string; bytes: number; encoding: string | undefined }[] = [];
  page.on('response', async (response) => {
    const type = response.request().resourceType();
    if (type !== 'script' && type !== 'stylesheet') return;
    const bytes = (await response.body().catch(() => Buffer.alloc(0))).length; // as decoded
    seen.push({ url: new URL(response.url()).pathname, bytes, encoding: (await response.allHeaders())['content-encoding'] });
  });
  await page.goto('/login');
  await page.getByPlaceholder('Enter your username').fill(demo.email);
  await page.getByPlaceholder('Enter your password').fill(demo.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(pieSlice(page)).toBeVisible();
  await page.waitForLoadState('networkidle');
  const large = seen.filter((file) => file.bytes > KB);
  console.log(`Scripts and stylesheets: ${seen.length}, over 1 KB: ${large.length}, of which compressed: ${large.filter((f) => f.encoding).length}`);
  expect(large.length).toBeGreaterThan(5); // the listener saw the files at all
  expect(large.filter((file) => file.encoding !== 'br' && file.encoding !== 'gzip')).toEqual([]);
});
