// A user's row on the Users screen: enable or disable the account, make it an admin or an operator,
// reset the password (the user then chooses their own at the next login). Your own row has none
// (the API refuses locking yourself out; another admin has to).
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { changeAccount, errorDetail, resetAccountPassword, useSession, type Account } from '@ejdesk/api-client';
import { Button, FormModal, Note, notify, TextField } from '@ejdesk/ui';

export const accountsQueryKey = ['admin', 'users'] as const;

export function AccountActions({ account }: { account: Account }) {
  const me = useSession((s) => s.userId);
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: (patch: Parameters<typeof changeAccount>[1]) => changeAccount(account.id, patch),
    onSuccess: (row) => {
      notify.success(`${row.email}: ${row.is_active ? 'enabled' : 'disabled'}, ${row.role}`);
      void queryClient.invalidateQueries({ queryKey: accountsQueryKey });
    },
    onError: (error) => notify.error(`${account.email} could not be changed: ${errorDetail(error) ?? 'the server did not answer'}.`),
  });
  const [resetting, setResetting] = useState(false);
  const [given, setGiven] = useState('');
  const reset = useMutation({
    mutationFn: () => resetAccountPassword(account.id, given),
    onSuccess: (row) => {
      notify.success(`${row.email} chooses a new password at the next login.`);
      closeReset();
      void queryClient.invalidateQueries({ queryKey: accountsQueryKey });
    },
  });
  const closeReset = () => {
    setResetting(false);
    setGiven('');
    reset.reset();
  };
  if (account.id === me) return <Note inline>You</Note>;
  return (
    <span style={{ display: 'inline-flex', gap: 'var(--ej-space-2)' }}>
      <Button
        size="small"
        loading={change.isPending}
        onClick={() => change.mutate({ is_active: !account.is_active })}
        aria-label={`${account.is_active ? 'Disable' : 'Enable'}: ${account.email}`}
      >
        {account.is_active ? 'Disable' : 'Enable'}
      </Button>
      <Button
        size="small"
        variant="ghost"
        loading={change.isPending}
        onClick={() => change.mutate({ role: account.role === 'admin' ? 'operator' : 'admin' })}
        // The name starts with the button's own words (WCAG 2.5.3), then whose row it is.
        aria-label={`${account.role === 'admin' ? 'Make operator' : 'Make admin'}: ${account.email}`}
      >
        {account.role === 'admin' ? 'Make operator' : 'Make admin'}
      </Button>
      <Button size="small" variant="ghost" onClick={() => setResetting(true)} aria-label={`Reset password: ${account.email}`}>
        Reset password
      </Button>
      <FormModal
        open={resetting}
        title={`Reset the password of ${account.email}`}
        onClose={closeReset}
        onSubmit={() => reset.mutate()}
        submitLabel="Reset password"
        busy={reset.isPending}
        canSubmit={given.length >= 10}
        error={reset.isError ? (errorDetail(reset.error) ?? 'The password could not be reset: the server did not answer.') : null}
      >
        <TextField
          label="Password to give (at least 10 characters; they choose their own at the next login)"
          type="password"
          autoComplete="new-password"
          value={given}
          onChange={(e) => setGiven(e.target.value)}
          autoFocus
        />
      </FormModal>
    </span>
  );
}
