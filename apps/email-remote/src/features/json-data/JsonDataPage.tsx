// The JSON-data table of /data-email (the newest emails) and /all-email/{id} (one email): columns
// are the keys of the first record, missing cells read 'N/A', and both export buttons write the
// rows the table shows.
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { failureReason, type EmailJsonItem, type JsonRecord } from '@ejdesk/api-client';
import { columnsFromFirstRecord, downloadCsv, downloadXlsx, exportFiles, missingValue } from '@ejdesk/export';
import { Button, Card, DataTable, ErrorState, formatAmount, formatLoose, LoadingState, Note, Page, useColumnChoice, type ColumnDef } from '@ejdesk/ui';

interface JsonDataPageProps {
  queryKey: readonly unknown[];
  load: () => Promise<EmailJsonItem[]>;
  note?: string;
}

const display = (value: unknown) =>
  value === null || value === undefined || value === '' ? missingValue : typeof value === 'object' ? JSON.stringify(value) : formatLoose(String(value));

/** A sender's column of money (Amount, Txn Amt., Dispute Amt., Overage, Penalty): its numbers with two decimals. */
const moneyHeader = /amount|\bamt\b|overage|penalty/i;
const plainNumber = /^\s*-?\d+(\.\d+)?\s*$/;
const displayMoney = (value: unknown) => (plainNumber.test(String(value ?? '')) ? formatAmount(String(value)) : display(value));

export function JsonDataPage({ queryKey, load, note }: JsonDataPageProps) {
  const query = useQuery({ queryKey, queryFn: load });
  const rows = useMemo(() => (query.data ?? []).flatMap((item) => item.json_load_data ?? []), [query.data]);
  const exportColumns = useMemo(() => columnsFromFirstRecord(rows), [rows]);
  const columns = useMemo<ColumnDef<JsonRecord, unknown>[]>(
    () =>
      exportColumns.map(({ header }) => {
        const money = moneyHeader.test(header);
        return {
          header,
          id: header,
          accessorFn: (row: JsonRecord) => row[header],
          cell: (c: { getValue: () => unknown }) => (money ? displayMoney(c.getValue()) : display(c.getValue())),
          meta: { numeric: money },
        };
      }),
    [exportColumns],
  );
  // Both JSON tables (every email's, one email's) share one choice: their columns are the senders'.
  const choice = useColumnChoice('email-data', columns);

  if (query.isPending) return <LoadingState label="Loading..." />;
  if (query.isError) return <ErrorState message={`Failed to fetch data: ${failureReason(query.error)}.`} onRetry={() => void query.refetch()} />;
  const { csv, xlsx, sheet } = exportFiles.emailData;
  return (
    <Page
      title="Email Data Table"
      actions={
        <>
          <Button onClick={() => downloadCsv(csv, rows, exportColumns)} disabled={rows.length === 0}>
            Export to CSV
          </Button>
          <Button onClick={() => void downloadXlsx(xlsx, sheet, rows, exportColumns)} disabled={rows.length === 0}>
            Export to Excel
          </Button>
        </>
      }
    >
      {note && <Note>{note}</Note>}
      <Card>
        <DataTable caption="Email Data Table" columns={columns} rows={rows} choice={choice} />
      </Card>
    </Page>
  );
}
