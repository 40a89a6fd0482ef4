// The audit log: every login, logout, reveal and change on the admin lists, newest
// first, filtered by who, what and when, and exported whole as the server writes it; its hash
// chain verified and downloaded signed (ChainCheck).
import { useState } from 'react';
import { downloadAuditLog, errorDetail, getAuditPage, isNotFound, loadFailure, type AuditEntry } from '@ejdesk/api-client';
import { saveFile } from '@ejdesk/export';
import { Button, formatDateTime, notify, PaginatedListPage, type ColumnDef, type FilterDef } from '@ejdesk/ui';
import { ChainCheck } from './ChainCheck.tsx';

const filters: readonly FilterDef[] = [
  { name: 'who', label: 'Who', type: 'text' },
  { name: 'action', label: 'What', type: 'text' },
  { name: 'from', label: 'From', type: 'date' },
  { name: 'to', label: 'To', type: 'date' },
];

/** The actions in the operators' words. */
const actionNames: Record<string, string> = {
  login: 'Login',
  login_failed: 'Failed login',
  logout: 'Logout',
  reveal: 'Password shown',
  create: 'Created',
  change: 'Changed',
  delete: 'Deleted',
  replace: 'Replaced by a rules file',
  reprocess: 'Reprocess requested',
  reset_password: 'Password reset',
  change_password: 'Password changed',
  sso_login: 'Single sign-on',
  sso_refused: 'Single sign-on refused',
  sso_backchannel_logout: 'Signed out by the identity provider',
  revoke: 'Revoked',
  deploy: 'Deployed',
  rollback: 'Rolled back',
  promote: 'Promoted',
  status: 'Dispute status set',
  status_undo: 'Dispute status change undone',
  follow_up: 'Dispute owner or follow-up set',
};

const columns: ColumnDef<AuditEntry, unknown>[] = [
  { header: 'When', accessorKey: 'at', cell: (c) => formatDateTime(c.getValue() as string), meta: { nowrap: true } },
  { header: 'Who', accessorKey: 'user_email', cell: (c) => (c.getValue() as string | null) ?? '—' },
  { header: 'What', accessorKey: 'action', cell: (c) => actionNames[c.getValue() as string] ?? (c.getValue() as string) },
  { header: 'Record', id: 'record', accessorFn: (row) => `${row.entity.replace('_', ' ')}${row.entity_id ? ` ${row.entity_id}` : ''}` },
  { header: 'Detail', accessorKey: 'detail', cell: (c) => (c.getValue() as string | null) ?? '' },
  { header: 'IP', accessorKey: 'ip', cell: (c) => (c.getValue() as string | null) ?? '', meta: { nowrap: true } },
];

function ExportButton({ applied }: { applied: Record<string, string> }) {
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    try {
      saveFile('audit_log.csv', await downloadAuditLog(applied), 'text/csv;charset=utf-8');
    } catch (error) {
      notify.error(`The audit log could not be exported: ${errorDetail(error) ?? 'the server did not answer'}.`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button onClick={() => void save()} loading={busy}>
      Export to CSV
    </Button>
  );
}

export function AuditLogPage() {
  return (
    <PaginatedListPage
      title="Audit Log"
      table="audit-log"
      queryKey="audit-log"
      filters={filters}
      columns={columns}
      load={(params, signal) => getAuditPage(params, signal)}
      total="inline"
      describeFailure={(error) => loadFailure('audit log', error)}
      isNotFound={isNotFound}
      actions={(applied) => (
        <>
          <ExportButton applied={applied} />
          <ChainCheck applied={applied} />
        </>
      )}
    />
  );
}
