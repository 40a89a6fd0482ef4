// A dispute's life in the console: an admin reads the rule sets and their sources; an operator
// names a dispute's network and moves it to chargeback raised with a note, and its page shows the
// network's clocks beside the TAT rule's, the running ones first; both screens pass axe.
import AxeBuilder from '@axe-core/playwright';
import { api, expect, test } from './fixtures.ts';

test('an admin reads the rule sets, each clock as written, and which are on', async ({ signedInAdmin: page }) => {
  await page.goto('/rule-sets');
  await expect(page.getByRole('heading', { level: 1, name: 'Rule Sets' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'NPCI NFS (network NFS): on' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Regulation E (every dispute): off' })).toBeVisible();
  await expect(
    page.getByRole('row', {
      name: /Investigate, or credit provisionally The bank 10 business days \(us-federal-reserve holidays off\) from the complaint day/,
    }),
  ).toBeVisible();
  await expect(page.getByText(/12 CFR 1005\.11\(c\)/)).toBeVisible();
  await page.screenshot({ path: '.artifacts/screens/rule-sets.png', fullPage: true });
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
});

test('an operator names the network, raises the chargeback, and the page shows its clocks side by side', async ({ signedIn: page }) => {
  await page.goto('/email');
  const list = await api<{ results: { dispute_id: number; status: string }[] }>(page, '/scrape/extract/email/data/pagination/?tat=open&page_size=5');
  const id = list.results[0]!.dispute_id;
  await page.goto(`/disputes/${id}`);
  const form = page.getByRole('form', { name: 'Set the network' });
  await form.getByLabel('Network').fill('NFS');
  await form.getByRole('button', { name: 'Save network' }).click();
  await expect(page.getByText("Network set to NFS: its rule sets' clocks run.")).toBeVisible();
  const clocks = page.getByRole('table', { name: /clocks/ });
  await expect(clocks.getByRole('row', { name: /^Chargeback raised NPCI NFS Issuer/ })).toBeVisible();

  const stage = page.getByRole('form', { name: 'Set the stage' });
  await stage.getByLabel('Stage').selectOption({ label: 'Chargeback raised' });
  await stage.getByLabel('Note').fill('Raised with NPCI, ref 7731');
  await stage.getByRole('button', { name: 'Save stage' }).click();
  await expect(page.getByText('Dispute moved to chargeback raised.')).toBeVisible();
  // The acquirer's window runs from today, 5 days; the issuer's is met.
  const representment = clocks.getByRole('row', { name: /^Representment or acceptance NPCI NFS Acquirer/ });
  await expect(representment).toContainText('5 days left');
  await expect(clocks.getByRole('row', { name: /^Chargeback raised NPCI NFS Issuer/ })).toContainText('Met on');
  await expect(page.getByRole('listitem').filter({ hasText: 'Stage: Chargeback raised' })).toContainText('Raised with NPCI, ref 7731');
  const story = await api<{ stage: string; clocks: { key: string; state: string }[] }>(page, `/disputes/${id}/`);
  expect(story.stage).toBe('chargeback_raised');
  const running = story.clocks.filter((c) => c.state === 'running' || c.state === 'breached');
  expect(story.clocks.slice(0, running.length)).toEqual(running);
  await page.getByRole('table', { name: /clocks/ }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: '.artifacts/screens/dispute-clocks.png' });
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
});

test('an admin adds an alert rule for a team, in working hours, and reads the deliveries', async ({ signedInAdmin: page }) => {
  await page.goto('/alert-rules');
  await expect(page.getByRole('heading', { level: 1, name: 'Alert Rules' })).toBeVisible();
  await page.getByRole('button', { name: 'Add Alert Rule' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Alert Rule' });
  await dialog.getByLabel('Name').fill('Representment, two days before');
  await dialog.getByLabel('Clocks').fill('nfs.representment, tat');
  await dialog.getByLabel('Days before the due date').fill('2');
  await dialog.getByLabel('Also to (email addresses)').fill('Disputes-Team@harbor.example');
  await dialog.getByLabel('Working hours').fill('9-18');
  await dialog.getByLabel('Time zone').fill('Asia/Kolkata');
  expect((await new AxeBuilder({ page }).include('dialog').analyze()).violations).toEqual([]);
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row', { name: /Representment, two days before/ });
  await expect(row).toContainText('nfs.representment, tat');
  await expect(row).toContainText('The owner, disputes-team@harbor.example');
  await expect(row).toContainText('Monday to Friday, 9-18 h (Asia/Kolkata)');
  await page.screenshot({ path: '.artifacts/screens/alert-rules.png' });

  // A webhook rule without its key is refused, in words, and nothing is added.
  await page.getByRole('button', { name: 'Add Alert Rule' }).click();
  await dialog.getByLabel('Name').fill('Hook');
  await dialog.getByLabel('Days before the due date').fill('1');
  await dialog.getByLabel('Sent by').selectOption('webhook');
  await dialog.getByLabel('To the dispute’s owner').selectOption('no');
  await dialog.getByLabel('Webhook address').fill('https://hooks.harbor.example/ejdesk');
  await dialog.getByLabel('Working hours').fill('9-18');
  await dialog.getByLabel('Time zone').fill('Asia/Kolkata');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog.getByText('body: webhook_secret is required for a new webhook rule.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await page.goto('/alert-deliveries');
  await expect(page.getByRole('heading', { level: 1, name: 'Alert Deliveries' })).toBeVisible();
  await expect(page.getByText(/^Total Records: \d+/)).toBeVisible();
  await page.screenshot({ path: '.artifacts/screens/alert-deliveries.png' });
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
});
