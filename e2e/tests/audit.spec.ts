// The audit log screen: an admin finds a password reveal with its reason, filters by
// what was done, and exports the filtered log.
import { readFile } from 'node:fs/promises';
import { demoAdmin, expect, rowsOf, test } from './fixtures.ts';

test('a reveal shows in the audit log with its reason; What filters it; Export saves the filtered log', async ({ signedInAdmin: page }) => {
  const reason = `Checking the Harbor statement ${Date.now()}`;
  await page.goto('/store-password-list');
  const row = page.getByRole('row', { name: /Harbor Bank/ });
  await row.getByRole('button', { name: 'Show password for Harbor Bank' }).click();
  const dialog = page.getByRole('dialog', { name: 'Show the password for Harbor Bank' });
  await dialog.getByLabel('Reason (kept in the audit log)').fill(reason);
  await dialog.getByRole('button', { name: 'Show password' }).click();
  await expect(row).toContainText('HRB@');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit Log' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit Log' })).toBeVisible();
  await expect(page).toHaveTitle('Audit Log — EJ Desk');
  await page.getByLabel('What', { exact: true }).fill('reveal');
  await expect(page).toHaveURL(/action=reveal/);
  const first = rowsOf(page).first();
  await expect(first).toContainText('Password shown');
  await expect(first).toContainText(reason);
  await expect(first).toContainText(demoAdmin.email);
  for (const text of await rowsOf(page).locator('td:nth-child(3)').allInnerTexts()) expect(text).toBe('Password shown');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export to CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('audit_log.csv');
  const lines = (await readFile((await file.path())!, 'utf8')).trim().split('\r\n');
  expect(lines[0]).toBe('"When (UTC)","Who","What","Entity","Entity ID","Detail","IP","Entry","Chain #","At (hashed)","User ID","Previous hash","Hash"');
  expect(lines.length).toBeGreaterThan(1);
  expect(lines.slice(1).every((line) => line.includes(',"reveal",'))).toBe(true);
  expect(lines[1]).toContain(reason);
});

test('the login just made is in the log with the address it came from', async ({ signedInAdmin: page }) => {
  await page.goto('/audit-log?action=login&who=admin');
  const first = rowsOf(page).first();
  await expect(first).toContainText('Login');
  await expect(first).toContainText(demoAdmin.email);
  // Through the shell's proxy: the browser's own loopback address.
  await expect(first.locator('td').last()).toHaveText(/^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/);
});

test('Verify the chain says it holds; Download signed chain saves the signed file of the days chosen', async ({ signedInAdmin: page }) => {
  await page.goto('/audit-log');
  await page.getByRole('button', { name: 'Verify the chain' }).click();
  await expect(page.getByTestId('chain-report')).toHaveText(/^The chain holds: [\d,]+ entries, none changed, removed or inserted\.$/);
  const today = new Date().toISOString().slice(0, 10);
  await page.goto(`/audit-log?from=${today}&to=${today}`);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download signed chain' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`audit_log_chain_from_${today}_to_${today}.jsonl`);
  const lines = (await readFile((await file.path())!, 'utf8')).trim().split('\n');
  const signature = JSON.parse(lines.at(-1)!).signature;
  expect(signature).toMatchObject({ algorithm: 'Ed25519', entries: lines.length - 1 });
  expect(JSON.parse(lines.at(-2)!).hash).toBe(signature.last_hash);
  await page.screenshot({ path: '.artifacts/screens/audit-chain.png' });
});
