// The table columns of an EJ list, from the same column table the exports use (packages/export),
// with operators' formats: amounts right-aligned with two decimals, dates as DD/MM/YY.
import type { EjRecord } from '@ejdesk/api-client';
import { ejColumnsFor, type EjListKind } from '@ejdesk/export';
import { formatAmount, formatShortDate, type ColumnDef } from '@ejdesk/ui';

const amounts = new Set(['Transaction Amt.', 'Dispute Amt.', 'Overage']);
const dates = new Set(['Transaction Date', 'Complaint Date']);

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
      cell: (c) => format(c.getValue()),
      // One line per record keeps the table dense; it scrolls sideways instead.
      meta: { numeric: amounts.has(column.header), nowrap: true },
    };
  });
}
