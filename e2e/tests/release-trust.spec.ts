// What the registry pins holds in the browser: after a deploy, the published entry script of the
// files remote is changed on disk (as a compromised CDN or a re-upload would change it); Chromium
// refuses it by the integrity the API recorded at deploy, the console says the section is
// unavailable and reports it, the other sections keep working, and once the file is back Retry
// loads it. A changed chunk is refused the same way (the entry pins the chunks). The release is
// then withdrawn, and the one before is current again. On Releases, an admin allows a remote
// another origin and removes it.
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { appEnv } from '../playwright.config.ts';
import { expect, signIn, test } from './fixtures.ts';
import { remote, repo } from './remote-cli.ts';

const currentFiles = async () =>
  (await remote('list', 'files')).out
    .split('\n')
    .find((line) => line.startsWith('*'))
    ?.split(/\s+/)[2];

/**
 * A published file changed on disk for the length of `run`, its compressed copies gone (the static
 * server would send those instead); everything put back afterwards, so later specs are unaffected.
 */
async function changed(file: string, change: (text: string) => string, run: () => Promise<void>): Promise<void> {
  const copies = ['', '.br', '.gz'].map((ext) => `${file}${ext}`).filter((path) => existsSync(path));
  const kept = new Map(copies.map((path) => [path, readFileSync(path)]));
  try {
    for (const path of copies) rmSync(path);
    writeFileSync(file, change(kept.get(file)!.toString('utf8')));
    await run();
  } finally {
    for (const [path, bytes] of kept) writeFileSync(path, bytes);
  }
}

/** What Chromium said about integrity on a page. */
function integrityMessages(page: Page): string[] {
  const said: string[] = [];
  page.on('console', (message) => {
    if (/integrity/i.test(message.text())) said.push(message.text());
  });
  return said;
}

test.describe.configure({ mode: 'serial' });

test('a changed entry or chunk is refused by its integrity: the section is unavailable, the rest works, and it loads again once restored', async ({
  signedIn: page,
  browser,
}) => {
  test.setTimeout(120_000);
  const before = await currentFiles();
  expect(before).toBeTruthy();
  const version = `9.9.9-e2e-integrity.${Date.now()}`;
  const deployed = await remote('deploy', 'files', '--dist', join(repo, 'apps/files-remote/dist'), '--version', version, '--by', 'files-team');
  expect(deployed.out).toContain(`files: ${before} -> ${version}`);
  const served = (
    (await (await page.request.get('/remotes.json')).json()) as { remotes: { name: string; entry: string; integrity: { entry: string } }[] }
  ).remotes.find((r) => r.name === 'files')!;
  expect(served.entry).toMatch(new RegExp(`/${version.replaceAll('.', '\\.')}/remoteEntry\\.js$`));
  expect(served.integrity.entry).toMatch(/^sha384-/);

  const published = join(appEnv.EJDESK_DATA_DIR, 'remotes/files', version);
  const said = integrityMessages(page);
  const reports: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/registry/files/failures/')) reports.push(request.postData() ?? '');
  });
  const panel = page.getByRole('alert').filter({ hasText: 'This section is unavailable' });

  await changed(
    join(published, 'remoteEntry.js'),
    (text) => `${text}\n;window.__changedEntryRan = true;`,
    async () => {
      await page.goto('/text-email-data');
      await expect(panel).toBeVisible();
      await expect.poll(() => said.some((line) => line.includes('remoteEntry.js'))).toBe(true);
      expect(await page.evaluate(() => (window as { __changedEntryRan?: boolean }).__changedEntryRan)).toBeUndefined();
      await expect.poll(() => reports).toEqual([JSON.stringify({ version })]);
      // The layout and the other remotes carry on.
      await page.getByRole('link', { name: 'Dashboard' }).click();
      await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
      await page.goto('/text-email-data');
      await expect(panel).toBeVisible();
      await page.screenshot({ path: '.artifacts/integrity-refused.png' });
    },
  );
  // The file restored: Retry loads the section.
  await panel.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('heading', { name: 'Text Email Data' })).toBeVisible();

  // A chunk of the exposed module changed: the entry (which matches) pins it, so it is refused too.
  const chunks = join(published, 'static/js/async');
  const exposed = readdirSync(chunks).find((f) => /^__federation_expose_routes\.[0-9a-f]+\.js$/.test(f))!;
  await changed(
    join(chunks, exposed),
    (text) => `${text}\n;window.__changedChunkRan = true;`,
    async () => {
      // A browser that has not cached the chunk (hashed files are cached for a year).
      const fresh = await (await browser.newContext()).newPage();
      await signIn(fresh);
      const freshSaid = integrityMessages(fresh);
      await fresh.goto('/text-email-data');
      await expect(fresh.getByRole('alert').filter({ hasText: 'This section is unavailable' })).toBeVisible();
      await expect.poll(() => freshSaid.some((line) => line.includes(exposed))).toBe(true);
      expect(await fresh.evaluate(() => (window as { __changedChunkRan?: boolean }).__changedChunkRan)).toBeUndefined();
      await fresh.context().close();
    },
  );

  // Withdrawn: the release before is current again, and a page loads it.
  const withdrawn = await remote('withdraw', 'files', version, '--by', 'files-team');
  expect(withdrawn.ok).toBe(true);
  expect(withdrawn.out).toContain(`files: ${version} withdrawn; ${before} is current.`);
  expect(await currentFiles()).toBe(before);
  await page.goto('/text-email-data');
  await expect(page.getByRole('heading', { name: 'Text Email Data' })).toBeVisible();
});

test('an admin allows a remote another origin on Releases, and removes it', async ({ signedInAdmin: page }) => {
  const origin = `https://cdn-${Date.now()}.bank.example`;
  await page.goto('/releases');
  await expect(page.getByRole('heading', { level: 2, name: 'Allowed Origins' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Allowed Origins' });
  // The configured ones: where this run serves each remote.
  await expect(table.getByRole('row').filter({ hasText: 'http://localhost:3103' })).toContainText('REMOTE_ORIGINS (configuration)');

  await page.getByRole('button', { name: 'Allow Origin' }).click();
  const form = page.getByRole('dialog', { name: 'Allow Origin' });
  await form.getByLabel('Remote').selectOption('files');
  await form.getByLabel('Origin (scheme, host and port)').fill(`${origin}/files/`);
  await form.getByRole('button', { name: 'Allow' }).click();
  await expect(form.getByRole('alert')).toContainText('is not an http(s) origin');
  await form.getByLabel('Origin (scheme, host and port)').fill(origin);
  const { violations } = await new AxeBuilder({ page }).include('dialog[open]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(violations.map((v) => v.id)).toEqual([]);
  await form.getByLabel('Origin (scheme, host and port)').press('Enter');
  await expect(form).toBeHidden();

  const row = table.getByRole('row').filter({ hasText: origin });
  await expect(row).toContainText('files');
  await expect(row).toContainText('admin@example.com');
  await page.screenshot({ path: '.artifacts/allowed-origins.png', fullPage: true });
  // The screen as it stays, once the toast saying so has gone (the toaster is the shell's own).
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 10_000 });
  const screen = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(screen.violations.map((v) => [v.id, v.nodes.map((n) => n.target.join(' '))])).toEqual([]);

  // Removed from the keyboard, after the confirmation says what it stops.
  await row.getByRole('button', { name: `Remove: ${origin} for files` }).focus();
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Remove Allowed Origin' });
  await expect(confirm).toContainText('no longer served');
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(table.getByRole('row').filter({ hasText: origin })).toHaveCount(0);
});
