import { ports } from '../playwright.config.ts';
import { expect, test } from './fixtures.ts';

test('each remote loads from its own origin', async ({ signedInAdmin: page }) => {
  const origins = new Set<string>();
  page.on('request', (request) => origins.add(new URL(request.url()).origin));
  await page.goto('/bank-msp-list');
  await expect(page.getByRole('heading', { name: 'Bank MSP List' })).toBeVisible();
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await page.getByRole('link', { name: 'Email', exact: true }).click();
  await page.getByRole('link', { name: 'Text Email Data' }).click();
  await expect(page.getByRole('heading', { name: 'Text Email Data' })).toBeVisible();
  for (const remote of ['admin', 'email', 'ej', 'files'] as const) {
    expect(origins).toContain(`http://localhost:${ports[remote]}`);
  }
});

test('a remote whose manifest URL is dead shows a contained panel while the rest works', async ({ signedInAdmin: page }) => {
  await page.route('**/remotes.json', async (route) => {
    const { remotes } = (await (await route.fetch()).json()) as { remotes: { name: string; manifest: string }[] };
    // The manifest, and the entry script a pinned release is loaded by.
    const dead = { manifest: 'http://localhost:3999/mf-manifest.json', entry: 'http://localhost:3999/remoteEntry.js' };
    await route.fulfill({ json: { remotes: remotes.map((r) => (r.name === 'admin' ? { ...r, ...dead } : r)) } });
  });
  await page.goto('/store-password-list');
  const panel = page.getByRole('alert').filter({ hasText: 'This section is unavailable' });
  await expect(panel).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Retry' })).toBeVisible();
  // The layout and the other remotes carry on.
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await page.getByRole('link', { name: 'Bank MSP List' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'This section is unavailable' })).toBeVisible();
});

test('Retry loads a remote that was down when first visited', async ({ signedInAdmin: page }) => {
  let down = true;
  await page.route(`http://localhost:${ports.admin}/**`, (route) => (down ? route.abort() : route.continue()));
  await page.goto('/store-password-list');
  const panel = page.getByRole('alert').filter({ hasText: 'This section is unavailable' });
  await expect(panel).toBeVisible();
  down = false;
  await panel.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('heading', { name: 'Password List' })).toBeVisible();
  await expect(panel).toBeHidden();
});

test('the side nav and the routes come from remotes.json: what a remote declares shows, with no shell change', async ({ signedIn: page }) => {
  const served = await (await page.request.get('/remotes.json')).json();
  expect(served.remotes.map((r: { name: string; version: string }) => r.name).sort()).toEqual(['admin', 'ej', 'email', 'files']);
  // As a new build of the EJ remote would declare it: Overage gets a side-nav entry after Email.
  await page.route('**/remotes.json', async (route) => {
    const { remotes } = (await (await route.fetch()).json()) as { remotes: { name: string; nav: { label: string; path: string; order: number }[] }[] };
    await route.fulfill({
      json: { remotes: remotes.map((r) => (r.name === 'ej' ? { ...r, nav: [...r.nav, { label: 'Overage', path: '/overage', order: 35 }] } : r)) },
    });
  });
  await page.goto('/dashboard');
  const nav = page.getByRole('navigation', { name: 'Main' });
  // The nav is drawn once the console has read remotes.json: wait for it before reading it.
  await expect(nav.getByRole('link', { name: 'Overage' })).toBeVisible();
  const labels = await nav.getByRole('link').allInnerTexts();
  expect(labels.slice(0, 5)).toEqual(['Dashboard', 'Mail Flow', 'Email', 'Overage', 'All Email']);
  await nav.getByRole('link', { name: 'Overage' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Overage' })).toBeVisible();
  // Signed in, '/' opens the first screen of the side nav.
  await page.goto('/');
  await expect(page).toHaveURL(/\/dashboard$/);
});
