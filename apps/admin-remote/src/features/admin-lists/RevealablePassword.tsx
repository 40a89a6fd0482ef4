// A stored password stays masked until the operator asks for it; each reveal is audit-logged by the
// API, and the clear text is dropped again after a short while.
import { useEffect, useState } from 'react';
import { revealBankPassword, type BankPassword } from '@ejdesk/api-client';
import { Button } from '@ejdesk/ui';
import styles from './admin-lists.module.css';

const visibleForMs = 30_000;

export function RevealablePassword({ row }: { row: BankPassword }) {
  const [clear, setClear] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (clear === null) return;
    const timer = setTimeout(() => setClear(null), visibleForMs);
    return () => clearTimeout(timer);
  }, [clear]);

  const reveal = async () => {
    setBusy(true);
    try {
      setClear((await revealBankPassword(row.id)).bank_pass);
    } catch {
      // The shared client has already reported the error.
    } finally {
      setBusy(false);
    }
  };

  return (
    <span className={styles.password}>
      <code className={styles.secret}>{clear ?? row.bank_pass}</code>
      <Button
        size="small"
        variant="ghost"
        loading={busy}
        onClick={clear === null ? reveal : () => setClear(null)}
        aria-label={`${clear === null ? 'Show' : 'Hide'} password for ${row.bank_name}`}
      >
        {clear === null ? 'Show' : 'Hide'}
      </Button>
    </span>
  );
}
