// The Releases screen against a faked API: each remote's releases, and the origins its releases may
// come from; an admin allows another (a refusal shown in the form) and removes one they allowed
// after a confirmation; the configured ones have no Remove, as only the configuration changes them.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { answer, fakeApi, restoreFakeApi, type FakeRoutes } from '@ejdesk/api-client/testing';
import { renderScreen, screenTestHooks } from '@ejdesk/ui/testing';
import AdminRoutes from '../src/routes.tsx';
import type { AllowedOrigin } from '../src/features/releases/allowed-origins.ts';

const at = '2026-11-20T09:30:00Z';
const slots = [
  {
    name: 'email',
    current: { version: '1.4.0', deployed_by: 'email-team', deployed_at: at, load_failures: 0 },
    canary: { version: '1.5.0', deployed_by: 'email-team', deployed_at: at, load_failures: 1, percent: 10, since: at },
  },
];
const configured: AllowedOrigin = { id: null, remote: 'email', origin: 'http://localhost:3001', configured: true, created_by: null, create_at: null };
const added: AllowedOrigin = {
  id: 7,
  remote: 'email',
  origin: 'https://cdn.bank.example',
  configured: false,
  created_by: 'admin@example.com',
  create_at: at,
};

let network: ReturnType<typeof fakeApi>;
screenTestHooks();
afterEach(restoreFakeApi);

/** The registry's admin routes are not in the client's answer table: typed here instead. */
const api = (routes: Record<string, unknown>) => fakeApi(routes as FakeRoutes);

describe('/releases', () => {
  it('shows each remote’s releases and the origins its releases may come from', async () => {
    network = api({ '/registry/status/': slots, '/registry/origins/': [configured, added] });
    renderScreen(AdminRoutes, '/releases');
    screen.getByRole('heading', { level: 1, name: 'Releases' });
    await screen.findByText('1.5.0 for 10% of operators');
    const origins = await screen.findByRole('table', { name: 'Allowed Origins' });
    const [, first, second] = within(origins).getAllByRole('row');
    expect(first!.textContent).toContain('http://localhost:3001');
    expect(first!.textContent).toContain('REMOTE_ORIGINS (configuration)');
    expect(within(first!).queryByRole('button')).toBeNull();
    expect(second!.textContent).toContain('admin@example.com');
    within(second!).getByRole('button', { name: 'Remove: https://cdn.bank.example for email' });
    screen.getByRole('heading', { level: 2, name: 'Allowed Origins' });
  });

  it('promotes a canary after asking, and says a refused rollback in the dialog', async () => {
    let current: { name: string; current: (typeof slots)[0]['current']; canary: (typeof slots)[0]['canary'] | null }[] = slots;
    network = api({
      '/registry/status/': () => current,
      '/registry/origins/': [configured],
      'POST /registry/email/console/promote/': () => {
        current = [{ ...slots[0]!, current: { ...slots[0]!.current, version: '1.5.0' }, canary: null }];
        return { name: 'email', from: '1.4.0', to: '1.5.0' };
      },
      'POST /registry/email/console/rollback/': () => {
        throw answer(409, { detail: 'email 1.5.0 has no earlier release to roll back to' });
      },
    });
    renderScreen(AdminRoutes, '/releases');
    await userEvent.click(await screen.findByRole('button', { name: 'Promote: email 1.5.0' }));
    const ask = screen.getByRole('dialog', { name: 'Promote the Canary' });
    expect(ask.textContent).toContain('Promote email 1.5.0 to every operator? 1.4.0 is no longer served.');
    expect(network.requests.some((r) => r.method === 'POST')).toBe(false);
    await userEvent.click(within(ask).getByRole('button', { name: 'Promote' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Promote the Canary' })).toBeNull());
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Promote: email 1.5.0' })).toBeNull());
    await userEvent.click(screen.getByRole('button', { name: 'Roll back: email' }));
    const back = screen.getByRole('dialog', { name: 'Roll Back' });
    await userEvent.click(within(back).getByRole('button', { name: 'Roll back' }));
    expect((await within(back).findByRole('alert')).textContent).toBe('email 1.5.0 has no earlier release to roll back to');
  });

  it('allows an origin from the keyboard, showing the API’s refusal inside the form', async () => {
    let rows = [configured];
    network = api({
      '/registry/status/': slots,
      '/registry/origins/': () => rows,
      'POST /registry/origins/': (request: { body: { remote: string; origin: string } }) => {
        if (request.body.origin.includes('/files')) throw answer(400, { detail: "origin: 'https://cdn.bank.example/files' is not an http(s) origin" });
        const row = { ...added, id: 8, remote: request.body.remote, origin: request.body.origin };
        rows = [...rows, row];
        return row;
      },
    });
    renderScreen(AdminRoutes, '/releases');
    await screen.findByText('http://localhost:3001');
    await userEvent.click(screen.getByRole('button', { name: 'Allow Origin' }));
    const dialog = screen.getByRole('dialog', { name: 'Allow Origin' });
    expect(within(dialog).getByRole('button', { name: 'Allow' })).toHaveProperty('disabled', true);
    await userEvent.selectOptions(within(dialog).getByLabelText('Remote'), 'files');
    const field = within(dialog).getByLabelText('Origin (scheme, host and port)');
    expect(field.getAttribute('aria-describedby')).toBe('allowed-origin-hint');
    await userEvent.type(field, 'https://cdn.bank.example/files{Enter}');
    expect((await within(dialog).findByRole('alert')).textContent).toContain('is not an http(s) origin');
    await userEvent.clear(field);
    await userEvent.type(field, 'https://cdn.bank.example{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Allow Origin' })).toBeNull());
    expect(network.requests.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([
      { remote: 'files', origin: 'https://cdn.bank.example/files' },
      { remote: 'files', origin: 'https://cdn.bank.example' },
    ]);
    await screen.findByRole('button', { name: 'Remove: https://cdn.bank.example for files' });
  });

  it('removes an origin an admin allowed, after saying what it stops', async () => {
    let rows = [configured, added];
    network = api({
      '/registry/status/': slots,
      '/registry/origins/': () => rows,
      'DELETE /registry/origins/7/': () => {
        rows = [configured];
        return null;
      },
    });
    renderScreen(AdminRoutes, '/releases');
    await userEvent.click(await screen.findByRole('button', { name: 'Remove: https://cdn.bank.example for email' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove Allowed Origin' });
    expect(dialog.textContent).toContain('Stop allowing https://cdn.bank.example for email?');
    expect(dialog.textContent).toContain('no longer served');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByText('https://cdn.bank.example')).toBeNull());
    expect(network.requests.some((r) => r.method === 'DELETE' && r.path === '/registry/origins/7/')).toBe(true);
  });
});
