// Deploy tokens in the console: an admin makes a team's token, sees it once, and revokes it; the
// registry refuses it on another team's remote (403) and, once revoked, at all (401).
import AxeBuilder from '@axe-core/playwright';
import { ports } from '../playwright.config.ts';
import { expect, test } from './fixtures.ts';

test('an admin creates a team token, sees it once, and revokes it', async ({ signedInAdmin: page }) => {
  const name = `e2e email team ${Date.now()}`;
  await page.goto('/deploy-tokens');
  await expect(page.getByRole('heading', { level: 1, name: 'Deploy Tokens' })).toBeVisible();
  await page.getByRole('button', { name: 'New Deploy Token' }).click();
  const form = page.getByRole('dialog', { name: 'New Deploy Token' });
  await form.getByLabel('Remote it deploys').selectOption('email');
  await form.getByLabel('Token name').fill(name);
  await form.getByRole('button', { name: 'Submit' }).click();

  const shown = page.getByRole('dialog', { name: `Deploy token “${name}”` });
  await expect(shown).toBeVisible();
  const token = (await shown.locator('.ej-copyable').innerText()).trim();
  expect(token).toMatch(/^ejd_[A-Za-z0-9_-]{43}$/);
  await expect(shown).toContainText('it is not shown again');
  const { violations } = await new AxeBuilder({ page }).include('dialog[open]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(violations.map((v) => v.id)).toEqual([]);
  await page.screenshot({ path: '.artifacts/deploy-token-shown.png' });
  await shown.getByRole('button', { name: 'Done' }).click();

  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('email');
  await expect(row).toContainText('admin@example.com');
  // Shown once: nowhere on the list.
  await expect(page.locator('main')).not.toContainText(token);
  await page.screenshot({ path: '.artifacts/deploy-tokens.png' });

  // It touches its own remote only: a rollback of the admin remote is refused before anything moves
  // (asked on the API's own port, as `pnpm remote` asks: the public origin forwards no deploy).
  const rollback = () =>
    page.request.post(`http://127.0.0.1:${ports.api}/api/registry/admin/rollback/`, { headers: { authorization: `Bearer ${token}` }, data: { by: 'e2e' } });
  const refused = await rollback();
  expect(refused.status()).toBe(403);
  expect((await refused.json()).detail).toContain('deploys email only');

  await row.getByRole('button', { name: `Revoke: the token ${name}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke Deploy Token' });
  await expect(confirm).toContainText('refused at once');
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(0);
  expect((await rollback()).status()).toBe(401);
});
