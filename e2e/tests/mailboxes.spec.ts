// The Mailboxes screen in Chromium against `pnpm start`: an admin adds an OAuth2 mailbox (app-only
// access, as Microsoft 365's), Test connection signs in through a real provider and a real Dovecot
// (on loopback, which the run allows in MAILBOX_ALLOWED_NETWORKS), a stored secret is not tested
// against another provider, and mail appended to that mailbox reaches the EJ table without a
// restart; operators are refused; no secret is in any API answer or in what the API and its hosted
// ingester printed.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { appLog, mailbox, mailboxControl, oauthMailbox } from '../support/mailbox.ts';
import { api, expect, rowsOf, test } from './fixtures.ts';

test.describe.configure({ mode: 'serial' });

const run = Date.now().toString(36).toUpperCase();
const bank = { msp: 'Contoso Services', name: 'Contoso Bank', domain: 'contoso.example' };
// Shaped like the demo rows (letters then digits, remarks filled): it may head the EJ table for
// the specs after this one.
const atm = `CTS${Date.now().toString().slice(-6)}`;
/** Every API answer the admin's page received during the spec. */
const answers: string[] = [];

async function post(page: Page, path: string, data: object) {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const response = await page.request.post(`/api${path}`, { headers: { authorization: `JWT ${token}` }, data });
  expect(response.status(), await response.text()).toBeLessThan(300);
}

test('an admin adds an OAuth2 mailbox, Test connection signs in, and its mail reaches the EJ table', async ({ signedInAdmin: page, request }) => {
  test.setTimeout(90_000);
  page.on('response', async (response) => {
    if (response.url().includes('/api/')) answers.push(await response.text().catch(() => ''));
  });
  const provider = (await (await request.get(`${mailboxControl}/oauth`)).json()) as { tokenUrl: string; scope: string };
  await page.goto('/mailboxes');
  await expect(page).toHaveTitle('Mailboxes — EJ Desk');
  await post(page, '/scrape/bank/msp/create/', { msp: bank.msp, bank_name: bank.name });
  await post(page, '/admin/sender-mappings/', { sender: `@${bank.domain}`, organisation: bank.name });
  await page.getByRole('button', { name: 'Add Mailbox' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Mailbox' });
  await dialog.getByLabel('Sign-in').selectOption('oauth2-client-credentials');
  await dialog.getByLabel('IMAP server').fill('127.0.0.1');
  await dialog.getByLabel('Port').fill(String(mailbox.imapPort));
  await dialog.getByLabel('TLS').uncheck();
  await dialog.getByLabel('Mailbox (user)').fill(oauthMailbox.user);
  await dialog.getByLabel('Token endpoint').fill(provider.tokenUrl);
  await dialog.getByLabel('Client ID').fill(oauthMailbox.clientId);
  await dialog.getByLabel('Scope').fill(provider.scope);
  await dialog.getByLabel('Client secret').fill('not-the-secret');
  await dialog.getByRole('button', { name: 'Test connection' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Could not connect: authentication failed: invalid_client (client authentication failed)');
  await dialog.getByLabel('Client secret').fill(oauthMailbox.clientSecret);
  await dialog.getByRole('button', { name: 'Test connection' }).click();
  await expect(dialog.getByRole('status')).toHaveText(/^Connected: \d+ messages? in INBOX\.$/);
  await page.screenshot({ path: resolve(import.meta.dirname, '../.artifacts/mailboxes-add.png') });
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog).toBeHidden();
  const row = rowsOf(page).filter({ hasText: oauthMailbox.user });
  await expect(row).toContainText('OAuth2 app access (Microsoft 365)');
  // The ingester in `pnpm start` picks it up without a restart, and says so on the screen.
  await expect(row).toContainText('Connected', { timeout: 30_000 });
  await page.screenshot({ path: resolve(import.meta.dirname, '../.artifacts/mailboxes-list.png') });
  // The stored client secret goes only to the provider it was saved with: another token endpoint
  // must have it typed again, and Test connection says so.
  await page.getByRole('button', { name: `Edit: ${oauthMailbox.user}` }).click();
  const editing = page.getByRole('dialog', { name: 'Edit Mailbox' });
  await editing.getByLabel('Token endpoint').fill(provider.tokenUrl.replace('/token', '/elsewhere/token'));
  await editing.getByRole('button', { name: 'Test connection' }).click();
  await expect(editing.getByRole('status')).toHaveText(
    /^Could not test: The stored client secret is sent only where it was saved, and this goes elsewhere \(token_url .+\): type the client secret again to use another target\.$/,
  );
  await editing.getByRole('button', { name: 'Cancel' }).click();
  await expect(editing).toBeHidden();

  const raw = [
    `From: Disputes <disputes@${bank.domain}>`,
    'To: ej-desk@operations.example',
    `Subject: Contoso disputes ${run}`,
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: <${run}@${bank.domain}>`,
    'MIME-Version: 1.0',
    'Content-Type: text/html; charset=utf-8',
    '',
    `<table border="1"><tr><th>ATM ID</th><th>Card No</th><th>Txn No</th><th>Txn Date</th><th>Amount</th><th>MSP Remarks</th></tr><tr><td>${atm}</td><td>4111XXXXXXXX2001</td><td>910001</td><td>02/11/26</td><td>700.00</td><td>Cash not dispensed, customer called the branch</td></tr></table>`,
    '',
  ].join('\r\n');
  const appended = await request.post(`${mailboxControl}/append?user=${encodeURIComponent(oauthMailbox.user)}`, { data: Buffer.from(raw) });
  expect(appended.status(), await appended.text()).toBe(204);
  await expect
    .poll(async () => (await api<{ results: { atm_id: string }[] }>(page, `/scrape/extract/email/data/pagination/?atm_id=${atm}`)).results.length, {
      timeout: 30_000,
    })
    .toBe(1);
  await page.goto(`/email?bank_name=${encodeURIComponent(bank.name)}`);
  await expect(rowsOf(page).filter({ hasText: atm })).toContainText(`disputes@${bank.domain}`);
});

test('the mailbox is deleted after asking, and leaves Mail Flow', async ({ signedInAdmin: page }) => {
  await page.goto('/mailboxes');
  await page.getByRole('button', { name: `Delete: ${oauthMailbox.user}` }).click();
  await page.getByRole('dialog', { name: 'Delete Mailbox' }).getByRole('button', { name: 'Delete' }).click();
  await expect(rowsOf(page).filter({ hasText: oauthMailbox.user })).toHaveCount(0);
  await expect
    .poll(async () => (await api<{ mailboxes: { source: string }[] }>(page, '/mail-flow/')).mailboxes.map((m) => m.source), { timeout: 20_000 })
    .toEqual([`imap://${mailbox.user}@127.0.0.1:${mailbox.imapPort}/INBOX`]);
});

test('operators are refused the Mailboxes screen and its API', async ({ signedIn: page }) => {
  await page.goto('/mailboxes');
  await expect(page.getByRole('heading', { level: 1, name: 'Not available' })).toBeVisible();
  const token = await page.evaluate(() => localStorage.getItem('token'));
  for (const [method, path] of [
    ['GET', '/api/admin/mailboxes/'],
    ['POST', '/api/admin/mailboxes/'],
    ['POST', '/api/admin/mailboxes/test/'],
    ['DELETE', '/api/admin/mailboxes/1/'],
  ] as const) {
    const response = await page.request.fetch(path, { method, headers: { authorization: `JWT ${token}` }, ...(method === 'POST' ? { data: {} } : {}) });
    expect(response.status(), `${method} ${path}`).toBe(403);
  }
});

test('no secret is in any API answer, nor in what the API and the ingester printed', async () => {
  expect(answers.length).toBeGreaterThan(5);
  for (const secret of [oauthMailbox.clientSecret, mailbox.password]) {
    expect(answers.filter((a) => a.includes(secret))).toEqual([]);
    expect(readFileSync(appLog, 'utf8')).not.toContain(secret);
  }
  // The log is the API's and the ingester's, at info: every request, every mailbox watched.
  const log = readFileSync(appLog, 'utf8');
  expect(log).toContain('"url":"/api/admin/mailboxes/test/"');
  expect(log).toContain(`ingest: watching imap://${encodeURIComponent(oauthMailbox.user)}@127.0.0.1:${mailbox.imapPort}/INBOX`);
});
