// @vitest-environment happy-dom
// The login form with single sign-on: "Sign in with {provider}" above the password form, or alone
// with a break-glass opening; the provider's refusal from the callback's address shown and taken
// out of the address. (That the opening never submits the form is the browser's doing: the e2e
// sso spec checks it in Chromium.)
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LoginForm } from '../src/features/auth/LoginForm.tsx';

let offered: { enabled: boolean; display_name: string | null; local_login: boolean };
let posts: string[];

beforeEach(() => {
  posts = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (init?.method === 'POST') posts.push(url);
      if (url === '/api/auth/oidc/') return new Response(JSON.stringify(offered), { headers: { 'content-type': 'application/json' } });
      return new Response(JSON.stringify({ detail: 'not in this test' }), { status: 400 });
    }),
  );
  history.replaceState(null, '', '/login');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const renderForm = () => render(<LoginForm onSignedIn={vi.fn()} onDone={vi.fn()} />);

describe('the login form with single sign-on', () => {
  it('offers the provider above the password form', async () => {
    offered = { enabled: true, display_name: 'Apex Bank SSO', local_login: true };
    renderForm();
    expect((await screen.findByRole('link', { name: 'Sign in with Apex Bank SSO' })).getAttribute('href')).toBe('/api/auth/oidc/login/');
    screen.getByPlaceholderText('Enter your username');
    screen.getByRole('button', { name: 'Login' });
  });

  it('with the password form off, the break-glass button opens the form', async () => {
    offered = { enabled: true, display_name: 'Apex Bank SSO', local_login: false };
    renderForm();
    await screen.findByRole('link', { name: 'Sign in with Apex Bank SSO' });
    expect(screen.queryByPlaceholderText('Enter your username')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Sign in with a break-glass account' }));
    screen.getByPlaceholderText('Enter your username');
    screen.getByRole('button', { name: 'Login' });
    expect(posts).toEqual([]);
    expect(screen.getByRole('alert').textContent).toBe('');
  });

  it('shows the provider’s refusal from the callback, and takes it out of the address', async () => {
    offered = { enabled: true, display_name: 'Apex Bank SSO', local_login: true };
    history.replaceState(null, '', `/login#sso_error=${encodeURIComponent('carol@bank.test is in neither group.')}`);
    renderForm();
    expect(screen.getByRole('alert').textContent).toBe('carol@bank.test is in neither group.');
    expect(window.location.hash).toBe('');
    await screen.findByRole('link', { name: 'Sign in with Apex Bank SSO' });
  });
});
