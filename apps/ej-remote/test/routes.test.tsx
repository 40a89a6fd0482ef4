// The EJ remote on its own: its three screens against a faked API (the real client, the network
// answered by fakeApi): the dispute table with its filters and total, the overage and succeeding
// lists loaded whole.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { answer, fakeApi, restoreFakeApi, routes, type EjRecord } from '@ejdesk/api-client/testing';
import { renderScreen, screenTestHooks } from '@ejdesk/ui/testing';
import EjRoutes from '../src/routes.tsx';

const record = (id: number, atm: string, amount: string, file_name?: string): EjRecord => ({
  id,
  atm_id: atm,
  card_no: '4111XXXXXXXX1001',
  txt_no: String(700000 + id),
  transaction_date: '2026-10-02',
  transaction_amt: amount,
  dispute_amt: amount,
  overage: null,
  msp_remarks: 'Cash not dispensed',
  msp_ref_no: '',
  short_desc_ej_error: '',
  ej_error: '',
  complaint_date: null,
  short_description: '',
  mail_received_from: 'disputes@harborbank.example',
  mail_subject: `ATM dispute ${atm}`,
  ...(file_name ? { file_name } : {}),
});
const disputes = [record(2, 'HRB00002', '700.00'), record(1, 'HRB00001', '600.00')];

let network: ReturnType<typeof fakeApi>;
screenTestHooks();
afterEach(restoreFakeApi);

describe('/email, the EJ error table', () => {
  it('shows the records, the total, and sends a filter to the API', async () => {
    network = fakeApi({
      '/scrape/extract/email/data/pagination/': (request) => {
        const atm = request.params.atm_id as string | undefined;
        const results = atm ? disputes.filter((r) => r.atm_id.includes(atm)) : disputes;
        return { count: results.length, total_pages: 1, next: null, previous: null, results };
      },
    });
    renderScreen(EjRoutes, '/email');
    screen.getByRole('heading', { level: 1, name: 'EJ Error Data' });
    await screen.findByText('HRB00002');
    screen.getByText('Total Records: 2');
    await userEvent.type(screen.getByLabelText('ATM ID', { selector: 'input' }), 'HRB00001');
    expect(screen.getByRole('status').textContent).toContain('Typed, not applied yet: ATM ID');
    await userEvent.click(screen.getByRole('button', { name: 'Apply Filters' }));
    await waitFor(() => screen.getByText('Total Records: 1'));
    expect(screen.queryByText('HRB00002')).toBeNull();
    expect(network.requests.at(-1)?.params).toMatchObject({ atm_id: 'HRB00001' });
  });

  it('says an estimated total as one, and names the exact count on a change to all matching', async () => {
    network = fakeApi({
      '/scrape/extract/email/data/pagination/': (request) =>
        request.params.page === 'last'
          ? { count: 1_234_570, count_exact: true, page: 12_346, total_pages: 12_346, next: null, previous: null, results: disputes }
          : { count: 1_200_000, count_exact: false, page: 1, total_pages: 120_000, next: null, previous: null, results: disputes },
    });
    renderScreen(EjRoutes, '/email');
    await screen.findByText('Total Records: about 1.2 million');
    screen.getByText('Page 1 of about 120000');
    // The typed confirmation of a change to every matching dispute never names an estimate.
    await screen.findByRole('button', { name: 'Set status of all 1,234,570 matching…' });
    expect(network.requests.some((r) => r.params.page === 'last')).toBe(true);
  });

  it('says the table could not be loaded, with Retry, and never claims 0 records', async () => {
    network = fakeApi({
      '/scrape/extract/email/data/pagination/': () => {
        throw answer(503, { detail: 'The database is unavailable; try again.' });
      },
    });
    renderScreen(EjRoutes, '/email');
    expect((await screen.findByRole('alert')).textContent).toContain('The database is unavailable; try again');
    screen.getByText('Total Records: —');
    screen.getByRole('button', { name: 'Retry' });
  });
});

describe.each([
  ['/overage', 'Overage', 'overage'],
  ['/successing', 'Successing', 'succeeding'],
] as const)('%s', (path, title, kind) => {
  const endpoint = `/scrape/extract/${kind}/data/` as const;
  // The rows themselves are virtualised (drawn as they scroll into a laid-out box, which happy-dom
  // has not): the browser tests check them; here, what was asked and what the screen says of it.
  it(`loads every ${kind} record once and says how many`, async () => {
    network = fakeApi(routes(endpoint, [record(5, 'HRB00005', '100.00', `${kind}.csv`), record(6, 'HRB00006', '900.00', `${kind}.csv`)]));
    renderScreen(EjRoutes, path);
    screen.getByRole('heading', { level: 1, name: title });
    await screen.findByText('Total Records: 2');
    screen.getByRole('table', { name: title });
    expect(network.requests.map((r) => r.path)).toEqual([`/scrape/extract/${kind}/data/`]);
  });

  it('says the list could not be loaded, and loads it on Retry', async () => {
    let fail = true;
    network = fakeApi(
      routes(endpoint, () => {
        if (fail) throw answer(503, { detail: 'The database is unavailable; try again.' });
        return [record(5, 'HRB00005', '100.00')];
      }),
    );
    renderScreen(EjRoutes, path);
    expect((await screen.findByRole('alert')).textContent).toContain('The database is unavailable; try again');
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByText('Total Records: 1');
  });
});
