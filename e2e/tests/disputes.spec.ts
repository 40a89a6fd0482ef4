// The dispute desk as an operator works it: the Breached quick filter, a dispute's story, resolving
// it with a note, and the dashboard's breached count dropping on a page left open meanwhile.
import AxeBuilder from '@axe-core/playwright';
import { api, expect, rowsOf, test } from './fixtures.ts';

interface ClockRow {
  dispute_id: number;
  atm_id: string;
  txt_no: string;
  transaction_date: string;
  status: string;
}

test('an operator filters Breached, opens a dispute’s story, resolves it, and the open dashboard counts one fewer', async ({ signedIn: page, context }) => {
  await page.goto('/email');
  await page.getByRole('group', { name: 'Turnaround' }).getByRole('button', { name: 'Breached' }).click();
  // Breached comes ordered by days late, the latest first.
  await expect(page).toHaveURL(/[?&]tat=breached&ordering=-days_late/);
  const breached = await api<{ count: number; results: (ClockRow & { overdue_days: number })[] }>(
    page,
    '/scrape/extract/email/data/pagination/?tat=breached&ordering=-days_late',
  );
  expect(breached.count).toBeGreaterThan(0);
  const lateness = breached.results.map((r) => r.overdue_days);
  expect(lateness).toEqual([...lateness].sort((a, b) => b - a));
  await expect(page.getByRole('columnheader', { name: 'Days Late' })).toHaveAttribute('aria-sort', 'descending');
  await expect(page.getByText(`Total Records: ${breached.count.toLocaleString('en-US')}`, { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Breached', pressed: true })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Turnaround: Breached ?, remove filter$/ })).toBeVisible();
  const target = breached.results[0]!;
  await expect(rowsOf(page).first()).toContainText(target.atm_id);
  // The status says Breached in words beside its chip; Days Late says by how much.
  await expect(rowsOf(page).first().getByText('Breached', { exact: true })).toBeVisible();
  const daysLate = page.getByRole('columnheader').allInnerTexts();
  const lateAt = (await daysLate).findIndex((h) => h.startsWith('Days Late'));
  await expect(rowsOf(page).first().locator('td').nth(lateAt)).toHaveText(String(target.overdue_days));
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(violations.map((v) => v.id)).toEqual([]);
  await page.screenshot({ path: '.artifacts/disputes-breached.png', fullPage: true });

  // The dashboard of the dispute's month, open in another tab.
  const month = target.transaction_date.slice(0, 7);
  const dashboard = await context.newPage();
  await dashboard.goto(`/dashboard?dispute_month=${month}`);
  const card = dashboard.getByRole('region', { name: 'Disputes' });
  const breachedLink = card.getByRole('link', { name: /Breached \(past the due date\)/ });
  const figure = async () => Number((await breachedLink.locator('span').first().textContent())!.replace(/\D/g, ''));
  const ageing = await api<{ breached: number }>(
    page,
    `/disputes/ageing/?date=${month.slice(0, 4)}-${new Date(`${month}-01T00:00:00Z`).toLocaleString('en', { month: 'short', timeZone: 'UTC' })}`,
  );
  await expect.poll(figure).toBe(ageing.breached);
  await dashboard.screenshot({ path: '.artifacts/disputes-dashboard.png', fullPage: true });

  // The story: each row that names it, and the form to resolve it.
  await rowsOf(page)
    .first()
    .getByRole('link', { name: new RegExp(`the story of ATM ${target.atm_id}`) })
    .click();
  await expect(page).toHaveURL(new RegExp(`/disputes/${target.dispute_id}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Dispute ${target.atm_id} / ${target.txt_no}`);
  await expect(page.getByRole('heading', { name: /^Story \(\d+ rows?\)$/ })).toBeVisible();
  const story = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(story.violations.map((v) => v.id)).toEqual([]);
  const form = page.getByRole('form', { name: 'Set the status' });
  await form.getByLabel('Status').selectOption('resolved');
  await form.getByLabel('Outcome').selectOption('credited');
  await expect(form.getByRole('button', { name: 'Save status' })).toBeDisabled();
  await form.getByLabel('Note').fill('Atlas confirmed the shortage; customer credited');
  await form.getByRole('button', { name: 'Save status' }).click();
  await expect(page.getByText('Dispute set to Resolved (credited).')).toBeVisible();
  const facts = page.getByRole('heading', { name: 'Turnaround' }).locator('..');
  await expect(facts).toContainText('Resolved (credited)');
  await expect(facts).toContainText('operator@example.com');
  await expect(page.getByRole('heading', { name: 'History' }).locator('..')).toContainText('Atlas confirmed the shortage; customer credited');
  await page.screenshot({ path: '.artifacts/disputes-story.png', fullPage: true });

  // The dashboard left open counts one breached dispute fewer, without a reload.
  await expect.poll(figure, { timeout: 15_000 }).toBe(ageing.breached - 1);
  const after = await api<ClockRow[] & { count?: number }>(page, `/disputes/${target.dispute_id}/`);
  expect(after).toMatchObject({ status: 'resolved', outcome: 'credited', status_source: 'operator' });
});

test('an admin adds a TAT rule for a bank, and its open disputes follow it at once', async ({ signedInAdmin: page }) => {
  await page.goto('/tat-rules');
  const open = await api<{ results: (ClockRow & { due_date: string })[] }>(page, '/scrape/extract/email/data/pagination/?tat=open&page_size=1');
  const target = open.results[0]!;
  const before = await api<{ bank_name: string; rule_name: string; clock_started_on: string }>(page, `/disputes/${target.dispute_id}/`);
  await expect(page.getByRole('heading', { name: 'TAT Rules' })).toBeVisible();
  await expect(page.getByRole('row', { name: /RBI harmonised TAT/ })).toContainText('5 calendar days');
  await page.getByRole('button', { name: 'Add TAT Rule' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add TAT Rule' });
  await dialog.getByLabel('Name').fill('Fast track');
  await dialog.getByLabel('Covers').selectOption('bank');
  await dialog.getByLabel('Bank or MSP (none for all disputes)').selectOption(before.bank_name);
  await dialog.getByLabel('Days allowed').fill('1');
  await dialog.getByLabel('Penalty per day after the due date').fill('250');
  await dialog.getByLabel('Currency (e.g. INR)').fill('inr');
  const { violations } = await new AxeBuilder({ page }).include('dialog').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(violations.map((v) => v.id)).toEqual([]);
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row', { name: /Fast track/ })).toContainText('250.00 INR');
  await page.screenshot({ path: '.artifacts/tat-rules.png' });
  const next = new Date(Date.parse(`${before.clock_started_on}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  expect(await api(page, `/disputes/${target.dispute_id}/`)).toMatchObject({ rule_name: 'Fast track', due_date: next, penalty_per_day: '250.00' });
  // Deleted, the bank's open disputes go back to the rule for all.
  await page.getByRole('button', { name: 'Delete: Fast track' }).click();
  await page.getByRole('dialog', { name: 'Delete TAT Rule' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('row', { name: /Fast track/ })).toHaveCount(0);
  expect(await api(page, `/disputes/${target.dispute_id}/`)).toMatchObject({ rule_name: before.rule_name });
});

test('rows ticked on two pages take one status together, and the rest keep theirs', async ({ signedIn: page }) => {
  await page.goto('/email?tat=open&page_size=10');
  const firstPage = await api<{ results: ClockRow[] }>(page, '/scrape/extract/email/data/pagination/?tat=open&page_size=10');
  const secondPage = await api<{ results: ClockRow[] }>(page, '/scrape/extract/email/data/pagination/?tat=open&page_size=10&page=2');
  const one = firstPage.results[0]!;
  const other = secondPage.results.find((r) => r.dispute_id !== one.dispute_id)!;
  const box = (row: ClockRow) => page.getByRole('checkbox', { name: `Select the dispute of ATM ${row.atm_id}, transaction ${row.txt_no}` }).first();
  await expect(rowsOf(page).first()).toContainText(one.atm_id);
  await box(one).check();
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  await expect(rowsOf(page).first()).toContainText(secondPage.results[0]!.atm_id);
  await box(other).check();
  // The page's own box is mixed: one of its rows is ticked.
  await expect(page.getByRole('checkbox', { name: 'Select every row on this page' })).toHaveJSProperty('indeterminate', true);
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(violations.map((v) => v.id)).toEqual([]);
  await page.screenshot({ path: '.artifacts/disputes-selected.png', fullPage: true });
  await page.getByRole('button', { name: 'Set status of 2 selected…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Set the status of 2 selected disputes' });
  await expect(dialog).toContainText('The 2 disputes ticked in the table get this status and note.');
  // Nothing is chosen for the operator: the button waits for a status and a note.
  await expect(dialog.getByLabel('Status', { exact: true })).toHaveValue('');
  await expect(dialog.getByRole('button', { name: 'Set the status of 2 disputes' })).toBeDisabled();
  await dialog.getByLabel('Status', { exact: true }).selectOption('awaiting_msp');
  await dialog.getByLabel('Note').fill('Asked Atlas for the EJ of both');
  await dialog.getByRole('button', { name: 'Set the status of 2 disputes' }).click();
  await expect(page.getByText('Status set to awaiting msp for 2 disputes.')).toBeVisible();
  // The ticks are gone with the change; the two disputes wait on the MSP, their neighbours do not.
  await expect(page.getByRole('button', { name: /selected…$/ })).toHaveCount(0);
  for (const row of [one, other])
    expect(await api(page, `/disputes/${row.dispute_id}/`)).toMatchObject({ status: 'awaiting_msp', status_reason: 'Asked Atlas for the EJ of both' });
  const neighbour = firstPage.results.find((r) => r.dispute_id !== one.dispute_id && r.dispute_id !== other.dispute_id)!;
  expect(await api(page, `/disputes/${neighbour.dispute_id}/`)).toMatchObject({ status: neighbour.status });
  // Undo, from the message: both have their status back.
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(page.getByText('Undone: 2 disputes have the status they had.')).toBeVisible();
  for (const row of [one, other]) expect(await api(page, `/disputes/${row.dispute_id}/`)).toMatchObject({ status: row.status });
});

test('“all N matching” sets the status of over 10,000 disputes in one action, applied by the server to the filter', async ({ signedIn: page }) => {
  test.setTimeout(90_000);
  await page.goto('/email?tat=open');
  const open = await api<{ count: number }>(page, '/scrape/extract/email/data/pagination/?tat=open');
  const all = await api<{ count: number }>(page, '/scrape/extract/email/data/pagination/');
  await page.getByRole('button', { name: 'Resolved', exact: true }).click();
  const resolved = await api<{ count: number }>(page, '/scrape/extract/email/data/pagination/?tat=resolved');
  await expect(page.getByText(`Total Records: ${resolved.count.toLocaleString('en-US')}`, { exact: true })).toBeVisible();
  // Every dispute: no filter at all.
  await page.getByRole('button', { name: 'All', exact: true }).click();
  await expect(page.getByText(`Total Records: ${all.count.toLocaleString('en-US')}`, { exact: true })).toBeVisible();
  expect(open.count).toBeGreaterThan(0);
  expect(all.count).toBeGreaterThan(10_000);
  await page.getByRole('button', { name: `Set status of all ${all.count.toLocaleString('en-US')} matching…` }).click();
  const dialog = page.getByRole('dialog', { name: `Set the status of all ${all.count.toLocaleString('en-US')} matching` });
  await expect(dialog).toContainText(`No filter is applied: every dispute of all ${all.count.toLocaleString('en-US')} records`);
  const { violations } = await new AxeBuilder({ page }).include('dialog').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(violations.map((v) => v.id)).toEqual([]);
  await dialog.getByLabel('Status', { exact: true }).selectOption('resolved');
  await dialog.getByLabel('Outcome').selectOption('other');
  await dialog.getByLabel('Note').fill('Year-end clean-up: closed on the bank’s instruction');
  // Over a thousand: the count is typed before the button acts.
  const confirm = dialog.getByRole('button', { name: `Set the status of all ${all.count.toLocaleString('en-US')} matching` });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(`Type ${all.count.toLocaleString('en-US')} to confirm`).fill(String(all.count - 1));
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(`Type ${all.count.toLocaleString('en-US')} to confirm`).fill(all.count.toLocaleString('en-US'));
  await page.screenshot({ path: '.artifacts/disputes-bulk.png' });
  const answered = page.waitForResponse((r) => r.url().includes('/api/disputes/bulk-status/'));
  await confirm.click();
  const { updated } = (await (await answered).json()) as { updated: number };
  expect(updated).toBeGreaterThanOrEqual(10_000);
  await expect(page.getByText(`Status set to resolved for ${updated.toLocaleString('en-US')} disputes.`)).toBeVisible();
  await expect(dialog).toBeHidden();
  // Every record's dispute is resolved now: none open, none breached.
  expect((await api<{ count: number }>(page, '/scrape/extract/email/data/pagination/?tat=resolved')).count).toBe(all.count);
  expect((await api<{ count: number }>(page, '/scrape/extract/email/data/pagination/?tat=breached')).count).toBe(0);

  // Past the toast's ten seconds, the page still offers the undo: every dispute has its status back.
  await page.getByRole('button', { name: 'Undo last change' }).click();
  await expect(page.getByText(`Undone: ${updated.toLocaleString('en-US')} disputes have the status they had.`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Undo last change' })).toBeHidden();
  expect((await api<{ count: number }>(page, '/scrape/extract/email/data/pagination/?tat=open')).count).toBe(open.count);
  expect((await api<{ count: number }>(page, '/scrape/extract/email/data/pagination/?tat=resolved')).count).toBe(resolved.count);
});

test('an operator takes a dispute with a follow-up day, finds it under Mine and Follow up today, and gives two ticked to a colleague', async ({
  signedIn: page,
}) => {
  await page.goto('/email');
  // The clock's day (TAT_TIME_ZONE, Asia/Kolkata by default), which "today" means to the filters.
  const today = new Date().toLocaleDateString('en-CA', { timeZone: 'Asia/Kolkata' });
  const [first] = (await api<{ results: ClockRow[] }>(page, '/scrape/extract/email/data/pagination/?tat=open&page_size=1')).results;
  await page.goto(`/disputes/${first!.dispute_id}`);
  const form = page.getByRole('form', { name: 'Owner and follow-up' });
  await form.getByLabel('Owner', { exact: true }).selectOption({ label: 'Me (operator@example.com)' });
  // The day typed as operators write it.
  const [y, m, d] = today.split('-') as [string, string, string];
  await form.getByLabel('Follow up on', { exact: true }).fill(`${d}/${m}/${y}`);
  await form.getByRole('button', { name: 'Save owner and follow-up' }).click();
  await expect(page.getByText('Owner and follow-up saved.')).toBeVisible();
  const facts = page.getByRole('heading', { name: 'Turnaround' }).locator('..');
  await expect(facts).toContainText('operator@example.com');
  await expect(facts).toContainText(`${d}/${m}/${y.slice(2)}`);
  await page.screenshot({ path: '.artifacts/dispute-follow-up.png', fullPage: true });

  await page.goto('/email');
  await page.getByRole('group', { name: 'My work' }).getByRole('button', { name: 'Mine' }).click();
  await expect(page).toHaveURL(/[?&]owner=me/);
  await expect(rowsOf(page).first()).toContainText(first!.atm_id);
  await expect(page.getByRole('button', { name: /^Owner: me ?, remove filter$/ })).toBeVisible();
  await page.getByRole('group', { name: 'My work' }).getByRole('button', { name: 'Follow up today' }).click();
  await expect(page).toHaveURL(/[?&]follow_up=today/);
  const mine = await api<{ count: number }>(page, '/scrape/extract/email/data/pagination/?owner=me&follow_up=today');
  await expect(page.getByText(`Total Records: ${mine.count.toLocaleString('en-US')}`, { exact: true })).toBeVisible();
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(violations.map((v) => v.id)).toEqual([]);

  // Two rows of the breached list, ticked and given to the admin to follow up.
  await page.goto('/email?tat=breached');
  await expect(rowsOf(page).first().locator('a[href^="/disputes/"]')).toBeVisible();
  const ids = await rowsOf(page).evaluateAll((rows) =>
    rows.slice(0, 2).map((r) => Number(r.querySelector('a[href^="/disputes/"]')!.getAttribute('href')!.split('/').pop())),
  );
  for (const at of [0, 1]) await rowsOf(page).nth(at).getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Owner and follow-up of 2 selected…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Owner and follow-up of 2 selected' });
  await dialog.getByLabel('Owner', { exact: true }).selectOption({ label: 'admin@example.com' });
  await dialog.getByRole('button', { name: 'Set for 2 disputes' }).click();
  await expect(page.getByText('Owner and follow-up set for 2 disputes.')).toBeVisible();
  for (const id of ids) expect((await api<{ owner: string }>(page, `/disputes/${id}/`)).owner).toBe('admin@example.com');
});
