// Four eyes in two browsers: an admin holds resolutions with credit and bulk changes over 3 for a
// second person; the operator (maker) resolves a dispute and it waits; the maker's own approval is
// refused; the checker, in another browser, sees what it changes and approves it. A bulk request
// approved after two of its disputes changed says so. Four eyes is switched off again at the end.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { api, demoAdmin, expect, signIn, test } from './fixtures.ts';

interface Row {
  dispute_id: number;
  status: string;
}

const token = (page: Page) => page.evaluate(() => localStorage.getItem('token'));
const post = async (page: Page, path: string, data: unknown) =>
  page.request.post(`/api${path}`, { data, headers: { authorization: `JWT ${await token(page)}` } });

test('a maker’s resolution waits for a checker in another browser; a bulk request says how many changed since', async ({
  signedIn: maker,
  browser,
}, testInfo) => {
  const checkerContext = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
  const checker = await checkerContext.newPage();
  await signIn(checker, demoAdmin);
  try {
    // The admin turns four eyes on.
    await checker.goto('/four-eyes');
    const form = checker.getByRole('form', { name: 'Four eyes' });
    await form.getByLabel('Resolving a dispute with the customer credited').check();
    await form.getByLabel('Setting the status of many disputes at once').check();
    await form.getByLabel('Many means more than (disputes)').fill('3');
    await form.getByRole('button', { name: 'Save four eyes' }).click();
    await expect(checker.getByText('Four eyes saved: these changes now wait for a second person.')).toBeVisible();
    await checker.screenshot({ path: '.artifacts/screens/four-eyes.png' });
    expect((await new AxeBuilder({ page: checker }).analyze()).violations).toEqual([]);

    // The maker resolves a dispute with credit: it waits.
    await maker.goto('/email');
    const open = await api<{ results: Row[] }>(maker, '/scrape/extract/email/data/pagination/?tat=open&page_size=10');
    const target = open.results[0]!.dispute_id;
    await maker.goto(`/disputes/${target}`);
    const statusForm = maker.getByRole('form', { name: 'Set the status' });
    await statusForm.getByLabel('Status').selectOption('resolved');
    await statusForm.getByLabel('Outcome').selectOption('credited');
    await statusForm.getByLabel('Note').fill('The EJ shows no notes presented');
    await statusForm.getByRole('button', { name: 'Save status' }).click();
    await expect(maker.getByText(/^Sent for approval: another person must approve it \(request \d+\)\.$/)).toBeVisible();
    expect((await api<{ status: string }>(maker, `/disputes/${target}/`)).status).not.toBe('resolved');

    // The maker cannot approve it.
    await maker.goto('/approvals?status=pending');
    await maker
      .getByRole('link', { name: /^Request \d+$/ })
      .first()
      .click();
    await expect(maker.getByRole('heading', { level: 1, name: /Resolve, customer credited/ })).toBeVisible();
    const requestUrl = maker.url();
    await maker.getByLabel('Note').fill('I checked it myself');
    await maker.getByRole('button', { name: 'Approve' }).click();
    await expect(maker.getByRole('alert')).toHaveText('You made this request: another person must approve or reject it (four eyes).');

    // The checker, in the other browser, sees what it changes and approves it.
    await checker.goto(new URL(requestUrl).pathname);
    await expect(checker.getByRole('table', { name: /would get/ }).getByRole('row')).toHaveCount(2);
    await checker.screenshot({ path: '.artifacts/screens/approval.png' });
    expect((await new AxeBuilder({ page: checker }).analyze()).violations).toEqual([]);
    await checker.getByLabel('Note').fill('Checked the EJ lines 3400-3401');
    await checker.getByRole('button', { name: 'Approve' }).click();
    await expect(checker.getByText('Approved: 1 disputes changed.')).toBeVisible();
    expect(await api(maker, `/disputes/${target}/`)).toMatchObject({ status: 'resolved', outcome: 'credited' });

    // A bulk request of five; two of them change before it is approved.
    const five = open.results.slice(1, 6).map((r) => r.dispute_id);
    const bulk = await post(maker, '/disputes/bulk-status/', { ids: five, status: 'awaiting_msp', note: 'Asked the MSP for the EJ' });
    expect(bulk.status()).toBe(202);
    const { request } = (await bulk.json()) as { request: { id: number } };
    for (const id of five.slice(0, 2))
      expect((await post(maker, `/disputes/${id}/status/`, { status: 'resolved', outcome: 'rejected', note: 'Dispensed' })).status()).toBe(200);
    await checker.goto(`/approvals/${request.id}`);
    await expect(checker.getByText('5 now (5 when asked); 2 changed since the request')).toBeVisible();
    await checker.getByLabel('Note').fill('Fine for the rest');
    await checker.getByRole('button', { name: 'Approve' }).click();
    await expect(checker.getByText('Approved: 5 disputes changed (2 had changed since the request).')).toBeVisible();
  } finally {
    const off = [
      { action: 'resolve_credited', enabled: false, threshold: 0 },
      { action: 'resolve_rejected', enabled: false, threshold: 0 },
      { action: 'bulk_status', enabled: false, threshold: 100 },
    ];
    const response = await checker.request.put('/api/admin/four-eyes/', { data: off, headers: { authorization: `JWT ${await token(checker)}` } });
    expect(response.ok()).toBe(true);
    await checkerContext.close();
  }
});
