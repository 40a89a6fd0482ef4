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
    const remotes = await (await route.fetch()).json();
    await route.fulfill({ json: { ...remotes, admin: 'http://localhost:3999/mf-manifest.json' } });
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
