// Mail Flow: is the mailbox being read right now? Per mailbox (and per `pnpm ingest --from`
// import) its state, last finished sync or run and checkpoint, what waits and what was processed lately; then the recent failures,
// each with its reason and a link to its email. The answer refreshes when the server says mail was
// processed (the live events), and on Refresh. A stall is the shell's banner, on every screen.
import { useQuery } from '@tanstack/react-query';
import { getMailFlow, loadFailure, type MailFailure, type MailboxFlow } from '@ejdesk/api-client';
import { Button, Card, DataTable, formatDateTime, Page, TextLink, type ColumnDef } from '@ejdesk/ui';
import styles from './mail-flow.module.css';

const mailFlowQueryKey = ['mail-flow'] as const;

const stateNames: Record<string, string> = {
  connecting: 'Connecting',
  connected: 'Connected',
  disconnected: 'Disconnected',
  stopped: 'Stopped',
  importing: 'Importing',
  imported: 'Imported',
};

const when = (value: string | null) => (value ? formatDateTime(value) : 'Never');

const mailboxColumns: ColumnDef<MailboxFlow, unknown>[] = [
  { header: 'Mailbox', accessorKey: 'source' },
  {
    header: 'State',
    accessorKey: 'state',
    cell: ({ row }) => <span className={`${styles.state} ${styles[row.original.state] ?? ''}`}>{stateNames[row.original.state] ?? row.original.state}</span>,
  },
  { header: 'Last Sync', accessorKey: 'last_sync_at', cell: (c) => when(c.getValue() as string | null), meta: { nowrap: true } },
  {
    header: 'Checkpoint',
    id: 'checkpoint',
    // An import (`pnpm ingest --from`) has no checkpoint: it reads its files once.
    accessorFn: (row) => (!row.source.startsWith('imap:') ? '—' : row.last_uid === null ? 'None yet' : `UID ${row.last_uid} (validity ${row.uid_validity})`),
    meta: { nowrap: true },
  },
  { header: 'Waiting', accessorKey: 'waiting', meta: { numeric: true } },
  { header: 'Last Hour', accessorKey: 'processed_last_hour', meta: { numeric: true } },
  { header: 'Last Day', accessorKey: 'processed_last_day', meta: { numeric: true } },
  { header: 'Problem', accessorKey: 'last_error', cell: (c) => (c.getValue() as string | null) ?? '' },
  // Which worker process watches it now (several may run on one database; one holds each mailbox):
  // last, as the operators' least daily concern.
  { header: 'Watched By', id: 'worker', accessorFn: (row) => row.worker ?? '—', meta: { nowrap: true } },
];

const failureColumns: ColumnDef<MailFailure, unknown>[] = [
  { header: 'When', accessorKey: 'at', cell: (c) => formatDateTime(c.getValue() as string), meta: { nowrap: true } },
  { header: 'From', accessorKey: 'email_from' },
  {
    header: 'Subject',
    accessorKey: 'subject',
    cell: ({ row }) => <TextLink to={`/email-details-data/${row.original.email_id}`}>{row.original.subject || `Email ${row.original.email_id}`}</TextLink>,
  },
  { header: 'Reason', accessorKey: 'reason', cell: (c) => <span className={styles.reason}>{c.getValue() as string}</span> },
];

export function MailFlowPage() {
  const flow = useQuery({ queryKey: mailFlowQueryKey, queryFn: getMailFlow, meta: { live: true } });
  const data = flow.data;
  const error = flow.isError ? loadFailure('mail flow', flow.error) : null;
  return (
    <Page
      title="Mail Flow"
      actions={
        <Button onClick={() => void flow.refetch()} loading={flow.isFetching}>
          Refresh
        </Button>
      }
    >
      <dl className={styles.figures} aria-label="The queue">
        <div>
          <dt>Waiting</dt>
          <dd>{data?.queue.waiting ?? '—'}</dd>
        </div>
        <div>
          <dt>Oldest Waiting Since</dt>
          <dd>{data ? (data.queue.oldest_waiting_at ? formatDateTime(data.queue.oldest_waiting_at) : 'Nothing waits') : '—'}</dd>
        </div>
        <div>
          <dt>Processed in the Last Hour</dt>
          <dd>{data?.queue.processed_last_hour ?? '—'}</dd>
        </div>
        <div>
          <dt>Processed in the Last Day</dt>
          <dd>{data?.queue.processed_last_day ?? '—'}</dd>
        </div>
      </dl>
      <h2 className={styles.heading}>Mailboxes</h2>
      <Card>
        <DataTable
          caption="Mailboxes"
          columns={mailboxColumns}
          rows={data?.mailboxes}
          loading={flow.isPending}
          error={error}
          onRetry={() => void flow.refetch()}
          emptyText="No mailbox is watched: the API reads one when IMAP_HOST and its settings are set (see the README)."
          skeletonRows={1}
        />
      </Card>
      <h2 className={styles.heading}>Recent Failures</h2>
      <Card>
        <DataTable
          caption="Recent failures"
          columns={failureColumns}
          rows={data?.failures}
          loading={flow.isPending}
          error={error}
          onRetry={() => void flow.refetch()}
          emptyText="No failures."
          skeletonRows={3}
        />
      </Card>
    </Page>
  );
}
