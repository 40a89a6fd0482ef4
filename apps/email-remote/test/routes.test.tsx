// The email remote on its own: each of its screens against a faked API (the real client, the
// network answered by fakeApi), the lists from the same table the routes are made from.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionStore } from '@ejdesk/api-client';
import { emailListPaths, fakeApi, restoreFakeApi, routes, type EmailListRow, type MailFlow } from '@ejdesk/api-client/testing';
import { renderScreen, screenTestHooks } from '@ejdesk/ui/testing';
import { allEmailList, categoryListConfigs } from '../src/features/email-lists/lists.ts';
import EmailRoutes from '../src/routes.tsx';

const at = '2026-11-20T09:30:00Z';
const emails: EmailListRow[] = [
  { id: 31, email_from: 'disputes@harborbank.example', subject_name: 'ATM dispute HRB00001', create_at: at, update_at: at },
  { id: 32, email_from: 'ops@atlas-atm.example', subject_name: 'Missing TXN results', create_at: at, update_at: at },
];
const page = { count: 2, total_pages: 1, next: null, previous: null, results: emails };
const details = {
  id: 31,
  from_email: 'disputes@harborbank.example',
  to_email: 'ej@ops.example',
  subject: 'ATM dispute HRB00001',
  email_body: 'Please check.',
  email_body_html: '<p>Please check.</p>',
  num_of_email: 1,
  date_time_of_email: at,
  create_at: at,
  update_at: at,
};

let network: ReturnType<typeof fakeApi>;
screenTestHooks();
afterEach(restoreFakeApi);
afterEach(() => act(() => sessionStore.setState({ role: null })));

describe.each([allEmailList, ...categoryListConfigs].map((list) => [list.path, list] as const))('%s', (path, list) => {
  it(`lists ${list.title} with the total, each row linking to its data`, async () => {
    network = fakeApi(routes(emailListPaths[list.list], page));
    renderScreen(EmailRoutes, `${path}?month=2026-11`);
    await screen.findByText('ATM dispute HRB00001');
    screen.getByText(/Total Records: 2/);
    const links = screen.getAllByRole('link').map((a) => a.getAttribute('href'));
    expect(links).toContain(list.linkTo(31));
    // The dashboard's month goes to the API in its own format.
    expect(network.requests[0]?.params).toMatchObject({ month: '2026-Nov' });
  });
});

describe('/dashboard', () => {
  it('shows the month’s counts, each opening its list for the month', async () => {
    network = fakeApi({
      '/scrape/email/dashboard/count/': {
        total_emails: 12,
        read: 9,
        unread: 3,
        email_ignores: 2,
        ej_not_found: 4,
        email_same_subject_processing: 1,
        email_same_subject_count: 5,
      },
    });
    renderScreen(EmailRoutes, '/dashboard?month=2026-11&data_month=2026-11');
    const email = screen.getByRole('region', { name: 'Email' });
    await waitFor(() =>
      expect(
        within(email)
          .getAllByRole('listitem')
          .map((li) => li.textContent),
      ).toEqual(['Total Email12', 'Read Email9', 'Unread Email3']),
    );
    expect(
      within(email)
        .getByRole('link', { name: /Unread Email/ })
        .getAttribute('href'),
    ).toBe('/unread-email?month=2026-11');
    expect(network.requests.every((r) => r.params.date === '2026-Nov')).toBe(true);
  });
});

describe('/mail-flow', () => {
  it('shows each mailbox’s state and sync, the queue, and the failures linking to their email', async () => {
    const flow: MailFlow = {
      mailboxes: [
        {
          source: 'imap://ej@mail.bank.example:993/INBOX',
          state: 'disconnected',
          last_error: 'ECONNREFUSED',
          last_sync_at: at,
          update_at: at,
          uid_validity: 7,
          last_uid: 420,
          checkpoint_at: at,
          worker: 'ingest-1:4242:ab12cd',
          waiting: 3,
          processed_last_hour: 12,
          processed_last_day: 140,
        },
      ],
      queue: { waiting: 3, oldest_waiting_at: at, processed_last_hour: 12, processed_last_day: 140 },
      failures: [
        {
          email_id: 32,
          email_from: 'ops@atlas-atm.example',
          subject: 'Locked results',
          reason: 'results.pdf: the PDF is password-protected',
          at,
          source: null,
        },
      ],
      stalled: {
        stalled: true,
        reasons: [
          'imap://disputes%40bank.example@outlook.office365.com:993/INBOX has not synced for more than 15 minutes: authentication failed: invalid_client.',
        ],
        stall_after_seconds: 900,
      },
    };
    network = fakeApi({ '/mail-flow/': flow });
    renderScreen(EmailRoutes, '/mail-flow');
    const mailboxes = await screen.findByRole('table', { name: 'Mailboxes' });
    const row = (await within(mailboxes).findByText('imap://ej@mail.bank.example:993/INBOX')).closest('tr')!;
    within(row).getByText('Disconnected');
    within(row).getByText('UID 420 (validity 7)');
    within(row).getByText('ingest-1:4242:ab12cd');
    within(row).getByText('ECONNREFUSED');
    const failures = screen.getByRole('table', { name: 'Recent failures' });
    expect(within(failures).getByRole('link', { name: 'Locked results' }).getAttribute('href')).toBe('/email-details-data/32');
    within(failures).getByText('results.pdf: the PDF is password-protected');
    expect(screen.getByLabelText('The queue').textContent).toContain('Processed in the Last Day140');
  });

  it('says when no mailbox is watched', async () => {
    network = fakeApi({
      '/mail-flow/': {
        mailboxes: [],
        queue: { waiting: 0, oldest_waiting_at: null, processed_last_hour: 0, processed_last_day: 0 },
        failures: [],
        stalled: { stalled: false, reasons: [], stall_after_seconds: 900 },
      },
    });
    renderScreen(EmailRoutes, '/mail-flow');
    await screen.findByText(/No mailbox is watched/);
    screen.getByText('Nothing waits');
  });
});

describe('/email-details-data/:id', () => {
  it('shows the email’s fields; an operator has no Reprocess', async () => {
    act(() => sessionStore.setState({ role: 'operator' }));
    network = fakeApi({ '/scrape/email/body/html/text/data/31/': details });
    renderScreen(EmailRoutes, '/email-details-data/31');
    await screen.findByText('ATM dispute HRB00001');
    screen.getByText('disputes@harborbank.example');
    expect(screen.queryByRole('button', { name: 'Reprocess' })).toBeNull();
  });

  it('lets an admin reprocess the email and shows the result', async () => {
    act(() => sessionStore.setState({ role: 'admin' }));
    network = fakeApi({
      '/scrape/email/body/html/text/data/31/': details,
      'POST /admin/emails/31/reprocess/': {
        id: 31,
        processed: true,
        category: 'ignored',
        processing_error: 'ignored: the subject matches the ignore rule "atm dispute"',
        detail: 'Processed again: ignored.',
      },
    });
    renderScreen(EmailRoutes, '/email-details-data/31');
    await userEvent.click(await screen.findByRole('button', { name: 'Reprocess' }));
    expect((await screen.findByText(/^Processed again/)).textContent).toBe(
      'Processed again: ignored. ignored: the subject matches the ignore rule "atm dispute"',
    );
  });

  it('says a missing email was not found', async () => {
    network = fakeApi({});
    renderScreen(EmailRoutes, '/email-details-data/404');
    expect((await screen.findByRole('alert')).textContent).toContain('Email 404 was not found');
  });
});

describe.each([
  ['/all-email/31', '/scrape/email/to/json/data/31/'],
  ['/data-email', '/scrape/email/to/json/data/'],
] as const)('%s', (path, endpoint) => {
  it('shows the JSON data rows of the email', async () => {
    network = fakeApi(
      routes(endpoint, [
        { id: 31, subject_name: 'ATM dispute HRB00001', json_load_data: [{ 'ATM ID': 'HRB00001', 'TXT Amt.': '3800', Amount: 'n/a', 'Txn No': '3800' }] },
      ]),
    );
    renderScreen(EmailRoutes, path);
    await screen.findByRole('heading', { level: 1, name: 'Email Data Table' });
    await screen.findByText('HRB00001');
    // Money with two decimals and separators, right-aligned; other numbers as sent.
    const cells = screen.getAllByRole('cell').map((c) => c.textContent);
    expect(cells).toEqual(['HRB00001', '3,800.00', 'n/a', '3800']);
  });
});
