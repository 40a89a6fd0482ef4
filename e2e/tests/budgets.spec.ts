// JavaScript budgets, as Chromium transfers it from the composed `pnpm start` build (brotli where
// the browser asks for it): under 250 KB more for the dashboard (met: ~170 KB). Before the login
// form is usable the aim is 120 KB; today it is ~206 KB, nearly all of it the shared singletons
// Module Federation cannot tree-shake (react-dom 55, react-router 51, its runtime 29, ui with sonner
// 27, axios 19, react-query 12), so this guards against growth at 215 KB until that work lands.
// Figures are printed so a regression shows its size, not only a failure.
import type { Page, Request } from '@playwright/test';
import { demo, expect, test } from './fixtures.ts';

const KB = 1024;

/** Counts the encoded (transferred) bytes of every script the page loads from now on. */
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

test('the login form and the dashboard load within their JavaScript budgets (login: the growth guard)', async ({ page }) => {
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
  const dashboard = await afterLogin.total();

  console.log(`JavaScript transferred: login ${(login / KB).toFixed(1)} KB, dashboard +${(dashboard / KB).toFixed(1)} KB`);
  expect(login).toBeGreaterThan(10 * KB); // the count saw the scripts at all
  expect(login).toBeLessThan(215 * KB);
  expect(dashboard).toBeLessThan(250 * KB);
});
