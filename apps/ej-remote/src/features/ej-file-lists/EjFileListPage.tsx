// /overage and /successing: every record of one kind, in a virtualised table.
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { getEjFileRecords, loadFailure } from '@ejdesk/api-client';
import { Card, Page, VirtualTable } from '@ejdesk/ui';
import { ExportButtons } from '../ej-export/ExportButtons.tsx';
import { ejTableColumns } from '../ej-table/columns.tsx';

export function EjFileListPage({ kind, title }: { kind: 'overage' | 'succeeding'; title: string }) {
  const query = useQuery({ queryKey: ['ej-file-records', kind], queryFn: () => getEjFileRecords(kind) });
  const columns = useMemo(() => ejTableColumns(kind), [kind]);
  return (
    <Page title={title} actions={<ExportButtons kind={kind} count={query.data?.length} />}>
      <p className="ej-note" aria-live="polite">
        {query.data ? `${query.data.length.toLocaleString()} records` : 'Loading...'}
      </p>
      <Card>
        <VirtualTable
          caption={title}
          columns={columns}
          rows={query.data}
          loading={query.isFetching}
          error={query.isError ? loadFailure(title.toLowerCase(), query.error) : null}
          onRetry={() => void query.refetch()}
        />
      </Card>
    </Page>
  );
}
