// JavaScript budgets, as Chromium transfers it from the composed `pnpm start` build (brotli where
// the browser asks for it): under 120 KB before the login form is usable (it loads React and the
// form alone: ~89 KB), and under 250 KB more for the dashboard's first render (the console: router,
// API and query clients, ui, the email remote). The pie chart is lazy, after the counts; its bytes
// are printed beside. Figures are printed so a regression shows its size, not only a failure.
import type { Page, Request } from '@playwright/test';
import { demo, expect, test } from './fixtures.ts';

const KB = 1024;

/** The scripts the page loads from now on: transferred (encoded) bytes, and which hold the chart. */
function scriptBytes(page: Page): { total: (filter?: (isChart: boolean) => boolean) => Promise<number> } {
  const scripts: Request[] = [];
  page.on('requestfinished', (request) => {
    if (request.resourceType() === 'script') scripts.push(request);
  });
  return {
    total: async (filter = () => true) => {
      let sum = 0;
      for (const request of scripts) {
        const body = (await (await request.response())?.body())?.toString() ?? '';
        // ApexCharts names itself in its code (and react-apexcharts imports it by name).
        if (filter(/apexcharts/i.test(body))) sum += (await request.sizes()).responseBodySize;
      }
      return sum;
    },
  };
}

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
  await expect(page.locator('.apexcharts-pie-area').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  const dashboard = await afterLogin.total((isChart) => !isChart);
  const chart = await afterLogin.total((isChart) => isChart);

  console.log(
    `JavaScript transferred: login ${(login / KB).toFixed(1)} KB, dashboard +${(dashboard / KB).toFixed(1)} KB, its chart (lazy) +${(chart / KB).toFixed(1)} KB`,
  );
  expect(login).toBeGreaterThan(10 * KB); // the count saw the scripts at all
  expect(chart).toBeGreaterThan(10 * KB); // the chart was told apart
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
  await expect(page.locator('.apexcharts-pie-area').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  const large = seen.filter((file) => file.bytes > KB);
  console.log(`Scripts and stylesheets: ${seen.length}, over 1 KB: ${large.length}, of which compressed: ${large.filter((f) => f.encoding).length}`);
  expect(large.length).toBeGreaterThan(5); // the listener saw the files at all
  expect(large.filter((file) => file.encoding !== 'br' && file.encoding !== 'gzip')).toEqual([]);
});
