// The admin remote on its own: each of its screens against a faked API (the real client, the
// network answered by fakeApi), as its team would check a change without the shell or a server.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { answer, fakeApi, restoreFakeApi, routes, type FakeRoutes, type IgnoreRule, type SenderMapping } from '@ejdesk/api-client/testing';
import { renderScreen, screenTestHooks } from '@ejdesk/ui/testing';
import descriptor, { screenTable } from '../src/descriptor.ts';
import AdminRoutes from '../src/routes.tsx';

const at = '2026-11-20T09:30:00Z';
const page = <T,>(results: T[]) => ({ count: results.length, total_pages: 1, next: null, previous: null, results });
const ignoreRules: IgnoreRule[] = [{ id: 7, field: 'subject', pattern: 'Out of Office', create_at: at, update_at: at }];
const senderMappings: SenderMapping[] = [{ id: 4, sender: '@harborbank.example', organisation: 'Harbor Bank', create_at: at, update_at: at }];
const api = {
  '/scrape/store/password/list/': [{ id: 1, bank_name: 'Harbor Bank', bank_pass: '••••••••', create_at: at, update_at: at }],
  '/scrape/bank/msp/list/': [{ id: 1, msp: 'Atlas ATM Services', bank_name: 'Harbor Bank', create_at: at, update_at: at }],
  '/admin/sender-mappings/': senderMappings,
  '/admin/ignore-rules/': ignoreRules,
  '/admin/users/': [{ id: 2, email: 'ops@bank.example', role: 'operator', is_active: true, must_change_password: false, last_login: null, create_at: at }],
  '/admin/audit-log/': page([
    { id: 9, at, user_email: 'admin@example.com', action: 'reveal', entity: 'bank_password', entity_id: '1', detail: 'March statement', ip: '10.0.0.5' },
  ]),
} satisfies FakeRoutes;

let network: ReturnType<typeof fakeApi>;
screenTestHooks();
afterEach(restoreFakeApi);

describe.each([
  ['/store-password-list', 'Password List', 'Harbor Bank', '/scrape/store/password/list/'],
  ['/bank-msp-list', 'Bank MSP List', 'Atlas ATM Services', '/scrape/bank/msp/list/'],
  ['/sender-mappings', 'Sender Mappings', '@harborbank.example', '/admin/sender-mappings/'],
  ['/ignore-rules', 'Ignore Rules', 'Out of Office', '/admin/ignore-rules/'],
  ['/users', 'Users', 'ops@bank.example', '/admin/users/'],
  ['/audit-log', 'Audit Log', 'March statement', '/admin/audit-log/'],
] as const)('%s', (path, title, text, endpoint) => {
  it(`shows ${title} with the rows the API sends`, async () => {
    network = fakeApi(api);
    renderScreen(AdminRoutes, path);
    screen.getByRole('heading', { level: 1, name: title });
    await screen.findByText(text);
    expect(document.title).toBe(`${title} — EJ Desk`);
  });

  it('says so when the list cannot be loaded, and loads again on Retry', async () => {
    let fail = true;
    network = fakeApi({
      ...api,
      ...routes(endpoint, () => {
        if (fail) throw answer(503, { detail: 'The database is unavailable; try again.' });
        return api[endpoint];
      }),
    });
    renderScreen(AdminRoutes, path);
    expect((await screen.findByRole('alert')).textContent).toContain('The database is unavailable; try again');
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByText(text);
  });
});

describe('editable lists', () => {
  it('adds an ignore rule with the chosen field, and shows the refusal inside the form', async () => {
    let rules = [...ignoreRules];
    network = fakeApi({
      ...api,
      '/admin/ignore-rules/': () => rules,
      'POST /admin/ignore-rules/': (request) => {
        const body = request.body as { field: IgnoreRule['field']; pattern: string };
        if (body.pattern === 'Out of Office') throw answer(400, { detail: 'An ignore rule for the subject "Out of Office" already exists.' });
        const row = { id: 8, ...body, create_at: at, update_at: at };
        rules = [row, ...rules];
        return row;
      },
    });
    renderScreen(AdminRoutes, '/ignore-rules');
    await screen.findByText('Out of Office');
    await userEvent.click(screen.getByRole('button', { name: 'Add Ignore Rule' }));
    const dialog = screen.getByRole('dialog');
    await userEvent.selectOptions(within(dialog).getByLabelText('Ignore mail whose'), 'sender');
    await userEvent.type(within(dialog).getByLabelText('Contains (any case)'), 'Out of Office');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await within(dialog).findByText(/already exists/);
    await userEvent.clear(within(dialog).getByLabelText('Contains (any case)'));
    await userEvent.type(within(dialog).getByLabelText('Contains (any case)'), 'mailer-daemon@');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await screen.findByText('mailer-daemon@');
    const posts = network.requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => r.body)).toEqual([
      { field: 'sender', pattern: 'Out of Office' },
      { field: 'sender', pattern: 'mailer-daemon@' },
    ]);
  });

  it('edits a sender mapping in place and deletes one only after asking', async () => {
    let mappings = [...senderMappings];
    network = fakeApi({
      ...api,
      '/admin/sender-mappings/': () => mappings,
      'PUT /admin/sender-mappings/4/': (request) => {
        mappings = mappings.map((m) => (m.id === 4 ? { ...m, ...(request.body as object) } : m));
        return mappings[0]!;
      },
      'DELETE /admin/sender-mappings/4/': () => {
        mappings = [];
        return null;
      },
    });
    renderScreen(AdminRoutes, '/sender-mappings');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit: @harborbank.example to Harbor Bank' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Sender Mapping' });
    // Chosen from what the Bank MSP list holds (its banks and MSPs), not typed.
    const organisation = within(dialog).getByLabelText('Bank or MSP (as in the Bank MSP list)') as HTMLSelectElement;
    expect(organisation.value).toBe('Harbor Bank');
    await within(dialog).findByRole('option', { name: 'Atlas ATM Services' });
    expect([...organisation.options].map((o) => o.text)).toEqual(['Choose a bank or MSP…', 'Atlas ATM Services', 'Harbor Bank']);
    await userEvent.selectOptions(organisation, 'Atlas ATM Services');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByRole('cell', { name: 'Atlas ATM Services' });
    expect(network.requests.find((r) => r.method === 'PUT')?.body).toEqual({ sender: '@harborbank.example', organisation: 'Atlas ATM Services' });

    await userEvent.click(screen.getByRole('button', { name: 'Delete: @harborbank.example to Atlas ATM Services' }));
    const ask = screen.getByRole('dialog', { name: 'Delete Sender Mapping' });
    expect(network.requests.some((r) => r.method === 'DELETE')).toBe(false);
    await userEvent.click(within(ask).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('@harborbank.example')).toBeNull());
    expect(network.requests.filter((r) => r.method === 'DELETE')).toHaveLength(1);
  });
});

describe('a stored password edited', () => {
  it('starts with the password empty (kept), says an empty name under it, and shows the server’s word by its field', async () => {
    let attempt = 0;
    network = fakeApi({
      ...api,
      'PUT /scrape/store/password/1/': (request) => {
        attempt += 1;
        if (attempt === 1) throw answer(400, { detail: "body 'bank_pass': can be at most 256 characters." });
        return { id: 1, bank_name: (request.body as { bank_name: string }).bank_name, bank_pass: '••••••••', create_at: at, update_at: at };
      },
    });
    renderScreen(AdminRoutes, '/store-password-list');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit: the password of Harbor Bank' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Password' });
    const name = within(dialog).getByLabelText('Bank Name') as HTMLInputElement;
    const password = within(dialog).getByLabelText('Bank Password') as HTMLInputElement;
    expect([name.value, password.value]).toEqual(['Harbor Bank', '']);
    expect(password.getAttribute('aria-describedby')).toBe(within(dialog).getByText('Leave empty to keep the stored password').id);
    // Emptied: said under the field, which has the cursor; nothing is sent.
    await userEvent.clear(name);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Enter the bank name.').id).toBe(name.getAttribute('aria-describedby')?.split(' ')[0]);
    await waitFor(() => expect(document.activeElement).toBe(name));
    expect(network.requests.filter((r) => r.method === 'PUT')).toHaveLength(0);
    // The server's word on the password, in plain words under the password.
    await userEvent.type(name, 'Harbor Bank Ltd');
    await userEvent.type(password, 'x');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await within(dialog).findByText('Can be at most 256 characters.');
    expect(password.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(password));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit Password' })).toBeNull());
    expect(network.requests.filter((r) => r.method === 'PUT').map((r) => r.body)).toEqual([
      { bank_name: 'Harbor Bank Ltd', bank_pass: 'x' },
      { bank_name: 'Harbor Bank Ltd', bank_pass: 'x' },
    ]);
  });
});

describe('the screen table', () => {
  // The descriptor's side nav and the routes come from one table: each entry the shell lists opens
  // a screen headed with the entry's label.
  it.each(descriptor.nav.map((entry) => [entry.path, entry.label]))('%s opens the screen the side nav calls %s', async (path, label) => {
    network = fakeApi(api);
    renderScreen(AdminRoutes, path);
    await screen.findByRole('heading', { level: 1, name: label });
  });

  it('owns the first path segment of every screen, and no other', () => {
    expect(descriptor.paths).toEqual(Object.values(screenTable).map((s) => s.path.slice(1)));
  });
});
