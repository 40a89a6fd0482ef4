// /overage and /successing: every record of one kind, in a virtualised table, sorted in the
// browser (the whole list is here) the way the API sorts /email; the order lives in the URL.
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { getEjFileRecords, loadFailure } from '@ejdesk/api-client';
import { Card, Note, Page, sortedRows, useColumnChoice, useListState, useSorting, VirtualTable } from '@ejdesk/ui';
import { ExportButtons } from '../ej-export/index.ts';
import { ejTableColumns } from '../ej-table/index.ts';

const noFilters: string[] = [];

export function EjFileListPage({ kind, title }: { kind: 'overage' | 'succeeding'; title: string }) {
  const query = useQuery({ queryKey: ['ej-file-records', kind], queryFn: () => getEjFileRecords(kind) });
  const columns = useMemo(() => ejTableColumns(kind), [kind]);
  const choice = useColumnChoice(kind, columns);
  const state = useListState(noFilters);
  const { sorting, sortBy } = useSorting(state.ordering, state.setOrdering);
  const rows = useMemo(() => query.data && sortedRows(query.data, sorting, (row, key) => row[key as keyof typeof row]), [query.data, sorting]);
  return (
    <Page title={title} actions={<ExportButtons kind={kind} count={query.data?.length} />}>
      <Note aria-live="polite">{query.data ? `${query.data.length.toLocaleString()} record${query.data.length === 1 ? '' : 's'}` : 'Loading...'}</Note>
      <Card>
        <VirtualTable
          caption={title}
          columns={columns}
          rows={rows}
          loading={query.isFetching}
          error={query.isError ? loadFailure(title.toLowerCase(), query.error) : null}
          onRetry={() => void query.refetch()}
          sorting={sorting}
          onSort={sortBy}
          choice={choice}
        />
      </Card>
    </Page>
  );
}
