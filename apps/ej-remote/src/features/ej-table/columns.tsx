// The table columns of an EJ list, from the same column table the exports use (packages/export),
// with operators' formats: amounts right-aligned with two decimals, dates as DD/MM/YY, identifiers
// with a copy button, long text cut to one line with the whole on hover.
import type { DisputeRecord, EjRecord } from '@ejdesk/api-client';
import { ejColumnsFor, type EjListKind } from '@ejdesk/export';
import { CopyableId, CutText, formatAmount, formatShortDate, TextLink, type ColumnDef } from '@ejdesk/ui';
import { DueDate, penaltyText, statusText } from '../disputes/index.ts';
import { VerdictBadge, verdictText } from '../journals/index.ts';

const amounts = new Set(['Transaction Amt.', 'Dispute Amt.', 'Overage']);
const dates = new Set(['Transaction Date', 'Complaint Date']);
/** Identifiers operators paste elsewhere: a copy button beside each. */
const identifiers = new Set(['ATM ID', 'Card No.', 'TXT No.']);
/** The columns the lists sort by, and the API field each is ordered by. */
const ejSortKeys: Record<string, string> = {
  'ATM ID': 'atm_id',
  'Transaction Date': 'transaction_date',
  'Transaction Amt.': 'transaction_amt',
  'Dispute Amt.': 'dispute_amt',
  'Complaint Date': 'complaint_date',
  'MSP RefNo.': 'msp_ref_no',
};
/** Free text that can run long: one line, the rest on hover. */
const longText = new Set(['MSP Remarks', 'Short Desc. EJ_Error', 'Short Description', 'Mail Received From', 'Mail Subject']);

export function ejTableColumns(kind: EjListKind): ColumnDef<EjRecord, unknown>[] {
  return ejColumnsFor(kind).map((column) => {
    const value = column.value;
    const read = typeof value === 'function' ? value : (row: EjRecord) => row[value];
    const format = amounts.has(column.header)
      ? (v: unknown) => formatAmount(v as number | null)
      : dates.has(column.header)
        ? (v: unknown) => formatShortDate(v as string | null)
        : (v: unknown) => (v === null || v === undefined ? '' : String(v));
    return {
      id: column.header,
      header: column.header,
      accessorFn: read,
      cell: (c) => {
        const text = format(c.getValue());
        if (identifiers.has(column.header)) return <CopyableId text={text} label={column.header} />;
        if (longText.has(column.header)) return <CutText text={text} />;
        return text;
      },
      // One line per record keeps the table dense; it scrolls sideways instead.
      meta: { numeric: amounts.has(column.header), nowrap: true, ...(ejSortKeys[column.header] ? { sortKey: ejSortKeys[column.header] } : {}) },
    };
  });
}

/** The journal's verdict on the record's dispute, in words (none yet: said so). */
export const verdictColumn: ColumnDef<DisputeRecord, unknown> = {
  id: 'Verdict',
  header: 'Verdict',
  accessorFn: (row) => verdictText(row.verdict),
  cell: (c) => (c.row.original.verdict ? <VerdictBadge verdict={c.row.original.verdict} /> : <span className="ej-note">{String(c.getValue())}</span>),
  meta: { nowrap: true },
};

/**
 * The dispute table's turnaround columns: the status (a link to the dispute's story), the due date,
 * the age in days and the penalty so far. Not in the exports: they change with the day.
 */
export const clockColumns: ColumnDef<DisputeRecord, unknown>[] = [
  {
    id: 'Status',
    header: 'Status',
    accessorFn: (row) => statusText(row),
    cell: (c) =>
      c.row.original.dispute_id ? (
        <TextLink to={`/disputes/${c.row.original.dispute_id}`}>
          {String(c.getValue())}
          <span className="ej-visually-hidden">
            : the story of ATM {c.row.original.atm_id}, transaction {c.row.original.txt_no}
          </span>
        </TextLink>
      ) : (
        String(c.getValue())
      ),
    meta: { nowrap: true },
  },
  {
    id: 'Due Date',
    header: 'Due Date',
    accessorFn: (row) => row.due_date,
    cell: (c) => <DueDate clock={c.row.original} />,
    meta: { nowrap: true, sortKey: 'due_date' },
  },
  { id: 'Age (days)', header: 'Age (days)', accessorFn: (row) => row.age_days ?? '', meta: { numeric: true, nowrap: true } },
  { id: 'Penalty', header: 'Penalty', accessorFn: (row) => penaltyText(row), meta: { numeric: true, nowrap: true, sortKey: 'penalty' } },
];
