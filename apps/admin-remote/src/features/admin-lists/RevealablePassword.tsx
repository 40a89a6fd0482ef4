// A stored password stays masked until an admin asks for it, saying why: the API keeps the reason
// in the audit log beside the reveal. The clear text is dropped again after a short while. Copied,
// it is taken off the clipboard a minute later, where the browser lets the page read the clipboard
// (only when it still holds the password: something copied since stays).
import { useEffect, useState } from 'react';
import { errorDetail, revealBankPassword, type BankPassword } from '@ejdesk/api-client';
import { Button, FormModal, notify, TextField } from '@ejdesk/ui';
import styles from './admin-lists.module.css';

const visibleForMs = 30_000;
const clipboardForMs = 60_000;

async function copyForAMinute(secret: string) {
  await navigator.clipboard.writeText(secret);
  setTimeout(() => {
    void (async () => {
      try {
        if ((await navigator.clipboard.readText()) === secret) await navigator.clipboard.writeText('');
      } catch {
        // The browser does not let the page read the clipboard: it is left as it is.
      }
    })();
  }, clipboardForMs);
}

export function RevealablePassword({ row }: { row: BankPassword }) {
  const [clear, setClear] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (clear === null) return;
    const timer = setTimeout(() => setClear(null), visibleForMs);
    return () => clearTimeout(timer);
  }, [clear]);

  const close = () => {
    setAsking(false);
    setReason('');
    setError(null);
  };
  const reveal = async () => {
    setBusy(true);
    setError(null);
    try {
      setClear((await revealBankPassword(row.id, reason)).bank_pass);
      close();
    } catch (failure) {
      // Said in the dialog it belongs to: the shared client shows no message of its own.
      setError(errorDetail(failure) ?? 'The password could not be shown: the server did not answer.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <span className={styles.password}>
      <code className={styles.secret}>{clear ?? row.bank_pass}</code>
      {clear !== null && (
        <Button
          size="small"
          variant="ghost"
          aria-label={`Copy password for ${row.bank_name}`}
          onClick={() =>
            void copyForAMinute(clear).then(
              () => notify.success('Password copied. It is taken off the clipboard in a minute.'),
              () => notify.error('The browser did not let the page copy; select the password instead.'),
            )
          }
        >
          Copy
        </Button>
      )}
      <Button
        size="small"
        variant="ghost"
        onClick={clear === null ? () => setAsking(true) : () => setClear(null)}
        aria-label={`${clear === null ? 'Show' : 'Hide'} password for ${row.bank_name}`}
      >
        {clear === null ? 'Show' : 'Hide'}
      </Button>
      <FormModal
        open={asking}
        title={`Show the password for ${row.bank_name}`}
        onClose={close}
        onSubmit={() => void reveal()}
        submitLabel="Show password"
        busy={busy}
        canSubmit={Boolean(reason.trim())}
        error={error}
        className={styles.form}
      >
        <TextField
          label="Reason (kept in the audit log)"
          name="reason"
          autoComplete="off"
          maxLength={500}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          autoFocus
        />
      </FormModal>
    </span>
  );
}
