// The table columns of an EJ list, from the same column table the exports use (packages/export),
// with operators' formats: amounts right-aligned with two decimals, dates as DD/MM/YY, identifiers
// with a copy button, long text cut to one line with the whole on hover.
import type { DisputeRecord, EjRecord } from '@ejdesk/api-client';
import { ejColumnsFor, type ClockedRecord, type EjListKind } from '@ejdesk/export';
import { CopyableId, CutText, formatAmount, formatShortDate, TextLink, type ColumnDef } from '@ejdesk/ui';
import { DueDate, NextDeadline, penaltyText, StatusChip } from '../disputes/index.ts';
import { VerdictBadge, verdictText } from '../journals/index.ts';

const amounts = new Set(['Transaction Amt.', 'Dispute Amt.', 'Overage']);
const dates = new Set(['Transaction Date', 'Complaint Date', 'Due Date', 'Follow Up']);
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
  'Due Date': 'due_date',
};
/** Free text that can run long: one line, the rest on hover. */
const longText = new Set(['MSP Remarks', 'Short Desc. EJ_Error', 'Short Description', 'Mail Received From', 'Mail Subject']);

export function ejTableColumns(kind: EjListKind): ColumnDef<EjRecord, unknown>[] {
  return ejColumnsFor(kind).map((column) => {
    const value = column.value;
    const read = typeof value === 'function' ? value : (row: ClockedRecord) => row[value];
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
const verdictColumn: ColumnDef<DisputeRecord, unknown> = {
  id: 'Verdict',
  header: 'Verdict',
  accessorFn: (row) => verdictText(row.verdict),
  cell: (c) => (c.row.original.verdict ? <VerdictBadge verdict={c.row.original.verdict} /> : <span className="ej-note">{String(c.getValue())}</span>),
  meta: { nowrap: true },
};

/** The nearest open deadline of all the dispute's clocks: the screen's own column (the exports keep the spec's). */
const nextDeadlineColumn: ColumnDef<DisputeRecord, unknown> = {
  id: 'Next Deadline',
  header: 'Next Deadline',
  accessorFn: (row) => row.next_deadline,
  cell: (c) => (c.row.original.dispute_id ? <NextDeadline clock={c.row.original} /> : ''),
  meta: { nowrap: true, sortKey: 'next_deadline' },
};

/**
 * The dispute table's clock cells, by the shared column's header: the status as a chip linking to
 * the dispute's story, the due date with its days late, the penalty with its currency. Currency is
 * the export's own column (on the screen it is in the penalty).
 */
const clockCells: Record<string, Partial<ColumnDef<DisputeRecord, unknown>> | null> = {
  Status: {
    cell: (c) => {
      const row = c.row.original;
      if (!row.dispute_id) return '';
      return (
        <TextLink to={`/disputes/${row.dispute_id}`}>
          <StatusChip clock={row} />
          <span className="ej-visually-hidden">
            : the story of ATM {row.atm_id}, transaction {row.txt_no}
          </span>
        </TextLink>
      );
    },
  },
  'Due Date': { cell: (c) => (c.row.original.dispute_id ? <DueDate clock={c.row.original} compact /> : '') },
  'Days Late': { meta: { numeric: true, nowrap: true, sortKey: 'days_late' } },
  'Age (days)': { meta: { numeric: true, nowrap: true } },
  Penalty: { accessorFn: (row) => penaltyText(row), cell: (c) => String(c.getValue()), meta: { numeric: true, nowrap: true, sortKey: 'penalty' } },
  Currency: null,
};

/**
 * The dispute table: ATM ID, the clock, the record; the journal's verdict beside the amounts it
 * speaks of, the nearest deadline of all the clocks beside the TAT due date. `openOnly`: every row's dispute is open, so Days Late sorts (a resolved one's stopped).
 */
export function disputeTableColumns(openOnly: boolean): ColumnDef<DisputeRecord, unknown>[] {
  const columns = (ejTableColumns('dispute') as ColumnDef<DisputeRecord, unknown>[]).flatMap((column) => {
    const own = clockCells[column.id!];
    if (own === null) return [];
    if (column.id === 'Days Late' && !openOnly) return [{ ...column, meta: { numeric: true, nowrap: true } } as ColumnDef<DisputeRecord, unknown>];
    return [own ? ({ ...column, ...own } as ColumnDef<DisputeRecord, unknown>) : column];
  });
  return columns.flatMap((column) =>
    column.id === 'Dispute Amt.' ? [column, verdictColumn] : column.id === 'Due Date' ? [column, nextDeadlineColumn] : [column],
  );
}
