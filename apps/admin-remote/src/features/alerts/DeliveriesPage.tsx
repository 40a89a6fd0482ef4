// /alert-deliveries: every warning and digest the workers made, newest first: to whom, by which
// channel, how many tries, and what the relay or the webhook answered last.
import { getAlertDeliveries, isNotFound, loadFailure, type AlertDelivery } from '@ejdesk/api-client';
import { formatDateTime, PaginatedListPage, type ColumnDef, type FilterDef } from '@ejdesk/ui';

const filters: readonly FilterDef[] = [
  {
    name: 'status',
    label: 'Status',
    type: 'choice',
    options: [
      { value: '', label: 'Any' },
      { value: 'pending', label: 'Waiting' },
      { value: 'sending', label: 'Sending' },
      { value: 'sent', label: 'Sent' },
      { value: 'failed', label: 'Failed' },
    ],
  },
];

const statusWords: Record<AlertDelivery['status'], string> = { pending: 'Waiting', sending: 'Sending', sent: 'Sent', failed: 'Failed' };

const columns: ColumnDef<AlertDelivery, unknown>[] = [
  { header: 'Made', accessorKey: 'create_at', cell: (c) => formatDateTime(c.getValue() as string), meta: { nowrap: true } },
  {
    header: 'What',
    id: 'what',
    accessorFn: (r) => (r.kind === 'digest' ? `Digest of ${r.due_on}` : `${r.rule_name ?? 'A deleted rule'}: ${r.clock_name} due ${r.due_on}`),
  },
  { header: 'Dispute', id: 'dispute', accessorFn: (r) => (r.atm_id ? `${r.atm_id} / ${r.txt_no}` : '') },
  { header: 'To', id: 'to', accessorFn: (r) => `${r.channel === 'webhook' ? 'Webhook ' : ''}${r.recipient}` },
  { header: 'Status', id: 'status', accessorFn: (r) => statusWords[r.status] },
  { header: 'Tries', accessorKey: 'attempts', meta: { numeric: true } },
  { header: 'Last Answer', accessorKey: 'last_answer' },
  { header: 'Sent', accessorKey: 'sent_at', cell: (c) => (c.getValue() ? formatDateTime(c.getValue() as string) : ''), meta: { nowrap: true } },
];

export function DeliveriesPage() {
  return (
    <PaginatedListPage
      title="Alert Deliveries"
      table="alert-deliveries"
      queryKey="alert-deliveries"
      filters={filters}
      columns={columns}
      load={(params, signal) => getAlertDeliveries(params, signal)}
      total="inline"
      describeFailure={(error) => loadFailure('alert deliveries', error)}
      isNotFound={isNotFound}
    />
  );
}
