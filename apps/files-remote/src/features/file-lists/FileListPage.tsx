// A kind's list of files: paginated with filters for the four text kinds, the whole list for Excel,
// PDF and other formats.
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { getDataFilePage, getDataFiles, isNotFound, loadFailure, type DataFileListRow } from '@ejdesk/api-client';
import { Card, DataTable, formatDateTime, Page, PaginatedListPage, TextLink, useColumnChoice, type ColumnDef, type FilterDef } from '@ejdesk/ui';
import type { FileKind } from '../../lib/kinds.ts';

const filters: readonly FilterDef[] = [
  { name: 'name', label: 'Name', type: 'text' },
  { name: 'subject_name', label: 'Subject Name', type: 'text' },
  { name: 'create_at_after', label: 'Created After', type: 'date' },
  { name: 'create_at_before', label: 'Created Before', type: 'date' },
];

function fileColumns(kind: FileKind): ColumnDef<DataFileListRow, unknown>[] {
  return [
    { header: kind.nameHeader, accessorKey: 'name', meta: { sortKey: 'name' } },
    ...(kind.paginated ? [{ header: 'Email Subject', accessorKey: 'subject_name' } as ColumnDef<DataFileListRow, unknown>] : []),
    { header: 'Data Creation', accessorKey: 'create_at', cell: (c) => formatDateTime(c.getValue() as string), meta: { nowrap: true, sortKey: 'create_at' } },
    { header: 'Last Update', accessorKey: 'update_at', cell: (c) => formatDateTime(c.getValue() as string), meta: { nowrap: true, sortKey: 'update_at' } },
    {
      header: 'Details',
      id: 'link',
      cell: ({ row }) => (
        <TextLink to={`${kind.path}/${row.original.id}`} aria-label={`Show Data: ${row.original.name}`}>
          Show Data
        </TextLink>
      ),
    },
  ];
}

function ListedFiles({ kind, columns }: { kind: FileKind; columns: ColumnDef<DataFileListRow, unknown>[] }) {
  const query = useQuery({ queryKey: ['data-files', kind.api], queryFn: () => getDataFiles(kind.api) });
  const choice = useColumnChoice(kind.path.slice(1), columns);
  return (
    <Page title={kind.title}>
      <Card>
        <DataTable
          caption={kind.title}
          columns={columns}
          rows={query.data}
          loading={query.isFetching}
          error={query.isError ? loadFailure('list of files', query.error) : null}
          onRetry={() => void query.refetch()}
          choice={choice}
        />
      </Card>
    </Page>
  );
}

export function FileListPage({ kind }: { kind: FileKind }) {
  const columns = useMemo(() => fileColumns(kind), [kind]);
  if (!kind.paginated) return <ListedFiles kind={kind} columns={columns} />;
  return (
    <PaginatedListPage
      title={kind.title}
      table={kind.path.slice(1)}
      queryKey={`data-files${kind.api}`}
      filters={filters}
      columns={columns}
      load={(params, signal) => getDataFilePage(kind.api, params, signal)}
      total="inline"
      describeFailure={(error) => loadFailure('list', error)}
      isNotFound={isNotFound}
      defaultOrdering="-create_at"
    />
  );
}
