// A user's row on the Users screen: enable or disable the account, make it an admin or an operator.
// Your own row has none (the API refuses locking yourself out; another admin has to).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { changeAccount, errorDetail, useSession, type Account } from '@ejdesk/api-client';
import { Button, notify } from '@ejdesk/ui';

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
  if (account.id === me) return <span className="ej-note">You</span>;
  return (
    <span style={{ display: 'inline-flex', gap: 'var(--ej-space-2)' }}>
      <Button size="small" loading={change.isPending} onClick={() => change.mutate({ is_active: !account.is_active })} aria-label={`${account.is_active ? 'Disable' : 'Enable'}: ${account.email}`}>
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
    </span>
  );
}
