// The login form (/login), one for both ways it is reached: the first page of a visit,
// drawn before the rest of the console loads (login-screen.tsx), and /login inside the running
// console after a logout (LoginPage.tsx). It needs only React and fetch, so it loads fast; its
// messages show in the form (role alert / status) rather than as toasts, which would need the
// toast library before anything else. With single sign-on set up, "Sign in with {provider}"
// stands above the password form (or alone: then the form opens only for a break-glass account),
// and the provider's callback ends here: its one-time code becomes the session, its refusal a
// message. An empty field is never sent: the form says what is missing and puts the cursor there;
// after a refusal the cursor is back in the password. The message has its room kept, so nothing
// moves when it shows.
import { useEffect, useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import {
  changePassword,
  exchangeSsoCode,
  LoginError,
  mustChangePassword,
  signIn,
  signInOptions,
  ssoStartUrl,
  takeSsoResult,
  type SignInOptions,
} from '@ejdesk/api-client/sign-in';
import { Button } from '@ejdesk/ui/button';
import { TextField } from '@ejdesk/ui/field';
import styles from './login.module.css';

/** The original client waits this long after a successful login before showing the dashboard. */
const redirectDelayMs = 1500;

interface LoginFormProps {
  /** Keeps the session (the tokens) once the login sequence has succeeded. */
  /** The access token; the refresh token is in the session cookie the API set. */
  onSignedIn: (access: string) => void;
  /** Shows the console, after the redirect delay. */
  onDone: () => void;
}

export function LoginForm({ onSignedIn, onDone }: LoginFormProps) {
  useEffect(() => {
    document.title = 'Login — EJ Desk';
  }, []);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  // The provider's callback result is in the address only as the page opens: taken once, here.
  const [ssoResult] = useState(takeSsoResult);
  const [state, setState] = useState<{ busy: boolean; error?: string; done?: boolean }>(() =>
    ssoResult && 'error' in ssoResult ? { busy: false, error: ssoResult.error } : { busy: ssoResult !== null },
  );
  // After an admin's reset: the tokens wait here until the user has chosen their own password.
  const [pending, setPending] = useState<{ access: string; refresh: string } | null>(null);
  const [newPassword, setNewPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const [options, setOptions] = useState<SignInOptions | null>(null);
  // With the password form off, a break-glass account opens it on purpose.
  const [emergency, setEmergency] = useState(false);
  const usernameRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const newPasswordRef = useRef<HTMLInputElement>(null);
  const repeatedRef = useRef<HTMLInputElement>(null);
  /** The fields the message is about (aria-invalid, and described by it). */
  const [invalid, setInvalid] = useState<string[]>([]);
  const alertId = useId();
  const fieldState = (name: string) => (invalid.includes(name) ? { 'aria-invalid': true, 'aria-describedby': alertId } : {});
  /** Says what went wrong and puts the cursor in the field to mend, its text selected. */
  const refuse = (error: string, fields: string[], focus: RefObject<HTMLInputElement | null>) => {
    setInvalid(fields);
    setState({ busy: false, error });
    focus.current?.focus();
    focus.current?.select();
  };

  const finish = (tokens: { access: string; refresh: string }) => {
    onSignedIn(tokens.access);
    setState({ busy: true, done: true });
    timer.current = setTimeout(onDone, redirectDelayMs);
  };

  useEffect(() => {
    let live = true;
    void signInOptions().then((offered) => live && setOptions(offered));
    if (ssoResult && 'code' in ssoResult) {
      exchangeSsoCode(ssoResult.code).then(
        (tokens) => live && finish(tokens),
        (error: unknown) => live && setState({ busy: false, error: error instanceof LoginError ? error.message : 'Login failed' }),
      );
    }
    return () => {
      live = false;
    };
    // Once, when the page opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const passwordForm = pending !== null || options === null || options.passwordForm || emergency;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const fields = pending
      ? [
          { name: 'new-password', value: newPassword, words: 'a new password', ref: newPasswordRef },
          { name: 'new-password-again', value: repeated, words: 'it again', ref: repeatedRef },
        ]
      : [
          { name: 'username', value: username, words: 'your username', ref: usernameRef },
          { name: 'password', value: password, words: 'your password', ref: passwordRef },
        ];
    const empty = fields.filter((field) => field.value.trim() === '');
    if (empty.length) {
      refuse(
        `Enter ${empty.map((field) => field.words).join(' and ')}.`,
        empty.map((field) => field.name),
        empty[0]!.ref,
      );
      return;
    }
    if (pending && newPassword !== repeated) {
      refuse('The two new passwords differ.', ['new-password-again'], repeatedRef);
      return;
    }
    setInvalid([]);
    setState({ busy: true });
    try {
      if (pending) {
        await changePassword(pending.access, password, newPassword);
        finish(pending);
        return;
      }
      const tokens = await signIn(username, password);
      if (mustChangePassword(tokens.access)) {
        setPending(tokens);
        setState({ busy: false });
        return;
      }
      finish(tokens);
    } catch (error) {
      const message = error instanceof LoginError ? error.message : 'Login failed';
      refuse(message, [pending ? 'new-password' : 'password'], pending ? newPasswordRef : passwordRef);
    }
  }

  return (
    <main className={styles.screen}>
      <form className={styles.card} onSubmit={submit} aria-labelledby="login-heading">
        <div className={styles.brand}>EJ Desk</div>
        <h1 id="login-heading" className={styles.heading}>
          Login
        </h1>
        {options?.sso && !pending && (
          <>
            <a className={`ej-button ej-button--primary ${styles.submit}`} href={ssoStartUrl} aria-disabled={state.busy || undefined}>
              Sign in with {options.sso.displayName}
            </a>
            {passwordForm && <p className={styles.or}>or with your EJ Desk password</p>}
          </>
        )}
        {!passwordForm ? null : pending ? (
          <>
            <p className={styles.note}>An admin has reset your password. Choose your own to go on (at least 10 characters).</p>
            <TextField
              label="New password"
              name="new-password"
              type="password"
              autoComplete="new-password"
              value={newPassword}
              onChange={(e) => setNewPassword(e.target.value)}
              ref={newPasswordRef}
              {...fieldState('new-password')}
              autoFocus
            />
            <TextField
              label="New password again"
              name="new-password-again"
              type="password"
              autoComplete="new-password"
              value={repeated}
              onChange={(e) => setRepeated(e.target.value)}
              ref={repeatedRef}
              {...fieldState('new-password-again')}
            />
          </>
        ) : (
          <>
            <TextField
              label="Username"
              name="username"
              autoComplete="username"
              placeholder="Enter your username"
              value={username}
              onChange={(e) => setUsername(e.target.value)}
              ref={usernameRef}
              {...fieldState('username')}
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
              ref={passwordRef}
              {...fieldState('password')}
            />
          </>
        )}
        {/* Always in the page, so a screen reader hears the message when it appears; its room is
            kept, so the button does not move when it does. */}
        <div className={styles.feedback}>
          <div role="alert" id={alertId} className={state.error ? styles.error : styles.message}>
            {state.error}
          </div>
          <div role="status" className={state.done ? styles.success : styles.message}>
            {state.done ? 'Login successful' : ''}
          </div>
        </div>
        {/* Keys keep the two apart: reusing the clicked button as the submit button, React would let
            the browser submit the empty form on the very click that opens it. */}
        {passwordForm ? (
          <Button key="submit" type="submit" variant={options?.sso && !pending ? 'secondary' : 'primary'} loading={state.busy} className={styles.submit}>
            {state.busy ? 'Logging in...' : pending ? 'Set password and continue' : 'Login'}
          </Button>
        ) : (
          <Button key="break-glass" variant="ghost" size="small" onClick={() => setEmergency(true)}>
            Sign in with a break-glass account
          </Button>
        )}
      </form>
    </main>
  );
}
