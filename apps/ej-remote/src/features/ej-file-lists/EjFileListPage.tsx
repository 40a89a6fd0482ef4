// /overage and /successing: every record of one kind, in a virtualised table, filtered and sorted
// in the browser (the whole list is here) the way the API filters and sorts /email; the filters and
// the order live in the URL, and the exports take the same filters (the server applies them).
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { getEjFileRecords, loadFailure, type EjRecord } from '@ejdesk/api-client';
import { Card, containsFilter, dayFilter, FilterBar, Page, TotalRecords, useColumnChoice, useWholeList, VirtualTable, type WholeFilter } from '@ejdesk/ui';
import { ExportButtons } from '../ej-export/index.ts';
import { ejTableColumns } from '../ej-table/index.ts';

/** The filters the API takes for these kinds too (so an export holds the rows shown), read as it reads them. */
const filters: readonly WholeFilter<EjRecord>[] = [
  { name: 'start_date', label: 'Start Date', type: 'date', test: dayFilter((r) => r.transaction_date, 'from') },
  { name: 'end_date', label: 'End Date', type: 'date', test: dayFilter((r) => r.transaction_date, 'to') },
  { name: 'atm_id', label: 'ATM ID', type: 'text', test: containsFilter((r) => r.atm_id) },
  { name: 'card_no', label: 'Card No.', type: 'text', test: containsFilter((r) => r.card_no) },
  { name: 'mail_received_from', label: 'Mail Received From', type: 'text', test: containsFilter((r) => r.mail_received_from) },
];
const readRecord = (row: EjRecord, key: string) => row[key as keyof EjRecord];

export function EjFileListPage({ kind, title }: { kind: 'overage' | 'succeeding'; title: string }) {
  const query = useQuery({ queryKey: ['ej-file-records', kind], queryFn: () => getEjFileRecords(kind) });
  const columns = useMemo(() => ejTableColumns(kind), [kind]);
  const choice = useColumnChoice(kind, columns);
  const list = useWholeList(query.data, filters, readRecord);
  return (
    <Page title={title} actions={<ExportButtons kind={kind} filters={list.state.filters} count={list.shown?.length} />}>
      <Card>
        <FilterBar title={title} filters={filters} state={list.state}>
          <TotalRecords count={list.shown?.length} />
        </FilterBar>
        <VirtualTable
          caption={title}
          columns={columns}
          rows={list.shown}
          loading={query.isFetching}
          error={query.isError ? loadFailure(title.toLowerCase(), query.error) : null}
          onRetry={() => void query.refetch()}
          sorting={list.sorting}
          onSort={list.sortBy}
          choice={choice}
        />
      </Card>
    </Page>
  );
}
