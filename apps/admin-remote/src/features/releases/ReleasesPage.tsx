// Releases: each remote's current release and, while one runs, its canary (the share of operators
// it reaches), who deployed each and when, and how many operators each failed to load for. A canary
// past the failure threshold rolls back by itself; `pnpm remote promote` and `rollback` end one.
import { useQuery } from '@tanstack/react-query';
import { listRemoteSlots, loadFailure, type RemoteSlot } from '@ejdesk/api-client';
import { Card, DataTable, formatDateTime, Page, useColumnChoice, type ColumnDef } from '@ejdesk/ui';

const columns: ColumnDef<RemoteSlot, unknown>[] = [
  { header: 'Remote', accessorKey: 'name' },
  { header: 'Current Release', id: 'current', accessorFn: (s) => s.current.version },
  { header: 'Deployed By', id: 'current_by', accessorFn: (s) => s.current.deployed_by },
  { header: 'Deployed At', id: 'current_at', accessorFn: (s) => formatDateTime(String(s.current.deployed_at)), meta: { nowrap: true } },
  { header: 'Load Failures', id: 'current_failures', accessorFn: (s) => s.current.load_failures, meta: { numeric: true } },
  { header: 'Canary', id: 'canary', accessorFn: (s) => (s.canary ? `${s.canary.version} for ${s.canary.percent}% of operators` : 'None') },
  { header: 'Canary By', id: 'canary_by', accessorFn: (s) => s.canary?.deployed_by ?? '' },
  { header: 'Canary Since', id: 'canary_since', accessorFn: (s) => (s.canary ? formatDateTime(String(s.canary.since)) : ''), meta: { nowrap: true } },
  { header: 'Canary Load Failures', id: 'canary_failures', accessorFn: (s) => s.canary?.load_failures ?? '', meta: { numeric: true } },
];

export function ReleasesPage() {
  const slots = useQuery({ queryKey: ['admin', 'releases'], queryFn: listRemoteSlots });
  const choice = useColumnChoice('releases', columns);
  return (
    <Page title="Releases">
      <Card>
        <DataTable
          caption="Releases"
          columns={columns}
          rows={slots.data}
          loading={slots.isFetching}
          error={slots.isError ? loadFailure('releases', slots.error) : null}
          onRetry={() => void slots.refetch()}
          choice={choice}
        />
      </Card>
    </Page>
  );
}
