// One paginated email list, configured by a row of lists.ts.
import { useMemo } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { describeError, getEmailPage, type EmailListRow } from '@ejdesk/api-client';
import { Button, Card, DataTable, FilterInput, formatDateTime, Page, Pager, useListState, type ColumnDef } from '@ejdesk/ui';
import type { EmailListConfig } from './lists.ts';

export function EmailListPage({ list }: { list: EmailListConfig }) {
  const filterNames = useMemo(() => list.filters.map((f) => f.name), [list]);
  const state = useListState(filterNames);
  const params = { page: state.page, page_size: state.pageSize, ...state.filters };
  const query = useQuery({
    queryKey: ['emails', list.endpoint, params],
    queryFn: async ({ signal }) => {
      try {
        return await getEmailPage(list.endpoint, params, signal);
      } catch (error) {
        console.error('Error fetching data', error);
        throw error;
      }
    },
    placeholderData: keepPreviousData,
  });
  const data = query.data;
  const totalPages = data?.total_pages ?? (data ? Math.ceil(data.count / state.pageSize) : 1);

  const columns = useMemo<ColumnDef<EmailListRow, unknown>[]>(
    () => [
      { header: 'Email From', accessorKey: 'email_from' },
      { header: 'Email Subject', accessorKey: 'subject_name' },
      { header: 'Data Creation', accessorKey: 'create_at', cell: (c) => formatDateTime(c.getValue() as string), meta: { nowrap: true } },
      { header: 'Last Update', accessorKey: 'update_at', cell: (c) => formatDateTime(c.getValue() as string), meta: { nowrap: true } },
      {
        header: list.linkColumn,
        id: 'link',
        cell: ({ row }) => (
          <Link className="ej-link" to={list.linkTo(row.original.id)} aria-label={`Show Data: ${row.original.subject_name}`}>
            Show Data
          </Link>
        ),
      },
    ],
    [list],
  );

  const total = <p className="ej-total" aria-live="polite">Total Records: {data?.count ?? 0}</p>;
  return (
    <Page title={list.variant === 'all-email' ? total : list.title}>
      <Card>
        <div className="ej-filters" role="search" aria-label={`Filter ${list.title}`}>
          {list.filters.map((filter) => (
            <FilterInput
              key={filter.name}
              label={filter.label}
              type={filter.type}
              value={state.filters[filter.name] ?? ''}
              onCommit={(value) => state.setFilters({ [filter.name]: value })}
            />
          ))}
          {list.variant === 'all-email' && <Button onClick={state.reset}>Reset Filters</Button>}
          {list.variant === 'category' && total}
        </div>
        <DataTable
          caption={list.title}
          columns={columns}
          rows={data?.results}
          loading={query.isFetching}
          error={query.isError ? `Could not load the list. ${describeError(query.error)}` : null}
          onRetry={() => void query.refetch()}
          skeletonRows={state.pageSize > 20 ? 20 : state.pageSize}
        />
        <Pager
          page={state.page}
          totalPages={totalPages}
          onPage={state.setPage}
          pageSize={state.pageSize}
          onPageSize={state.setPageSize}
          sizeLabel={list.variant === 'all-email' ? undefined : (n) => String(n)}
        />
      </Card>
    </Page>
  );
}
