// One's own password, for every role: the current one, then the new one twice.
import { useState, type FormEvent } from 'react';
import { changePassword, LoginError, sessionStore } from '@ejdesk/api-client';
import { Button, Card, notify, Page, TextField } from '@ejdesk/ui';
import styles from './login.module.css';

export function ChangePasswordPage() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeated, setRepeated] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (next !== repeated) return setError('The two new passwords differ.');
    setBusy(true);
    try {
      await changePassword(sessionStore.getState().token ?? '', current, next);
      notify.success('Your password is changed.');
      setCurrent('');
      setNext('');
      setRepeated('');
    } catch (failure) {
      setError(failure instanceof LoginError ? failure.message : 'The password could not be changed.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Page title="Change Password">
      <Card>
        <form className={styles.account} onSubmit={submit}>
          <TextField label="Current password" type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
          <TextField
            label="New password (at least 10 characters)"
            type="password"
            autoComplete="new-password"
            value={next}
            onChange={(e) => setNext(e.target.value)}
          />
          <TextField label="New password again" type="password" autoComplete="new-password" value={repeated} onChange={(e) => setRepeated(e.target.value)} />
          {error && (
            <p className="ej-form-error" role="alert">
              {error}
            </p>
          )}
          <div>
            <Button type="submit" variant="primary" loading={busy} disabled={!current || next.length < 10}>
              Change password
            </Button>
          </div>
        </form>
      </Card>
    </Page>
  );
}
