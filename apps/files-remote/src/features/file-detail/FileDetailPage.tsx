// A file's extracted rows: the 16-column table, the ATM ID / Card No / Txn No search boxes (they
// filter, an improvement on the original) and the exports of the rows shown; the email the file
// came in, and each row's dispute, a click away.
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router-dom';
import { getDataFileDetail, isNotFound, loadFailure, type LabelledRow } from '@ejdesk/api-client';
import { downloadCsv, downloadXlsx, exportFiles, nothingToExport } from '@ejdesk/export';
import {
  Button,
  Card,
  DataTable,
  ErrorState,
  FilterChips,
  FilterInput,
  formatAmount,
  LoadingState,
  notify,
  Page,
  TextLink,
  useColumnChoice,
  useListState,
  type ColumnDef,
} from '@ejdesk/ui';
import type { FileKind } from '../../lib/kinds.ts';
import { amountHeaders, detailColumns } from './columns.ts';
import styles from './file-detail.module.css';

const searches = [
  { name: 'atm_id', label: 'ATM ID', key: 'ATM ID' },
  { name: 'card_no', label: 'Card No', key: 'CARD No.' },
  { name: 'txn_no', label: 'Txn No', key: 'TXT No.' },
] as const;
const searchNames = searches.map((s) => s.name);

export function FileDetailPage({ kind }: { kind: FileKind }) {
  const { id = '' } = useParams();
  const state = useListState(searchNames);
  const query = useQuery({
    queryKey: ['data-file', kind.api, id],
    queryFn: () => getDataFileDetail(kind.api, id),
  });
  const exportColumns = useMemo(() => detailColumns(kind), [kind]);
  const columns = useMemo<ColumnDef<LabelledRow, unknown>[]>(
    () => [
      ...exportColumns.map((column): ColumnDef<LabelledRow, unknown> => ({
        id: column.header,
        header: column.header,
        accessorFn: column.value as (row: LabelledRow) => unknown,
        cell: (c) => (amountHeaders.has(column.header) ? formatAmount(c.getValue() as string) : String(c.getValue() ?? '')),
        meta: { numeric: amountHeaders.has(column.header) || column.header === 'ID', nowrap: true },
      })),
      // Last, the dispute the row names: on the screen only (the exports keep the original's columns).
      {
        id: 'Dispute',
        header: 'Dispute',
        accessorFn: (row) => row.dispute_id,
        cell: (c) =>
          c.row.original.dispute_id ? (
            <TextLink to={`/disputes/${String(c.row.original.dispute_id)}`}>
              Open
              <span className="ej-visually-hidden">
                {' '}
                the dispute of ATM {String(c.row.original['ATM ID'])}, transaction {String(c.row.original['TXT No.'])}
              </span>
            </TextLink>
          ) : (
            <span className="ej-note">None</span>
          ),
        meta: { nowrap: true },
      },
    ],
    [exportColumns],
  );
  const choice = useColumnChoice(`${kind.path.slice(1)}-rows`, columns);
  const rows = useMemo(() => {
    const all = (query.data?.[kind.rowsKey] as LabelledRow[] | undefined) ?? [];
    const wanted = searches.map((s) => [s.key, state.filters[s.name].trim().toLowerCase()] as const).filter(([, text]) => text);
    return all.filter((row) =>
      wanted.every(([key, text]) =>
        String(row[key] ?? '')
          .toLowerCase()
          .includes(text),
      ),
    );
  }, [query.data, kind.rowsKey, state.filters]);

  if (query.isPending) return <LoadingState label="Loading..." />;
  if (query.isError && isNotFound(query.error)) return <ErrorState message={`File ${id} was not found: it may have been removed, or the link is wrong.`} />;
  if (query.isError) return <ErrorState message={loadFailure("file's data", query.error)} onRetry={() => void query.refetch()} />;
  const { csv, xlsx, sheet } = exportFiles.textData;
  return (
    <Page
      title={`${kind.title}: ${query.data.name}`}
      actions={
        <>
          <Button onClick={() => (rows.length ? downloadCsv(csv, rows, exportColumns) : notify.info(nothingToExport))}>Export to CSV</Button>
          <Button onClick={() => (rows.length ? void downloadXlsx(xlsx, sheet, rows, exportColumns) : notify.info(nothingToExport))}>Export to Excel</Button>
        </>
      }
    >
      <p className={styles.source}>
        {query.data.email_id ? (
          <>
            From the email <TextLink to={`/email-details-data/${query.data.email_id}`}>{query.data.email_subject || `number ${query.data.email_id}`}</TextLink>
          </>
        ) : (
          'The email this file came in is no longer kept.'
        )}
      </p>
      <Card>
        <div className="ej-filters" role="search" aria-label="Search the rows">
          {searches.map((search) => (
            <FilterInput
              key={search.name}
              label={search.label}
              value={state.filters[search.name]}
              onType={(value) => state.typeFilter(search.name, value)}
              onCommit={(value) => state.setFilters({ [search.name]: value })}
              resets={state.resets}
            />
          ))}
          <p className="ej-total" aria-live="polite">
            {rows.length} rows
          </p>
        </div>
        <FilterChips
          applied={searches.filter((s) => state.filters[s.name]).map((s) => ({ name: s.name, label: s.label, value: state.filters[s.name] }))}
          onRemove={(name) => state.setFilters({ [name]: '' })}
          onClear={state.reset}
        />
        <DataTable caption={`Rows of ${query.data.name}`} columns={columns} rows={rows} choice={choice} />
      </Card>
    </Page>
  );
}
