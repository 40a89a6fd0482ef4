// Every screen checked with axe-core in Chromium (WCAG 2.1 A and AA rules).
import AxeBuilder from '@axe-core/playwright';
import { demo, demoAdmin, expect, signIn, test } from './fixtures.ts';

// Long pages (a thousand table rows) take axe a while.
test.describe.configure({ timeout: 60_000 });

const screens = [
  '/dashboard',
  '/all-email',
  '/data-email',
  '/read-email',
  '/email-details-data/1',
  '/email',
  '/email?tat=breached',
  '/disputes/1',
  '/overage',
  '/successing',
  '/text-email-data',
  '/text-email-data/1',
  '/excel-email-data',
  '/store-password-list',
  '/bank-msp-list',
  '/bank-msp-list?as=operator',
  '/audit-log',
  '/users',
  '/change-password',
  '/mail-flow',
  '/sender-mappings',
  '/ignore-rules',
  '/tat-rules',
  '/mailboxes',
  '/deploy-tokens',
  '/releases',
];
const adminScreens = [
  '/store-password-list',
  '/bank-msp-list',
  '/audit-log',
  '/users',
  '/sender-mappings',
  '/ignore-rules',
  '/mailboxes',
  '/deploy-tokens',
  '/releases',
];

test('the login screen has no accessibility violations', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
});

test('each screen names the tab, and its heading takes focus after navigation', async ({ signedInAdmin: page }) => {
  await page.goto('/dashboard');
  await expect(page).toHaveTitle('Dashboard — EJ Desk');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeFocused();
  for (const [link, title] of [
    ['All Email', 'All Email'],
    ['Text Email Data', 'Text Email Data'],
    ['Bank MSP List', 'Bank MSP List'],
  ]) {
    const navLink = page.getByRole('navigation').getByRole('link', { name: link, exact: true });
    await navLink.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveTitle(`${title} — EJ Desk`);
    // The new screen's heading holds the focus (a screen reader reads it), not the link just used.
    await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
    await expect(navLink).not.toBeFocused();
  }
});

test('below 1,100 px the side nav folds into a menu button and the list gets the width', async ({ signedIn: page }) => {
  await page.setViewportSize({ width: 768, height: 900 });
  await page.goto('/dashboard');
  const menu = page.getByRole('button', { name: 'Menu' });
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(nav).toBeHidden();
  expect((await page.locator('#main').boundingBox())!.width).toBeGreaterThan(740);
  await menu.click();
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await nav.getByRole('link', { name: 'All Email', exact: true }).click();
  await expect(page).toHaveURL(/\/all-email$/);
  await expect(nav).toBeHidden();
  await menu.click();
  await expect(nav).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(nav).toBeHidden();
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(menu).toBeHidden();
  await expect(nav).toBeVisible();
});

for (const path of screens) {
  test(`${path} has no accessibility violations`, async ({ page }) => {
    // The admin lists as an admin sees them; an operator's 'Not available' page is checked too.
    await signIn(page, adminScreens.includes(path) ? demoAdmin : demo);
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    const { violations } = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      // The email's own HTML runs in a sandbox with scripts off, where axe cannot (and must not) run:
      // check the top frame only.
      .exclude('iframe[sandbox]')
      .setLegacyMode(true)
      .analyze();
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
}
