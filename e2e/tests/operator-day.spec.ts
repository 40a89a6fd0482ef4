// The screens an operator's day goes through, as they look at the two window sizes the desk is used
// at (1440x900 and 1280x720), each checked by axe: saved to .artifacts/screens/day/ to be looked at.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { api, expect, rowsOf, test } from './fixtures.ts';

const sizes = [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
] as const;

/** `exclude`: a part axe cannot enter (the sandboxed frame of an email's HTML body, checked apart). */
async function look(page: Page, name: string, ready: () => Promise<void>, exclude?: string) {
  for (const size of sizes) {
    await page.setViewportSize(size);
    await ready();
    await page.screenshot({ path: `.artifacts/screens/day/${name}-${size.width}x${size.height}.png` });
  }
  const axe = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  const { violations } = await (exclude ? axe.exclude(exclude) : axe).analyze();
  expect(
    violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    name,
  ).toEqual([]);
}

test('an operator’s screens at 1440x900 and 1280x720 pass axe', async ({ signedIn: page }) => {
  test.setTimeout(180_000);
  await page.goto('/dashboard');
  // The Disputes card is the first, above the fold at 1440x900.
  await look(page, 'dashboard', async () => {
    const card = page.getByRole('region', { name: 'Disputes' });
    await expect(card.getByText('Due today')).toBeVisible();
  });
  await page.setViewportSize(sizes[0]);
  const box = (await page.getByRole('region', { name: 'Disputes' }).boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(900);

  await page.goto('/email?tat=breached&ordering=-days_late');
  await look(page, 'email-breached', async () => {
    await expect(rowsOf(page).first().getByText('Breached', { exact: true })).toBeVisible();
  });
  const first = (await api<{ results: { dispute_id: number }[] }>(page, '/scrape/extract/email/data/pagination/?tat=breached&ordering=-days_late')).results[0]!;
  await rowsOf(page).first().locator(`a[href="/disputes/${first.dispute_id}"]`).click();
  await look(page, 'dispute', async () => {
    await expect(page.getByRole('navigation', { name: 'The list this dispute is in' })).toBeVisible();
  });

  await page.goto('/overage');
  await look(page, 'overage', async () => {
    await expect(page.getByText(/^Total Records: /)).toBeVisible();
  });
  await page.goto('/excel-email-data');
  await look(page, 'excel-files', async () => {
    await expect(page.getByText(/^Total Records: /)).toBeVisible();
  });
  const emails = await api<{ results: { id: number }[] }>(page, '/scrape/email/to/json/pagination/?page_size=1');
  await page.goto(`/email-details-data/${emails.results[0]!.id}`);
  await look(
    page,
    'email-details',
    async () => {
      await expect(page.getByRole('heading', { name: 'What it produced' })).toBeVisible();
    },
    'iframe',
  );
  const [file] = await api<{ id: number }[]>(page, '/scrape/excel/email/data/');
  await page.goto(`/excel-email-data/${file!.id}`);
  await look(page, 'file-rows', async () => {
    await expect(page.getByText(/^From the email |The email this file came in/)).toBeVisible();
  });
});

test('an admin’s changed screens at 1440x900 and 1280x720 pass axe', async ({ signedInAdmin: page }) => {
  test.setTimeout(120_000);
  await page.goto('/store-password-list');
  await look(page, 'password-list', async () => {
    await expect(page.getByRole('button', { name: /^Edit: / }).first()).toBeVisible();
  });
  await page.goto('/sender-mappings');
  await page.getByRole('button', { name: 'Add Sender Mapping' }).click();
  await look(page, 'sender-mapping-form', async () => {
    await expect(page.getByRole('dialog').getByLabel('Bank or MSP (as in the Bank MSP list)')).toBeVisible();
  });
  await page.keyboard.press('Escape');
  await page.goto('/releases');
  await look(page, 'releases', async () => {
    await expect(page.getByRole('button', { name: /^Roll back: / }).first()).toBeVisible();
  });
});
