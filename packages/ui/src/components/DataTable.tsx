// The one table of the console: columns declared once (react-table), with the loading, empty and
// error states in place of the rows so the page never jumps while data arrives. With `selection`
// each row leads with a box to tick, and the header with one for the whole page. With `paging`
// the rows take the keyboard (arrows, j and k move the row focus, Enter opens the row's link) and
// the list's keys work (ListKeys); the row opened has the focus again when Back returns to it.
import { useCallback, useEffect, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef, type RowData } from '@tanstack/react-table';
import { clampWidth, type ColumnChoiceState } from '../column-choice.ts';
import type { TableSorting } from '../sorting.ts';
import { ColumnChooser } from './ColumnChooser.tsx';
import { ListKeys, type ListPaging } from './ListKeys.tsx';
import { SavedViews } from './SavedViews.tsx';
import { ErrorState } from './States.tsx';
import { cellClass, noRows, TableHead, widthStyle } from './TableHead.tsx';

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
  /** The list's pages: the rows and the list take the keyboard. */
  paging?: ListPaging;
}

/** The row each list (its URL) had the focus on when it was opened with Enter: Back focuses it again. */
const openedRows = new Map<string, number>();
const here = () => window.location.pathname + window.location.search;

/** Row focus by keyboard: one row in the tab order at a time (a roving tabindex). */
function useRowFocus(rowCount: number, loading: boolean) {
  const body = useRef<HTMLTableSectionElement>(null);
  const [active, setActive] = useState(0);
  const rowsNow = () => [...(body.current?.querySelectorAll<HTMLTableRowElement>(':scope > tr[tabindex]') ?? [])];
  const focusRow = (at: number) => {
    const rows = rowsNow();
    const row = rows[Math.max(0, Math.min(at, rows.length - 1))];
    row?.focus();
  };
  // Back from a row opened with Enter: the same row has the focus again once the rows are in.
  useEffect(() => {
    if (loading || rowCount === 0) return;
    const at = openedRows.get(here());
    if (at === undefined) return;
    openedRows.delete(here());
    rowsNow()[Math.min(at, rowCount - 1)]?.focus();
  }, [rowCount, loading]);
  const onKeyDown = (event: KeyboardEvent<HTMLTableSectionElement>) => {
    const row = event.target as HTMLElement;
    // Keys inside a cell (a link, a box) are the cell's.
    if (row.tagName !== 'TR' || event.ctrlKey || event.metaKey || event.altKey) return;
    const at = rowsNow().indexOf(row as HTMLTableRowElement);
    const moves: Record<string, number> = { ArrowDown: at + 1, j: at + 1, ArrowUp: at - 1, k: at - 1, Home: 0, End: rowCount - 1 };
    if (event.key in moves) {
      event.preventDefault();
      focusRow(moves[event.key]!);
    } else if (event.key === 'Enter') {
      const link = row.querySelector<HTMLElement>('a[href]');
      if (!link) return;
      event.preventDefault();
      openedRows.set(here(), at);
      link.click();
    }
  };
  const onFocus = useCallback((event: FocusEvent<HTMLTableSectionElement>) => {
    const row = (event.target as HTMLElement).closest('tr');
    const at = row ? [...(body.current?.querySelectorAll(':scope > tr[tabindex]') ?? [])].indexOf(row) : -1;
    if (at >= 0) setActive(at);
  }, []);
  return { body, active: Math.min(active, Math.max(0, rowCount - 1)), onKeyDown, onFocus };
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
  paging,
}: DataTableProps<Row>) {
  const table = useReactTable({
    data: rows ?? noRows,
    columns,
    // No pages or expanded rows here to reset when the rows change (see noRows).
    autoResetAll: false,
    getCoreRowModel: getCoreRowModel(),
    ...(getRowId ? { getRowId } : {}),
    ...(choice ? { state: { columnOrder: choice.columnOrder, columnVisibility: choice.columnVisibility } } : {}),
  });
  const width = table.getVisibleLeafColumns().length + (selection ? 1 : 0);
  const focus = useRowFocus(error ? 0 : table.getRowModel().rows.length, loading);
  // A column being dragged shows its width at once; it is kept (the column choice) when let go.
  const [dragged, setDragged] = useState<{ id: string; width: number } | null>(null);
  const widths = choice ? (dragged ? { ...choice.widths, [dragged.id]: dragged.width } : choice.widths) : undefined;
  const onResize = choice
    ? (id: string, width: number, done: boolean) => {
        if (done) {
          setDragged(null);
          choice.resize(id, width);
        } else setDragged({ id, width: clampWidth(width) });
      }
    : undefined;
  const wrap = useRef<HTMLDivElement>(null);
  const tableElement = useCallback(() => wrap.current, []);
  // A column's width as shown now: where the Columns menu's Narrower and Wider start from.
  const measure = useCallback((id: string) => wrap.current?.querySelector(`th[data-column="${CSS.escape(id)}"]`)?.getBoundingClientRect().width, []);

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
    body = table.getRowModel().rows.map((row, at) => (
      <tr key={row.id} tabIndex={paging ? (at === focus.active ? 0 : -1) : undefined}>
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
          <td key={cell.id} className={cellClass(cell.column.columnDef.meta)} style={widthStyle(widths?.[cell.column.id])}>
            {flexRender(cell.column.columnDef.cell, cell.getContext())}
          </td>
        ))}
      </tr>
    ));
  }

  return (
    <>
      {(choice || paging) && (
        <div className="ej-table-tools">
          {paging && <ListKeys paging={paging} table={tableElement} />}
          {views && choice && <SavedViews list={views.list} title={caption ?? 'the table'} choice={choice} params={views.params} />}
          {choice && <ColumnChooser choice={choice} table={caption ?? 'the table'} measure={measure} />}
        </div>
      )}
      {/* A wide table scrolls sideways; the box takes focus so the keyboard can scroll it too. */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
      <div ref={wrap} className="ej-table-wrap" tabIndex={0} role="region" aria-label={caption ?? 'Table'}>
        <table className={selection ? 'ej-table ej-table--selectable' : 'ej-table'} aria-busy={loading || undefined}>
          {caption && <caption className="ej-visually-hidden">{caption}</caption>}
          <TableHead
            table={table}
            sorting={sorting}
            onSort={onSort}
            leading={selection && <PageBox rows={table.getRowModel().rows.map((r) => r.original)} selection={selection} />}
            widths={widths}
            onResize={onResize}
          />
          {/* The focusable rows' keys, delegated to their body (the rows are in the tab order). */}
          {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions */}
          <tbody ref={focus.body} onKeyDown={paging ? focus.onKeyDown : undefined} onFocus={paging ? focus.onFocus : undefined}>
            {body}
          </tbody>
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
