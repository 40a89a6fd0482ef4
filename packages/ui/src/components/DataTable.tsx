// The one table of the console: columns declared once (react-table), with the loading, empty and
// error states in place of the rows so the page never jumps while data arrives. With `selection`
// each row leads with a box to tick, and the header with one for the whole page.
import { useEffect, useRef } from 'react';
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef, type RowData } from '@tanstack/react-table';
import type { ColumnChoiceState } from '../column-choice.ts';
import type { TableSorting } from '../sorting.ts';
import { ColumnChooser } from './ColumnChooser.tsx';
import { SavedViews } from './SavedViews.tsx';
import { ErrorState } from './States.tsx';
import { cellClass, TableHead } from './TableHead.tsx';

declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Right-aligned with tabular figures, for amounts and counts. */
    numeric?: boolean;
    nowrap?: boolean;
    /** The API's ordering field for this column: its header sorts the list by it. */
    sortKey?: string;
  }
}

/** Rows the operator ticks (for a bulk action); kept by the page, so they outlive a page turn. */
export interface RowSelection<Row> {
  isSelected: (row: Row) => boolean;
  /** Tick or untick these rows (one, or the whole page). */
  onChange: (rows: Row[], selected: boolean) => void;
  /** The row's box as a screen reader says it: "Select the dispute of ATM ..., transaction ...". */
  label: (row: Row) => string;
  /** A row that cannot be ticked shows its box disabled (an EJ row with no dispute). */
  canSelect?: (row: Row) => boolean;
}

/** The header's box: ticks or unticks every row on the page; mixed when some are ticked. */
function PageBox<Row>({ rows, selection }: { rows: Row[]; selection: RowSelection<Row> }) {
  const ref = useRef<HTMLInputElement>(null);
  const tickable = rows.filter((row) => selection.canSelect?.(row) !== false);
  const ticked = tickable.filter((row) => selection.isSelected(row)).length;
  const all = tickable.length > 0 && ticked === tickable.length;
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = ticked > 0 && !all;
  }, [ticked, all]);
  return (
    <th scope="col" className="ej-tick">
      <input
        ref={ref}
        type="checkbox"
        aria-label="Select every row on this page"
        checked={all}
        disabled={tickable.length === 0}
        onChange={() => selection.onChange(tickable, !all)}
      />
    </th>
  );
}

export interface DataTableProps<Row> {
  columns: ColumnDef<Row, any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any
  rows: Row[] | undefined;
  /** Names the table for screen readers (the page heading already shows it). */
  caption?: string;
  loading?: boolean;
  error?: string | null;
  onRetry?: () => void;
  emptyText?: string;
  /** Rows of skeleton shown while the first page loads. */
  skeletonRows?: number;
  getRowId?: (row: Row) => string;
  /** The order the rows are in, and what a click on a sortable header asks for. */
  sorting?: TableSorting;
  onSort?: (key: string) => void;
  /** The operator's columns (useColumnChoice): the table shows them and offers the Columns menu. */
  choice?: ColumnChoiceState;
  /** The list's saved views (a Views menu beside Columns): its name and the query parameters it reads. */
  views?: { list: string; params: readonly string[] };
  selection?: RowSelection<Row>;
}

export function DataTable<Row>({
  columns,
  rows,
  caption,
  loading = false,
  error = null,
  onRetry,
  emptyText = 'No records found',
  skeletonRows = 5,
  getRowId,
  sorting,
  onSort,
  choice,
  views,
  selection,
}: DataTableProps<Row>) {
  const table = useReactTable({
    data: rows ?? [],
    columns,
    getCoreRowModel: getCoreRowModel(),
    ...(getRowId ? { getRowId } : {}),
    ...(choice ? { state: { columnOrder: choice.columnOrder, columnVisibility: choice.columnVisibility } } : {}),
  });
  const width = table.getVisibleLeafColumns().length + (selection ? 1 : 0);

  let body;
  if (error) {
    body = (
      <tr>
        <td colSpan={width}>
          <ErrorState message={error} onRetry={onRetry} />
        </td>
      </tr>
    );
  } else if (loading && !rows) {
    body = Array.from({ length: skeletonRows }, (_, i) => (
      <tr key={i} aria-hidden="true">
        {selection && <td className="ej-tick" />}
        {table.getVisibleLeafColumns().map((column) => (
          <td key={column.id}>
            <span className="ej-skeleton" />
          </td>
        ))}
      </tr>
    ));
  } else if (table.getRowModel().rows.length === 0) {
    body = (
      <tr>
        <td colSpan={width} className="ej-state">
          {emptyText}
        </td>
      </tr>
    );
  } else {
    body = table.getRowModel().rows.map((row) => (
      <tr key={row.id}>
        {selection && (
          <td className="ej-tick">
            <input
              type="checkbox"
              aria-label={selection.label(row.original)}
              checked={selection.isSelected(row.original)}
              disabled={selection.canSelect?.(row.original) === false}
              onChange={(e) => selection.onChange([row.original], e.target.checked)}
            />
          </td>
        )}
        {row.getVisibleCells().map((cell) => (
          <td key={cell.id} className={cellClass(cell.column.columnDef.meta)}>
            {flexRender(cell.column.columnDef.cell, cell.getContext())}
          </td>
        ))}
      </tr>
    ));
  }

  return (
    <>
      {choice && (
        <div className="ej-table-tools">
          {views && <SavedViews list={views.list} title={caption ?? 'the table'} choice={choice} params={views.params} />}
          <ColumnChooser choice={choice} table={caption ?? 'the table'} />
        </div>
      )}
      {/* A wide table scrolls sideways; the box takes focus so the keyboard can scroll it too. */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
      <div className="ej-table-wrap" tabIndex={0} role="region" aria-label={caption ?? 'Table'}>
        <table className={selection ? 'ej-table ej-table--selectable' : 'ej-table'} aria-busy={loading || undefined}>
          {caption && <caption className="ej-visually-hidden">{caption}</caption>}
          <TableHead
            table={table}
            sorting={sorting}
            onSort={onSort}
            leading={selection && <PageBox rows={table.getRowModel().rows.map((r) => r.original)} selection={selection} />}
          />
          <tbody>{body}</tbody>
        </table>
        {loading && rows && (
          <span className="ej-visually-hidden" role="status">
            Loading...
          </span>
        )}
      </div>
    </>
  );
}
