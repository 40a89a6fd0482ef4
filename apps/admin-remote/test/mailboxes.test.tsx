// The Mailboxes screen against a faked API: each mailbox with its state from Mail Flow; the form's
// fields follow the sign-in method; Test connection sends the form (and, for a stored mailbox, its
// id so the API fills in the secrets left empty); a secret left empty is not sent, so it is kept.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeApi, restoreFakeApi, type FakeRoutes, type Mailbox } from '@ejdesk/api-client/testing';
import { renderScreen, screenTestHooks } from '@ejdesk/ui/testing';
import AdminRoutes from '../src/routes.tsx';

const at = '2026-11-20T09:30:00Z';
const m365: Mailbox = {
  id: 3,
  source: 'imap://disputes%40bank.example@outlook.office365.com:993/INBOX',
  host: 'outlook.office365.com',
  port: 993,
  tls: true,
  username: 'disputes@bank.example',
  folder: 'INBOX',
  auth_method: 'oauth2-client-credentials',
  token_url: 'https://login.microsoftonline.com/contoso/oauth2/v2.0/token',
  client_id: 'ejdesk-app',
  scope: 'https://outlook.office365.com/.default',
  has_secret: true,
  has_refresh_token: false,
  enabled: true,
  create_at: at,
  update_at: at,
};
const flow = {
  mailboxes: [
    {
      source: m365.source,
      state: 'disconnected',
      last_error: 'authentication failed: invalid_client (client authentication failed)',
      last_sync_at: null,
      update_at: at,
      uid_validity: null,
      last_uid: null,
      checkpoint_at: null,
      worker: null,
      waiting: 0,
      processed_last_hour: 0,
      processed_last_day: 0,
    },
  ],
  queue: { waiting: 0, oldest_waiting_at: null, processed_last_hour: 0, processed_last_day: 0 },
  failures: [],
  stalled: { stalled: false, reasons: [], stall_after_seconds: 900 },
};

let network: ReturnType<typeof fakeApi>;
screenTestHooks();
afterEach(restoreFakeApi);

describe('/mailboxes', () => {
  it('lists each mailbox with its sign-in and its state in Mail Flow', async () => {
    network = fakeApi({ '/admin/mailboxes/': [m365], '/mail-flow/': flow } satisfies FakeRoutes);
    renderScreen(AdminRoutes, '/mailboxes');
    screen.getByRole('heading', { level: 1, name: 'Mailboxes' });
    await screen.findByText('disputes@bank.example');
    screen.getByText('OAuth2 app access (Microsoft 365)');
    await screen.findByText('Disconnected: authentication failed: invalid_client (client authentication failed)');
    expect(document.title).toBe('Mailboxes — EJ Desk');
  });

  it('adds a Google Workspace mailbox: its fields, Test connection, then Add', async () => {
    let rows: Mailbox[] = [];
    network = fakeApi({
      '/admin/mailboxes/': () => rows,
      '/mail-flow/': flow,
      'POST /admin/mailboxes/test/': { connected: true, messages: 12 },
      'POST /admin/mailboxes/': (request) => {
        const row = { ...m365, id: 4, ...(request.body as object), has_refresh_token: true } as Mailbox;
        rows = [row];
        return row;
      },
    } satisfies FakeRoutes);
    renderScreen(AdminRoutes, '/mailboxes');
    await userEvent.click(await screen.findByRole('button', { name: 'Add Mailbox' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Mailbox' });
    expect(within(dialog).queryByLabelText('Refresh token')).toBeNull();
    await userEvent.selectOptions(within(dialog).getByLabelText('Sign-in'), 'oauth2-refresh-token');
    await userEvent.type(within(dialog).getByLabelText('IMAP server'), 'imap.gmail.com');
    await userEvent.type(within(dialog).getByLabelText('Mailbox (user)'), 'shared@bank.example');
    await userEvent.type(within(dialog).getByLabelText('Token endpoint'), 'https://oauth2.googleapis.com/token');
    await userEvent.type(within(dialog).getByLabelText('Client ID'), 'google-client');
    await userEvent.type(within(dialog).getByLabelText('Client secret'), 'the-client-secret');
    await userEvent.type(within(dialog).getByLabelText('Refresh token'), 'the-refresh-token');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Test connection' }));
    expect((await within(dialog).findByRole('status')).textContent).toBe('Connected: 12 messages in INBOX.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await screen.findByText('shared@bank.example');
    const expected = {
      host: 'imap.gmail.com',
      port: 993,
      tls: true,
      username: 'shared@bank.example',
      folder: 'INBOX',
      auth_method: 'oauth2-refresh-token',
      token_url: 'https://oauth2.googleapis.com/token',
      client_id: 'google-client',
      scope: null,
      secret: 'the-client-secret',
      refresh_token: 'the-refresh-token',
      enabled: true,
    };
    const posts = network.requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => [r.path, r.body])).toEqual([
      ['/admin/mailboxes/test/', expected],
      ['/admin/mailboxes/', expected],
    ]);
  });

  it('edits a mailbox: the stored secret is not shown, left empty it is not sent, and a failed test says why', async () => {
    network = fakeApi({
      '/admin/mailboxes/': [m365],
      '/mail-flow/': flow,
      'POST /admin/mailboxes/test/': { connected: false, detail: 'the folder "Disputes" could not be opened (Mailbox does not exist)' },
      'PUT /admin/mailboxes/3/': (request) => ({ ...m365, ...(request.body as object) }) as Mailbox,
    } satisfies FakeRoutes);
    renderScreen(AdminRoutes, '/mailboxes');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit: disputes@bank.example' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Mailbox' });
    const secret = within(dialog).getByLabelText('Client secret') as HTMLInputElement;
    expect(secret.value).toBe('');
    expect(secret.placeholder).toBe('Stored: leave empty to keep it');
    await userEvent.clear(within(dialog).getByLabelText('Folder'));
    await userEvent.type(within(dialog).getByLabelText('Folder'), 'Disputes');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Test connection' }));
    expect((await within(dialog).findByRole('status')).textContent).toBe(
      'Could not connect: the folder "Disputes" could not be opened (Mailbox does not exist)',
    );
    const test = network.requests.find((r) => r.path === '/admin/mailboxes/test/')!.body as Record<string, unknown>;
    expect(test).toMatchObject({ id: 3, folder: 'Disputes' });
    expect(test).not.toHaveProperty('secret');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit Mailbox' })).toBeNull());
    expect(network.requests.find((r) => r.method === 'PUT')!.body).not.toHaveProperty('secret');
  });
});
