// A kind's list of files: paginated for the four text kinds, the whole list for Excel, PDF and other
// formats; every one with filters, a count and sorting by its headers.
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { getDataFilePage, getDataFiles, isNotFound, loadFailure, type DataFileListRow } from '@ejdesk/api-client';
import {
  Card,
  containsFilter,
  DataTable,
  dayFilter,
  FilterBar,
  formatDateTime,
  Page,
  PaginatedListPage,
  TextLink,
  TotalRecords,
  useColumnChoice,
  useWholeList,
  type ColumnDef,
  type FilterDef,
  type WholeFilter,
} from '@ejdesk/ui';
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

/** The whole-list kinds' filters, applied in the browser as the API applies the paged kinds'. */
const wholeFilters: readonly WholeFilter<DataFileListRow>[] = [
  { name: 'name', label: 'Name', type: 'text', test: containsFilter((r) => r.name) },
  { name: 'create_at_after', label: 'Created After', type: 'date', test: dayFilter((r) => r.create_at, 'from') },
  { name: 'create_at_before', label: 'Created Before', type: 'date', test: dayFilter((r) => r.create_at, 'to') },
];
const readFile = (row: DataFileListRow, key: string) => row[key as keyof DataFileListRow];

/** Excel, PDF and other formats: every file at once, filtered, counted and sorted here. */
function ListedFiles({ kind, columns }: { kind: FileKind; columns: ColumnDef<DataFileListRow, unknown>[] }) {
  const query = useQuery({ queryKey: ['data-files', kind.api], queryFn: () => getDataFiles(kind.api) });
  const choice = useColumnChoice(kind.path.slice(1), columns);
  const list = useWholeList(query.data, wholeFilters, readFile);
  return (
    <Page title={kind.title}>
      <Card>
        <FilterBar title={kind.title} filters={wholeFilters} state={list.state}>
          <TotalRecords count={list.shown?.length} />
        </FilterBar>
        <DataTable
          caption={kind.title}
          columns={columns}
          rows={list.shown}
          loading={query.isFetching}
          error={query.isError ? loadFailure('list of files', query.error) : null}
          onRetry={() => void query.refetch()}
          sorting={list.sorting}
          onSort={list.sortBy}
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
