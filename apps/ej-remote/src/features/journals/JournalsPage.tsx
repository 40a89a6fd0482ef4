// /journals: every electronic journal received (by mail, upload or folder) with its ATM, day,
// family, transactions and anomalies, newest first; filters by ATM, day and anomaly kept in the URL
// like the other lists. A journal dropped anywhere on the screen, or chosen with the file button,
// is uploaded; each file's answer is said under the button.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { anomalyKinds, getJournalPage, loadFailure, type JournalItem } from '@ejdesk/api-client';
import {
  Card,
  ChoiceField,
  DataTable,
  FilterChips,
  FilterInput,
  formatDateTime,
  formatShortDate,
  Page,
  Pager,
  TextLink,
  TotalRecords,
  useListState,
  type ColumnDef,
} from '@ejdesk/ui';
import { JournalDrop, JournalUploader, useJournalUploads } from './upload.tsx';
import { anomalyLabels } from './words.tsx';
import styles from './journals.module.css';

const filterNames = ['atm_id', 'day', 'anomaly'] as const;
const sourceLabels = { mail: 'Mail', upload: 'Upload', folder: 'Folder' } as const;

const columns: ColumnDef<JournalItem, unknown>[] = [
  {
    id: 'File',
    header: 'File',
    accessorFn: (row) => row.file_name,
    cell: (c) => <TextLink to={`/journals/${c.row.original.id}`}>{c.row.original.file_name}</TextLink>,
  },
  { id: 'ATM ID', header: 'ATM ID', accessorFn: (row) => row.atm_id ?? '—', meta: { nowrap: true } },
  { id: 'Day', header: 'Day', accessorFn: (row) => (row.day ? formatShortDate(row.day) : '—'), meta: { nowrap: true } },
  { id: 'Family', header: 'Family', accessorFn: (row) => row.family.toUpperCase(), meta: { nowrap: true } },
  { id: 'Transactions', header: 'Transactions', accessorFn: (row) => row.transaction_count.toLocaleString('en-US'), meta: { numeric: true } },
  {
    id: 'Anomalies',
    header: 'Anomalies',
    accessorFn: (row) => (row.anomaly_count === 0 ? 'None' : `${row.anomaly_count}: ${row.anomaly_kinds.map((k) => anomalyLabels[k]).join(', ')}`),
  },
  { id: 'Lines', header: 'Lines', accessorFn: (row) => row.line_count.toLocaleString('en-US'), meta: { numeric: true } },
  { id: 'Source', header: 'Source', accessorFn: (row) => sourceLabels[row.source], meta: { nowrap: true } },
  { id: 'Received', header: 'Received', accessorFn: (row) => formatDateTime(row.create_at), meta: { nowrap: true } },
];

const anomalyChoices = [{ value: '', label: 'Any' }, ...anomalyKinds.map((kind) => ({ value: kind, label: anomalyLabels[kind] }))];

export function JournalsPage() {
  const state = useListState(filterNames);
  const { uploads, send } = useJournalUploads();
  const params = { page: state.page, page_size: state.pageSize, ...state.filters };
  const query = useQuery({
    queryKey: ['journals', params],
    queryFn: ({ signal }) => getJournalPage(params, signal),
    placeholderData: keepPreviousData,
  });
  const totalPages = query.data ? query.data.total_pages || Math.ceil(query.data.count / state.pageSize) : 1;
  const applied = [
    ...(state.filters.atm_id ? [{ name: 'atm_id', label: 'ATM ID', value: state.filters.atm_id }] : []),
    ...(state.filters.day ? [{ name: 'day', label: 'Day', value: state.filters.day, type: 'date' as const }] : []),
    ...(state.filters.anomaly
      ? [{ name: 'anomaly', label: 'Anomaly', value: anomalyLabels[state.filters.anomaly as keyof typeof anomalyLabels] ?? state.filters.anomaly }]
      : []),
  ];
  return (
    <JournalDrop onFiles={send}>
      <Page title="Journals">
        <Card>
          <div className={styles.uploadBar}>
            <JournalUploader uploads={uploads} onFiles={send} />
          </div>
          <div className="ej-filters" role="search" aria-label="Filter journals">
            <FilterInput
              label="ATM ID"
              value={state.filters.atm_id}
              onType={(v) => state.typeFilter('atm_id', v)}
              onCommit={(v) => state.setFilters({ atm_id: v })}
              resets={state.resets}
            />
            <FilterInput
              label="Day"
              type="date"
              value={state.filters.day}
              onType={(v) => state.typeFilter('day', v)}
              onCommit={(v) => state.setFilters({ day: v })}
              resets={state.resets}
            />
            <ChoiceField
              label="Anomaly"
              name="anomaly"
              value={state.filters.anomaly}
              options={anomalyChoices}
              onChange={(v) => state.setFilters({ anomaly: v })}
            />
            <TotalRecords count={query.data?.count} />
          </div>
          <FilterChips applied={applied} onRemove={(name) => state.setFilters({ [name]: '' })} onClear={state.reset} />
          <DataTable
            caption="Journals"
            columns={columns}
            rows={query.data?.results}
            loading={query.isFetching}
            error={query.isError ? loadFailure('journals', query.error) : null}
            onRetry={() => void query.refetch()}
            skeletonRows={10}
            emptyText="No journals yet: they arrive by mail, or drop one here."
            paging={{ page: state.page, totalPages, onPage: state.setPage }}
          />
          <Pager
            page={state.page}
            totalPages={totalPages}
            onPage={state.setPage}
            pageSize={state.pageSize}
            onPageSize={state.setPageSize}
            sizeLabel={(n) => String(n)}
          />
        </Card>
      </Page>
    </JournalDrop>
  );
}
