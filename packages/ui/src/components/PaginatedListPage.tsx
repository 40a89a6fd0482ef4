// The one paginated list screen: filters, total, table, pager, with its state in the URL. Each list
// (all-email, the email categories, the text file lists, the audit log, the journals) is this
// component plus a small config.
import { useEffect, useMemo, type ReactNode } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useColumnChoice } from '../column-choice.ts';
import { useListState, type ListState } from '../list-state.ts';
import { useSorting } from '../sorting.ts';
import { Button } from './Button.tsx';
import { DataTable } from './DataTable.tsx';
import { FilterBar, type FilterDef } from './FilterBar.tsx';
import { Card, Page } from './Page.tsx';
import { lastPageOf, Pager } from './Pager.tsx';
import { TotalRecords } from './States.tsx';

export interface PageResult<Row> {
  count: number;
  /** False: count is an estimate of a broad match (lists of mail that may hold millions). */
  count_exact?: boolean;
  /** The page answered: page=last says which it was. */
  page?: number;
  total_pages?: number;
  results: Row[];
}

export interface PaginatedListPageProps<Row> {
  title: string;
  /** The list's name for the operator's column choice (`columns.<table>`): lower case and dashes. */
  table: string;
  /** What the query cache calls this list. */
  queryKey: string;
  filters: readonly FilterDef[];
  columns: ColumnDef<Row, unknown>[];
  load: (params: Record<string, string | number>, signal: AbortSignal) => Promise<PageResult<Row>>;
  /** 'heading': the page heading is 'Total Records: n' (/all-email); 'inline': beside the filters. */
  total: 'heading' | 'inline';
  resetButton?: boolean;
  /** How the page-size options read: '{n} per page' on /all-email, the number elsewhere. */
  sizeLabel?: (size: number) => string;
  /** The one message shown when the list cannot load, in words. */
  describeFailure: (error: unknown) => string;
  /** Whether a load failed for want of the page asked for (a page past the end). */
  isNotFound: (error: unknown) => boolean;
  /** The API's order when the URL names none (e.g. '-create_at'); columns with a sortKey sort. */
  defaultOrdering?: string;
  /** Buttons beside the heading (an export), given the filters applied. */
  actions?: (filters: Record<string, string>) => ReactNode;
  /** Refreshed when new mail is processed (the shell's live events refetch `meta.live` queries). */
  live?: boolean;
  /** Above the filters, in the card (the Journals screen's upload). */
  header?: ReactNode;
  /** What an empty list says (it tells where the rows come from). */
  emptyText?: string;
}

export function PaginatedListPage<Row>(props: PaginatedListPageProps<Row>) {
  const { title, filters, columns, load, total, resetButton = false, sizeLabel = (n) => String(n) } = props;
  const filterNames = useMemo(() => filters.map((f) => f.name), [filters]);
  const state = useListState(filterNames);
  const params = { page: state.page, page_size: state.pageSize, ...state.filters, ...(state.ordering ? { ordering: state.ordering } : {}) };
  const { sorting, sortBy } = useSorting(state.ordering, state.setOrdering, props.defaultOrdering);
  const choice = useColumnChoice(props.table, columns);
  const query = useQuery({
    queryKey: [props.queryKey, params],
    meta: { live: props.live === true },
    queryFn: async ({ signal }) => {
      try {
        return await load(params, signal);
      } catch (error) {
        // A page past the end (an old link, or rows gone since): the first page says where the end is.
        if (params.page > 1 && props.isNotFound(error)) {
          const first = await load({ ...params, page: 1 }, signal);
          return { ...first, lastPage: Math.max(1, first.total_pages || Math.ceil(first.count / state.pageSize)) };
        }
        console.error('Error fetching data', error);
        throw error;
      }
    },
    placeholderData: keepPreviousData,
  });
  const clampTo = query.data && 'lastPage' in query.data ? query.data.lastPage : undefined;
  const { clampPage } = state;
  useEffect(() => {
    if (clampTo !== undefined) clampPage(clampTo);
  }, [clampTo, clampPage]);
  // Until the last page has loaded, the first page's rows are not shown as if they were it.
  const data = clampTo === undefined ? query.data : undefined;
  const totalPages = data ? data.total_pages || Math.ceil(data.count / state.pageSize) : 1;
  const exact = data?.count_exact !== false;
  // Under an estimate the last page's number is unknown: the API counts exactly (page=last) and says it.
  const onLast = async () => {
    const last = await load({ ...params, page: 'last' }, new AbortController().signal);
    state.setPage(lastPageOf(last, state.pageSize));
  };

  return (
    <Page
      title={title}
      heading={total === 'heading' ? <TotalRecords as="span" count={data?.count} exact={exact} /> : undefined}
      actions={props.actions?.(state.filters)}
    >
      <Card>
        {props.header}
        <FilterBar title={title} filters={filters} state={state as ListState<string>} clearable={!resetButton}>
          {resetButton && <Button onClick={state.reset}>Reset Filters</Button>}
          {total === 'inline' && <TotalRecords count={data?.count} exact={exact} />}
        </FilterBar>
        <DataTable
          caption={title}
          columns={columns}
          rows={data?.results}
          loading={query.isFetching}
          error={query.isError ? props.describeFailure(query.error) : null}
          onRetry={() => void query.refetch()}
          skeletonRows={Math.min(state.pageSize, 20)}
          emptyText={props.emptyText}
          sorting={sorting}
          onSort={props.defaultOrdering ? sortBy : undefined}
          choice={choice}
          views={{ list: props.table, params: [...filterNames, 'ordering', 'page_size'] }}
          paging={{ page: state.page, totalPages, onPage: state.setPage }}
        />
        <Pager
          page={state.page}
          totalPages={totalPages}
          onPage={state.setPage}
          pageSize={state.pageSize}
          onPageSize={state.setPageSize}
          sizeLabel={sizeLabel}
          exact={exact}
          onLast={() => void onLast()}
        />
      </Card>
    </Page>
  );
}
