// Independent delivery, as a remote's team does it against the running `pnpm start`:
// a second build of the admin remote, made here from its sources plus a new screen, is deployed
// with `pnpm remote deploy` and shows after a reload with no shell rebuild or restart, while a page
// already open keeps working on the first; `pnpm remote rollback` brings the first back; builds
// that do not fit are refused and the running one keeps serving; one remote's process stopped shows
// the contained panel while the others work, and Retry recovers it once it is back.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { appEnv, ports } from '../playwright.config.ts';
import { demoAdmin, expect, signIn, test } from './fixtures.ts';
import { remote, repo } from './remote-cli.ts';

const work = resolve(import.meta.dirname, '../.artifacts/releases');

/**
 * The admin team's next build: the remote's own sources with one new screen and its side-nav
 * entry, built by the remote's own build. It changes nothing in the shell.
 */
function buildNextAdmin(): string {
  const app = join(work, 'admin-remote');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(app, { recursive: true });
  for (const entry of ['src', 'package.json']) cpSync(join(repo, 'apps/admin-remote', entry), join(app, entry), { recursive: true });
  symlinkSync(join(repo, 'apps/admin-remote/node_modules'), join(app, 'node_modules'));
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ extends: `${repo}/tsconfig.base.json`, include: ['src'] }));
  writeFileSync(
    join(app, 'rsbuild.config.ts'),
    `import { defineRemote } from '${repo}/rsbuild.shared.ts';\nimport descriptor from './src/descriptor.ts';\nexport default defineRemote(descriptor);\n`,
  );
  // A new screen is one row of the remote's screen table and its component in routes.tsx.
  const descriptor = join(app, 'src/descriptor.ts');
  const withScreen = readFileSync(descriptor, 'utf8').replace(
    "  auditLog: { path: '/audit-log', label: 'Audit Log', nav: 160 },",
    "$&\n  releaseNotes: { path: '/release-notes', label: 'Release Notes', nav: 170 },",
  );
  if (!withScreen.includes('releaseNotes')) throw new Error('the admin remote’s screen table has changed: update buildNextAdmin');
  writeFileSync(descriptor, withScreen);
  writeFileSync(
    join(app, 'src/ReleaseNotesPage.tsx'),
    `import { Page } from '@ejdesk/ui';\nexport function ReleaseNotesPage() {\n  return <Page title="Release Notes"><p>Admin lists, second release.</p></Page>;\n}\n`,
  );
  const routes = join(app, 'src/routes.tsx');
  const withPage = readFileSync(routes, 'utf8').replace('  auditLog: <AuditLogPage />,', '$&\n  releaseNotes: <ReleaseNotesPage />,');
  if (!withPage.includes('releaseNotes')) throw new Error('the admin remote’s routes have changed: update buildNextAdmin');
  writeFileSync(routes, `import { ReleaseNotesPage } from './ReleaseNotesPage.tsx';\n${withPage}`);
  execFileSync(join(app, 'node_modules/.bin/rsbuild'), ['build'], { cwd: app, stdio: 'pipe', env: { ...process.env, NODE_ENV: 'production' } });
  return join(app, 'dist');
}

/** A copy of a build whose manifest says it was built against React 18 (its compressed copies go). */
function builtAgainstReact18(dist: string): string {
  const copy = join(work, 'react18');
  cpSync(dist, copy, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(copy, 'mf-manifest.json'), 'utf8')) as { shared: { name: string; version: string; requiredVersion: string }[] };
  for (const shared of manifest.shared) if (/^react(-dom)?$/.test(shared.name)) Object.assign(shared, { version: '18.3.1', requiredVersion: '^18.0.0' });
  writeFileSync(join(copy, 'mf-manifest.json'), JSON.stringify(manifest));
  for (const file of readdirSync(copy)) if (/^mf-manifest\.json\./.test(file)) rmSync(join(copy, file));
  return copy;
}

const currentAdmin = async () =>
  (await remote('list', 'admin')).out
    .split('\n')
    .find((line) => line.startsWith('*'))
    ?.split(/\s+/)[2];

test.describe.configure({ mode: 'serial' });
let nextAdmin: string;
const version = `2.0.0-e2e.${Date.now()}`;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  nextAdmin = buildNextAdmin();
});

test('a deployed build shows after a reload, an open page keeps working, and rollback brings the first back', async ({ signedInAdmin: open, context }) => {
  test.setTimeout(90_000);
  const first = await currentAdmin();
  expect(first).toBeTruthy();
  await open.goto('/bank-msp-list');
  await expect(open.getByRole('heading', { name: 'Bank MSP List' })).toBeVisible();

  const deployed = await remote('deploy', 'admin', '--dist', nextAdmin, '--version', version, '--by', 'admin-team');
  expect(deployed.out).toContain(`admin: ${first} -> ${version}`);
  expect(deployed.ok).toBe(true);

  // The page opened on the first release keeps working on it: its screens still load.
  await open.getByRole('link', { name: 'Audit Log' }).click();
  await expect(open.getByRole('heading', { name: 'Audit Log' })).toBeVisible();
  await open.getByRole('link', { name: 'Users' }).click();
  await expect(open.getByRole('heading', { name: 'Users' })).toBeVisible();
  await expect(open.getByRole('link', { name: 'Release Notes' })).toHaveCount(0);

  // A page loaded now gets the new release: its new screen and side-nav entry, no shell change.
  const reloaded = await context.newPage();
  await reloaded.goto('/bank-msp-list');
  const nav = reloaded.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Release Notes' }).click();
  await expect(reloaded.getByRole('heading', { name: 'Release Notes' })).toBeVisible();
  await expect(reloaded.getByText('Admin lists, second release.')).toBeVisible();

  const back = await remote('rollback', 'admin', '--by', 'admin-team');
  expect(back.out).toContain(`admin: rolled back ${version} -> ${first}`);
  await reloaded.goto('/bank-msp-list');
  await expect(reloaded.getByRole('heading', { name: 'Bank MSP List' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Audit Log' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Release Notes' })).toHaveCount(0);
  expect(await currentAdmin()).toBe(first);
});

/** An account's access token and user id, as the login form would get them. */
async function sessionOf(page: Page, account: { email: string; password: string }) {
  const response = await page.request.post('/api/auth/jwt/create/', { data: account });
  expect(response.ok()).toBe(true);
  const { access } = (await response.json()) as { access: string };
  return { access, id: JSON.parse(Buffer.from(access.split('.')[1]!, 'base64url').toString()).user_id as number };
}
/** The registry's share bucket of an operator for the admin remote (0..99): in a canary of P% when under P. */
const bucketOf = (id: number) => createHash('sha256').update(`admin:${id}`).digest().readUInt32BE(0) % 100;

test('a canary reaches the admins in its share only, an open page hears of it and keeps its form, and one that fails to load rolls back by itself', async ({
  browser,
  page: setup,
}) => {
  test.setTimeout(150_000);
  const first = await currentAdmin();
  // Two admins in different buckets: the share is the larger bucket, so exactly one is in it.
  const demo = { ...(await sessionOf(setup, demoAdmin)), account: demoAdmin };
  let other: typeof demo | undefined;
  for (let i = 0; i < 10 && !other; i++) {
    const account = { email: `canary-${Date.now()}-${i}@example.com`, password: 'Canary-e2e-Passw0rd' };
    const made = await setup.request.post('/api/admin/users/', { headers: { authorization: `JWT ${demo.access}` }, data: { ...account, role: 'admin' } });
    expect(made.status()).toBe(201);
    const session = await sessionOf(setup, account);
    if (bucketOf(session.id) !== bucketOf(demo.id)) other = { ...session, account };
  }
  const [inside, outside] = bucketOf(demo.id) < bucketOf(other!.id) ? [demo, other!] : [other!, demo];
  const percent = bucketOf(outside.id);
  const pageOf = async (account: { email: string; password: string }) => {
    const page = await (await browser.newContext()).newPage();
    await signIn(page, account);
    return page;
  };

  // An admin in the share has a form half filled on the release before.
  const open = await pageOf(inside.account);
  await open.goto('/bank-msp-list');
  await open.getByRole('button', { name: 'Add Bank MSP' }).click();
  await open.getByRole('dialog').getByLabel('MSP').fill('Half typed MSP');

  const canary = `${version}-canary`;
  const deployed = await remote('deploy', 'admin', '--dist', nextAdmin, '--version', canary, '--canary', String(percent), '--by', 'admin-team');
  expect(deployed.out).toContain(`admin: ${canary} for ${percent}% of operators (canary), ${first} for the rest.`);
  expect(deployed.ok).toBe(true);

  // The open page hears of it, says so, and reloads nothing by itself: the form keeps what was typed.
  await expect(open.getByRole('status').filter({ hasText: 'A new version of admin lists is available' })).toBeVisible();
  await expect(open.getByRole('button', { name: 'Reload' })).toBeVisible();
  await expect(open.getByRole('dialog').getByLabel('MSP')).toHaveValue('Half typed MSP');
  await open.screenshot({ path: '.artifacts/new-release-notice.png' });

  // A page loaded now: the canary for the admin in the share, the current release for the other.
  const inShare = await pageOf(inside.account);
  await inShare.goto('/bank-msp-list');
  await expect(inShare.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Release Notes' })).toBeVisible();
  const outOfShare = await pageOf(outside.account);
  await outOfShare.goto('/bank-msp-list');
  await expect(outOfShare.getByRole('heading', { name: 'Bank MSP List' })).toBeVisible();
  await expect(outOfShare.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit Log' })).toBeVisible();
  await expect(outOfShare.getByRole('link', { name: 'Release Notes' })).toHaveCount(0);
  const releases = await pageOf(outside.account);
  await releases.goto('/releases');
  const row = releases.getByRole('row').filter({ hasText: `${canary} for ${percent}% of operators` });
  await expect(row).toContainText('admin-team');
  await releases.screenshot({ path: '.artifacts/releases.png' });

  // The canary's files go missing: it fails to load for the next admin in the share, the shell
  // reports it, and past the threshold (1 in this run) the canary rolls back by itself.
  rmSync(join(appEnv.EJDESK_DATA_DIR, 'remotes/admin', canary), { recursive: true, force: true });
  const broken = await pageOf(inside.account);
  await broken.goto('/bank-msp-list');
  await expect(broken.getByRole('heading', { name: 'This section is unavailable' })).toBeVisible();
  const status = async () =>
    (
      (await (await setup.request.get('/api/registry/status/', { headers: { authorization: `JWT ${demo.access}` } })).json()) as {
        name: string;
        canary: unknown;
      }[]
    ).find((s) => s.name === 'admin')?.canary;
  await expect.poll(status, { timeout: 15_000 }).toBeNull();
  // The next load in the share gets the release before.
  await broken.goto('/bank-msp-list');
  await expect(broken.getByRole('heading', { name: 'Bank MSP List' })).toBeVisible();
  await expect(broken.getByRole('link', { name: 'Release Notes' })).toHaveCount(0);
  expect(await currentAdmin()).toBe(first);

  // Housekeeping: published releases beyond the newest kept go (one the registry never knew counts
  // as the oldest), never the current one.
  const published = join(appEnv.EJDESK_DATA_DIR, 'remotes/admin');
  cpSync(join(published, first!), join(published, '0.0.1-stale'), { recursive: true });
  const pruned = await remote('prune', 'admin', '--keep', '2');
  expect(pruned.ok).toBe(true);
  expect(pruned.out).toContain('admin: deleted 0.0.1-stale.');
  const left = readdirSync(published);
  expect(left).toEqual(expect.arrayContaining([first, version]));
  expect(left).not.toContain('0.0.1-stale');
});

test('a build that does not fit is refused, says why, and the running release keeps serving', async ({ signedInAdmin: page }) => {
  // Five runs of `pnpm remote`, each a few seconds on a busy machine.
  test.setTimeout(90_000);
  const running = await currentAdmin();

  const react18 = await remote('deploy', 'admin', '--dist', builtAgainstReact18(nextAdmin), '--version', `${version}-react18`);
  expect(react18.ok).toBe(false);
  expect(react18.out).toMatch(/shares react 18\.3\.1 .* the shell provides 19\./);

  const unreachable = await remote('deploy', 'admin', '--manifest', 'http://127.0.0.1:3999/mf-manifest.json');
  expect(unreachable.ok).toBe(false);
  expect(unreachable.out).toMatch(/manifest could not be read at http:\/\/127\.0\.0\.1:3999\/mf-manifest\.json/);

  const again = await remote('deploy', 'admin', '--dist', nextAdmin, '--version', version);
  expect(again.ok).toBe(false);
  expect(again.out).toContain(`admin ${version} is already published`);

  expect(await currentAdmin()).toBe(running);
  await page.goto('/users');
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
});

test("one remote's process stopped shows the contained panel while the others work; Retry recovers it", async ({ signedIn: page }) => {
  test.setTimeout(60_000);
  expect((await remote('stop', 'files')).ok).toBe(true);
  try {
    await page.goto('/text-email-data');
    const panel = page.getByRole('alert').filter({ hasText: 'This section is unavailable' });
    await expect(panel).toBeVisible();
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await page.getByRole('link', { name: 'Email', exact: true }).click();
    await page.getByRole('link', { name: 'Text Email Data' }).click();
    await expect(panel).toBeVisible();
  } finally {
    expect((await remote('start', 'files')).ok).toBe(true);
  }
  await expect(async () => expect((await fetch(`http://localhost:${ports.files}/`)).status).toBeLessThan(500)).toPass({ timeout: 15_000 });
  await page.getByRole('alert').getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('heading', { name: 'Text Email Data' })).toBeVisible();
});
