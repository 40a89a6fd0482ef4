// The login form (SPEC.md "/login"), one for both ways it is reached: the first page of a visit,
// drawn before the rest of the console loads (login-screen.tsx), and /login inside the running
// console after a logout (LoginPage.tsx). It needs only React and fetch, so it loads fast; its
// messages show in the form (role alert / status) rather than as toasts, which would need the
// toast library before anything else.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { LoginError, signIn } from '@ejdesk/api-client/sign-in';
import { Button } from '@ejdesk/ui/button';
import { TextField } from '@ejdesk/ui/field';
import styles from './login.module.css';

/** The original client waits this long after a successful login before showing the dashboard. */
export const redirectDelayMs = 1500;

export interface LoginFormProps {
  /** Keeps the session (the tokens) once the login sequence has succeeded. */
  onSignedIn: (access: string, refresh: string) => void;
  /** Shows the console, after the redirect delay. */
  onDone: () => void;
}

export function LoginForm({ onSignedIn, onDone }: LoginFormProps) {
  useEffect(() => {
    document.title = 'Login — EJ Desk';
  }, []);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [state, setState] = useState<{ busy: boolean; error?: string; done?: boolean }>({ busy: false });
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setState({ busy: true });
    try {
      const { access, refresh } = await signIn(username, password);
      onSignedIn(access, refresh);
      setState({ busy: true, done: true });
      timer.current = setTimeout(onDone, redirectDelayMs);
    } catch (error) {
      setState({ busy: false, error: error instanceof LoginError ? error.message : 'Login failed' });
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
        {/* Always in the page, so a screen reader hears the message when it appears. */}
        <div role="alert" className={state.error ? styles.error : styles.message}>
          {state.error}
        </div>
        <div role="status" className={state.done ? styles.success : styles.message}>
          {state.done ? 'Login successful' : ''}
        </div>
        <Button type="submit" variant="primary" loading={state.busy} className={styles.submit}>
          {state.busy ? 'Logging in...' : 'Login'}
        </Button>
      </form>
    </main>
  );
}
