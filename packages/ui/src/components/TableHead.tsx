// The header row both tables share: a sortable column's header is a button that shows and
// announces the order (aria-sort); the others are plain headers. With `onResize` each header has
// a handle at its right edge: dragged, it sets the column's width (the Columns menu sets it from
// the keyboard).
import { useState, type CSSProperties, type PointerEvent, type ReactNode } from 'react';
import { flexRender, type Table } from '@tanstack/react-table';
import type { ColumnChoiceState } from '../column-choice.ts';
import type { TableSorting } from '../sorting.ts';
import { HeaderMenu, headerDrag } from './HeaderMenu.tsx';

/**
 * No rows yet (the first page loading): one array for every render. A new [] each render is new
 * data to react-table, whose row model then resets the table's page index: a state change that
 * renders the table again, and again, without end. It froze the page while its first rows loaded.
 */
export const noRows: never[] = [];

/** A column's cells at the width the operator gave it: exactly that, the text cut to fit. */
export const widthStyle = (width: number | undefined): CSSProperties | undefined =>
  width === undefined ? undefined : { width, minWidth: width, maxWidth: width, overflow: 'hidden', textOverflow: 'ellipsis' };

/**
 * The handle at a header's right edge, for the pointer: dragged, it sets the column's width. Hidden
 * from screen readers, so the header's name stays its column's (a focusable separator in each
 * header made every header read "ATM ID Resize ATM ID").
 */
function ResizeHandle({ width, onResize }: { width: number | undefined; onResize: (width: number, done: boolean) => void }) {
  const [start, setStart] = useState<{ x: number; width: number } | null>(null);
  return (
    <span
      aria-hidden="true"
      className="ej-resize"
      onPointerDown={(event: PointerEvent<HTMLSpanElement>) => {
        event.currentTarget.setPointerCapture?.(event.pointerId);
        setStart({ x: event.clientX, width: width ?? event.currentTarget.parentElement!.getBoundingClientRect().width });
      }}
      onPointerMove={(event: PointerEvent<HTMLSpanElement>) => {
        if (start) onResize(start.width + event.clientX - start.x, false);
      }}
      onPointerUp={(event: PointerEvent<HTMLSpanElement>) => {
        if (!start) return;
        onResize(start.width + event.clientX - start.x, true);
        setStart(null);
      }}
    />
  );
}

export const cellClass = (meta: { numeric?: boolean; nowrap?: boolean } | undefined, ...more: (string | false | undefined)[]) =>
  [meta?.numeric && 'ej-numeric', meta?.nowrap && 'ej-nowrap', ...more].filter(Boolean).join(' ') || undefined;

export function TableHead<Row>({
  table,
  sorting,
  onSort,
  leading,
  widths,
  onResize,
  choice,
  pinned,
}: {
  table: Table<Row>;
  sorting?: TableSorting | undefined;
  onSort?: ((key: string) => void) | undefined;
  /** A header cell before the columns' (the row selection's box). */
  leading?: ReactNode;
  widths?: Record<string, number> | undefined;
  /** A column dragged to a width (`done` when the drag ends: then it is kept). */
  onResize?: ((id: string, width: number, done: boolean) => void) | undefined;
  /** The operator's columns: each header gets its menu and can be dragged. */
  choice?: ColumnChoiceState | undefined;
  /** The pinned columns' class and sticky place, by the column's place among those shown. */
  pinned?: { className: (at: number) => string | undefined; style: (at: number, base: CSSProperties | undefined) => CSSProperties | undefined } | undefined;
}) {
  const place = (at: number, base: CSSProperties | undefined) => (pinned ? pinned.style(at, base) : base);
  return (
    <thead>
      {table.getHeaderGroups().map((group) => (
        <tr key={group.id}>
          {leading}
          {group.headers.map((header, at) => {
            const meta = header.column.columnDef.meta;
            const label = header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext());
            const sortKey = meta?.sortKey;
            const id = header.column.id;
            const handle = onResize && <ResizeHandle width={widths?.[id]} onResize={(width, done) => onResize(id, width, done)} />;
            const sorted = sortKey && sorting?.key === sortKey ? (sorting.descending ? 'descending' : 'ascending') : undefined;
            const name = typeof header.column.columnDef.header === 'string' ? header.column.columnDef.header : id;
            // With the operator's columns: a menu in the header ("Column options", after its name),
            // and the header dragged onto another to take its place.
            const menu = choice && (
              <HeaderMenu
                id={id}
                label={name}
                choice={choice}
                sort={sortKey && onSort ? { next: sorted === 'ascending' ? 'descending' : 'ascending', run: () => onSort(sortKey) } : undefined}
              />
            );
            const own = choice ? headerDrag(choice, id) : {};
            if (!sortKey || !onSort) {
              return (
                <th
                  key={header.id}
                  scope="col"
                  className={cellClass(meta, pinned?.className(at))}
                  style={place(at, widthStyle(widths?.[id]))}
                  data-column={id}
                  {...own}
                >
                  {label}
                  {menu}
                  {handle}
                </th>
              );
            }
            return (
              <th
                key={header.id}
                scope="col"
                className={cellClass(meta, pinned?.className(at))}
                aria-sort={sorted ?? 'none'}
                style={place(at, widthStyle(widths?.[id]))}
                data-column={id}
                {...own}
              >
                <button type="button" className="ej-sort" onClick={() => onSort(sortKey)}>
                  {label}
                  {/* Drawn by CSS, so the header's text stays its name. */}
                  <span className="ej-sort__arrow" data-sort={sorted ?? 'none'} aria-hidden="true" />
                </button>
                {menu}
                {handle}
              </th>
            );
          })}
        </tr>
      ))}
    </thead>
  );
}
