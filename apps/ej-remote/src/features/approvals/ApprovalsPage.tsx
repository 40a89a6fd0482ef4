// /approvals: the changes waiting for a second person (four eyes), newest first, and each one's
// page (/approvals/:id): what it would change now (the disputes it matches, those changed since it
// was made marked), and Approve or Reject with a note. Its maker's own decision is refused by the
// server, and said here as the server says it.
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  decideChangeRequest,
  errorDetail,
  failureReason,
  getChangeRequest,
  getChangeRequests,
  isNotFound,
  loadFailure,
  type ChangeRequest,
} from '@ejdesk/api-client';
import {
  Button,
  ErrorState,
  formatCount,
  formatDateTime,
  LoadingState,
  notify,
  Page,
  PaginatedListPage,
  Panel,
  TextAreaField,
  TextLink,
  type ColumnDef,
  type FilterDef,
} from '@ejdesk/ui';
import styles from './approvals.module.css';

const statusWords: Record<ChangeRequest['status'], string> = { pending: 'Waiting', approved: 'Approved', rejected: 'Rejected' };
const actionWords: Record<ChangeRequest['action'], string> = {
  resolve_credited: 'Resolve, customer credited',
  resolve_rejected: 'Resolve, claim rejected',
  bulk_status: 'Status of many disputes',
  tat_rule: 'TAT rule change',
  bank_password: 'Bank password change',
};

const filters: readonly FilterDef[] = [
  {
    name: 'status',
    label: 'Status',
    type: 'choice',
    options: [
      { value: '', label: 'Any' },
      { value: 'pending', label: 'Waiting' },
      { value: 'approved', label: 'Approved' },
      { value: 'rejected', label: 'Rejected' },
    ],
  },
];

const columns: ColumnDef<ChangeRequest, unknown>[] = [
  {
    header: 'Request',
    id: 'id',
    accessorFn: (r) => r.id,
    cell: (c) => <TextLink to={`/approvals/${c.row.original.id}`}>Request {c.row.original.id}</TextLink>,
  },
  { header: 'What', id: 'action', accessorFn: (r) => actionWords[r.action] },
  { header: 'Change', accessorKey: 'summary' },
  { header: 'Asked By', accessorKey: 'maker' },
  { header: 'Asked', accessorKey: 'made_at', cell: (c) => formatDateTime(c.getValue() as string), meta: { nowrap: true } },
  { header: 'Status', id: 'status', accessorFn: (r) => `${statusWords[r.status]}${r.checker ? ` by ${r.checker}` : ''}` },
];

export function ApprovalsPage() {
  return (
    <PaginatedListPage
      title="Approvals"
      table="approvals"
      queryKey="approvals"
      filters={filters}
      columns={columns}
      load={(params, signal) => getChangeRequests(params, signal)}
      total="inline"
      describeFailure={(error) => loadFailure('approvals', error)}
      isNotFound={isNotFound}
    />
  );
}

export function ApprovalPage() {
  const { id = '' } = useParams();
  const queryClient = useQueryClient();
  const [note, setNote] = useState('');
  const request = useQuery({ queryKey: ['approval', id], queryFn: ({ signal }) => getChangeRequest(Number(id), signal) });
  const decide = useMutation({
    mutationFn: (decision: 'approve' | 'reject') => decideChangeRequest(Number(id), decision, note),
    onSuccess: (decided) => {
      void queryClient.invalidateQueries({ queryKey: ['approval', id] });
      void queryClient.invalidateQueries({ queryKey: ['approvals'] });
      void queryClient.invalidateQueries({ queryKey: ['ej-records'] });
      notify.success(
        decided.status === 'approved' && (decided.action === 'tat_rule' || decided.action === 'bank_password')
          ? 'Approved: the change is made.'
          : decided.status === 'approved'
            ? `Approved: ${formatCount(decided.result?.updated ?? 0)} disputes changed${decided.result?.changed_since ? ` (${formatCount(decided.result.changed_since)} had changed since the request)` : ''}.`
            : 'Rejected: nothing was changed.',
      );
    },
  });
  if (request.isPending) return <LoadingState />;
  if (request.isError)
    return (
      <Page title="Approval">
        <ErrorState message={isNotFound(request.error) ? 'No such request.' : loadFailure('request', request.error)} onRetry={() => void request.refetch()} />
      </Page>
    );
  const r = request.data;
  const problem = decide.error ? (errorDetail(decide.error) ?? failureReason(decide.error)) : null;
  return (
    <Page title={`Request ${r.id}: ${actionWords[r.action]}`}>
      <Panel title="The change">
        <dl className={styles.facts}>
          <div>
            <dt>Asked by</dt>
            <dd>
              {r.maker}, {formatDateTime(r.made_at as string)}
            </dd>
          </div>
          <div>
            <dt>Change</dt>
            <dd>{r.summary}</dd>
          </div>
          {r.change !== null && (
            <div>
              <dt>Disputes</dt>
              <dd>
                {formatCount(r.matched_now)} now ({formatCount(r.matched_then)} when asked)
                {r.changed_since ? `; ${formatCount(r.changed_since)} changed since the request` : ''}
              </dd>
            </div>
          )}
          <div>
            <dt>Status</dt>
            <dd>
              {statusWords[r.status]}
              {r.checker ? ` by ${r.checker}: ${r.decision_note}` : ''}
            </dd>
          </div>
        </dl>
      </Panel>
      {r.change === null ? (
        <Panel title="What it changes">
          <table className="ej-small-table">
            <caption className="ej-visually-hidden">Each field as it is now, and as it would be</caption>
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col">Now</th>
                <th scope="col">Would be</th>
              </tr>
            </thead>
            <tbody>
              {r.fields.map((f) => (
                <tr key={f.field}>
                  <th scope="row">{f.field.replace('_', ' ')}</th>
                  <td>{f.now || '—'}</td>
                  <td>{f.would_be || '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Panel>
      ) : (
        <Panel title={`What it changes${r.matched_now > r.disputes.length ? ` (the first ${r.disputes.length})` : ''}`}>
          <table className="ej-small-table">
            <caption className="ej-visually-hidden">Each dispute as it is now, and the status it would get</caption>
            <thead>
              <tr>
                <th scope="col">Dispute</th>
                <th scope="col">Now</th>
                <th scope="col">Would become</th>
                <th scope="col">Changed since the request</th>
              </tr>
            </thead>
            <tbody>
              {r.disputes.map((d) => (
                <tr key={d.id}>
                  <th scope="row">
                    <TextLink to={`/disputes/${d.id}`}>
                      {d.atm_id} / {d.txt_no}
                    </TextLink>
                  </th>
                  <td>{d.status === 'resolved' ? `resolved (${d.outcome})` : d.status.replace('_', ' ')}</td>
                  <td>{r.change!.status === 'resolved' ? `resolved (${r.change!.outcome})` : r.change!.status.replace('_', ' ')}</td>
                  <td>{d.changed_since ? 'Yes' : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Panel>
      )}
      {r.status === 'pending' && (
        <Panel title="Decide">
          <form
            className={styles.decide}
            aria-label="Decide the request"
            onSubmit={(event) => {
              event.preventDefault();
              const by = (event.nativeEvent as SubmitEvent).submitter?.getAttribute('value');
              if (note.trim()) decide.mutate(by === 'reject' ? 'reject' : 'approve');
            }}
          >
            <TextAreaField
              label="Note"
              name="note"
              required
              maxLength={2000}
              value={note}
              onChange={(e) => setNote(e.target.value)}
              placeholder="What you checked"
            />
            {problem && (
              <p className="ej-form-error" role="alert">
                {problem}
              </p>
            )}
            <div className={styles.buttons}>
              <Button type="submit" value="approve" variant="primary" disabled={!note.trim()} loading={decide.isPending}>
                Approve
              </Button>
              <Button type="submit" value="reject" disabled={!note.trim() || decide.isPending}>
                Reject
              </Button>
            </div>
          </form>
        </Panel>
      )}
    </Page>
  );
}
