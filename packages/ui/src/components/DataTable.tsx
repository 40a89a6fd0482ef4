// The one table of the console: columns declared once (react-table), with the loading, empty and
// error states in place of the rows so the page never jumps while data arrives. With `selection`
// each row leads with a box to tick, and the header with one for the whole page. With `paging`
// the rows take the keyboard (arrows, j and k move the row focus, Enter opens the row's link) and
// the list's keys work (ListKeys); the row opened has the focus again when Back returns to it.
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type FocusEvent,
  type KeyboardEvent,
  type RefObject,
} from 'react';
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef, type RowData } from '@tanstack/react-table';
import { clampWidth, type ColumnChoiceState } from '../column-choice.ts';
import type { TableSorting } from '../sorting.ts';
import { ColumnChooser } from './ColumnChooser.tsx';
import { ListKeys, type ListAction, type ListPaging } from './ListKeys.tsx';
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
  /** The list's own keys (with `paging`): each runs on the row that has the focus, if one has. */
  actions?: readonly RowAction<Row>[];
}

/** A key of the list's own: `run` gets the focused row (none when the focus is elsewhere). */
export interface RowAction<Row> {
  key: string;
  label: string;
  run: (focused: Row | undefined) => void;
}

/** The row each list (its URL) had the focus on when it was opened with Enter: Back focuses it again. */
const openedRows = new Map<string, number>();
const here = () => window.location.pathname + window.location.search;

/**
 * The left offsets of the pinned columns after the first (the first is pinned by CSS): measured
 * from the header cells, again whenever the header row changes size (a column resized, data in).
 */
function usePinnedOffsets(wrap: RefObject<HTMLDivElement | null>, count: number, leading: number, columnsKey: string) {
  const [lefts, setLefts] = useState<number[]>([]);
  useLayoutEffect(() => {
    const row = wrap.current?.querySelector<HTMLTableRowElement>('thead tr');
    if (!row || count <= 1) return;
    const measure = () => {
      const cells = [...row.children] as HTMLElement[];
      const next: number[] = [];
      let left = 0;
      for (let i = 0; i < leading + count && i < cells.length; i++) {
        if (i >= leading) next.push(left);
        left += cells[i]!.getBoundingClientRect().width;
      }
      setLefts((now) => (now.length === next.length && now.every((v, i) => v === next[i]) ? now : next));
    };
    // The observer reports each cell's size once at the start, then on every change.
    const watch = new ResizeObserver(measure);
    for (const cell of row.children) watch.observe(cell);
    return () => watch.disconnect();
  }, [wrap, count, leading, columnsKey]);
  return count <= 1 ? noOffsets : lefts;
}
const noOffsets: number[] = [];

/** A pinned column's cells after the first: sticky at their measured offset. */
const pinnedStyle = (lefts: number[], at: number, base: CSSProperties | undefined): CSSProperties | undefined =>
  at > 0 && lefts[at] !== undefined ? { ...base, position: 'sticky', left: lefts[at], zIndex: 1 } : base;

/** Row focus by keyboard: one row in the tab order at a time (a roving tabindex). */
function useRowFocus<Row>(rows: Row[], loading: boolean, selection: RowSelection<Row> | undefined) {
  const rowCount = rows.length;
  const body = useRef<HTMLTableSectionElement>(null);
  const [active, setActive] = useState(0);
  // Where the last tick was: Shift extends from it (on these rows: another page starts afresh).
  const anchor = useRef<number | null>(null);
  useEffect(() => {
    anchor.current = null;
  }, [rows]);
  const tickable = (at: number) => rows[at] !== undefined && selection?.canSelect?.(rows[at]) !== false;
  /** Ticks the rows between the anchor and `at` (both included), or toggles `at` alone. */
  const tick = (at: number, range: boolean) => {
    if (!selection || !tickable(at)) return;
    if (range && anchor.current !== null) {
      const [from, to] = anchor.current < at ? [anchor.current, at] : [at, anchor.current];
      const span = rows.slice(from, to + 1).filter((row) => selection.canSelect?.(row) !== false);
      selection.onChange(span, true);
    } else selection.onChange([rows[at]!], !selection.isSelected(rows[at]!));
    anchor.current = at;
  };
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
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    const moves: Record<string, number> = { ArrowDown: at + 1, j: at + 1, ArrowUp: at - 1, k: at - 1, Home: 0, End: rowCount - 1 };
    if (key in moves) {
      event.preventDefault();
      const to = Math.max(0, Math.min(moves[key]!, rowCount - 1));
      // Shift with a move ticks the way there (from the last tick, else from here).
      if (event.shiftKey && selection && to !== at) {
        if (anchor.current === null) tick(at, false);
        tick(to, true);
      }
      focusRow(to);
    } else if (selection && (key === 'x' || key === ' ')) {
      event.preventDefault();
      tick(at, event.shiftKey);
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
  /** The row that has the keyboard focus now, if one has. */
  const focused = () => {
    const row = document.activeElement?.closest('tbody > tr[tabindex]');
    const at = row && body.current?.contains(row) ? rowsNow().indexOf(row as HTMLTableRowElement) : -1;
    return at >= 0 ? rows[at] : undefined;
  };
  return { body, active: Math.min(active, Math.max(0, rowCount - 1)), onKeyDown, onFocus, focused };
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
  actions,
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
  const rowModel = table.getRowModel().rows;
  const shownRows = useMemo(() => (error ? [] : rowModel.map((r) => r.original)), [error, rowModel]);
  const focus = useRowFocus(shownRows, loading, selection);
  // The focused row as it is when a key runs (this render's rows, not the first's).
  const focusedRow = useRef(focus.focused);
  focusedRow.current = focus.focused;
  const listActions = useMemo<ListAction[] | undefined>(
    () => actions?.map((a) => ({ key: a.key, label: a.label, run: () => a.run(focusedRow.current()) })),
    [actions],
  );
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
  const visible = table.getVisibleLeafColumns();
  const pinnedCount = choice ? Math.max(1, visible.filter((c) => choice.pinned.includes(c.id)).length) : 1;
  const lefts = usePinnedOffsets(wrap, pinnedCount, selection ? 1 : 0, visible.map((c) => c.id).join('\n'));
  const pinClass = (at: number) => (at > 0 && at < pinnedCount ? `ej-pinned${at === pinnedCount - 1 ? ' ej-pinned--last' : ''}` : undefined);
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
        {row.getVisibleCells().map((cell, at) => (
          <td
            key={cell.id}
            className={cellClass(cell.column.columnDef.meta, pinClass(at))}
            style={pinnedStyle(lefts, at, widthStyle(widths?.[cell.column.id]))}
          >
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
          {paging && <ListKeys paging={paging} table={tableElement} ticks={!!selection} {...(listActions ? { actions: listActions } : {})} />}
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
            choice={choice}
            pinned={{ className: pinClass, style: (at, base) => pinnedStyle(lefts, at, base) }}
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
