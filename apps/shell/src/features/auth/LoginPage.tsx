import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate, type Location } from 'react-router-dom';
import { Button, notify, TextField } from '@ejdesk/ui';
import { logIn, LoginError } from './login.ts';
import styles from './login.module.css';

/** The original client waits this long after a successful login before showing the dashboard. */
export const redirectDelayMs = 1500;

export function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  useEffect(() => {
    document.title = 'Login — EJ Desk';
  }, []);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [loading, setLoading] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const from = (location.state as { from?: Location } | null)?.from;
  const target = from && from.pathname !== '/login' ? `${from.pathname}${from.search}` : '/dashboard';

  async function submit(event: FormEvent) {
    event.preventDefault();
    setLoading(true);
    try {
      await logIn(username, password);
      notify.success('Login successful');
      timer.current = setTimeout(() => navigate(target, { replace: true }), redirectDelayMs);
    } catch (error) {
      notify.error(error instanceof LoginError ? error.message : 'Login failed');
      setLoading(false);
    }
  }

  return (
    <main className={styles.screen}>
      <form className={styles.card} onSubmit={submit} aria-labelledby="login-heading">
        <div className={styles.brand}>EJ Desk</div>
        <h1 id="login-heading" className={styles.heading}>
          Login
        </h1>
        <TextField
          label="Username"
          name="username"
          autoComplete="username"
          placeholder="Enter your username"
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          autoFocus
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          placeholder="Enter your password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <Button type="submit" variant="primary" loading={loading} className={styles.submit}>
          {loading ? 'Logging in...' : 'Login'}
        </Button>
      </form>
    </main>
  );
}
