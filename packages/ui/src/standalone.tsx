// A remote on its own (`pnpm --filter <remote> dev`): its routes with the same providers the shell
// gives them, a bar of its own links and a sign-in form. Development only; the shell composes
// remotes in production.
import { useState, type ComponentType, type FormEvent } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter, NavLink } from 'react-router-dom';
import './tokens.css';
import { Button } from './components/Button.tsx';
import { TextField } from './components/Field.tsx';
import { notify, Toaster } from './components/Toaster.tsx';

interface StandaloneOptions {
  title: string;
  Routes: ComponentType;
  links: readonly { label: string; to: string }[];
  isSignedIn: () => boolean;
  signIn: (username: string, password: string) => Promise<void>;
}

function SignIn({ signIn }: Pick<StandaloneOptions, 'signIn'>) {
  const [username, setUsername] = useState('operator@example.com');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await signIn(username, password);
      window.location.reload();
    } catch {
      notify.error('Sign-in failed');
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} className="ej-card" style={{ display: 'grid', gap: 12, maxWidth: 320, padding: 24 }}>
      <TextField label="Username" value={username} onChange={(e) => setUsername(e.target.value)} />
      <TextField label="Password" type="password" value={password} onChange={(e) => setPassword(e.target.value)} />
      <Button type="submit" variant="primary" loading={busy}>
        Sign in
      </Button>
    </form>
  );
}

export function mountStandalone({ title, Routes, links, isSignedIn, signIn }: StandaloneOptions): void {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });
  createRoot(document.getElementById('root')!).render(
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <header style={{ display: 'flex', gap: 16, padding: '12px 24px', background: 'var(--ej-nav-bg)', color: '#fff' }}>
          <strong>{title}</strong>
          {links.map((link) => (
            <NavLink key={link.to} to={link.to} style={{ color: 'inherit' }}>
              {link.label}
            </NavLink>
          ))}
        </header>
        <main style={{ padding: 24 }}>{isSignedIn() ? <Routes /> : <SignIn signIn={signIn} />}</main>
      </BrowserRouter>
      <Toaster />
    </QueryClientProvider>,
  );
}
