// A table for long unpaginated lists: only the rows in view are in the DOM (react-virtual), so
// 100,000 rows scroll smoothly. Rows have one fixed height; long cells are cut with an ellipsis
// and show their full text on hover.
import { useRef } from 'react';
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { ColumnChoiceState } from '../column-choice.ts';
import type { TableSorting } from '../sorting.ts';
import { ColumnChooser } from './ColumnChooser.tsx';
import { ErrorState } from './States.tsx';
import { cellClass, noRows, TableHead } from './TableHead.tsx';

const rowHeight = 36;

export interface VirtualTableProps<Row> {
  columns: ColumnDef<Row, any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any
  rows: Row[] | undefined;
  caption: string;
  loading?: boolean;
  error?: string | null;
  onRetry?: () => void;
  height?: string;
  /** The order the rows are in, and what a click on a sortable header asks for. */
  sorting?: TableSorting | undefined;
  onSort?: ((key: string) => void) | undefined;
  /** The operator's columns (useColumnChoice): the table shows them and offers the Columns menu. */
  choice?: ColumnChoiceState;
}

export function VirtualTable<Row>({
  columns,
  rows,
  caption,
  loading = false,
  error,
  onRetry,
  height = '70vh',
  sorting,
  onSort,
  choice,
}: VirtualTableProps<Row>) {
  const table = useReactTable({
    data: rows ?? noRows,
    columns,
    // No pages or expanded rows here to reset when the rows change (see noRows).
    autoResetAll: false,
    getCoreRowModel: getCoreRowModel(),
    ...(choice ? { state: { columnOrder: choice.columnOrder, columnVisibility: choice.columnVisibility } } : {}),
  });
  const model = table.getRowModel().rows;
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: model.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const top = items[0]?.start ?? 0;
  const bottom = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  const width = table.getVisibleLeafColumns().length;

  if (error) return <ErrorState message={error} onRetry={onRetry} />;
  return (
    <>
      {choice && (
        <div className="ej-table-tools">
          <ColumnChooser choice={choice} table={caption} />
        </div>
      )}
      {/* The scroll box takes focus so it can be scrolled from the keyboard (a scrollable region must be). */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
      <div ref={scroller} className="ej-table-wrap ej-virtual" style={{ height }} tabIndex={0} role="region" aria-label={caption}>
        <table className="ej-table" aria-busy={loading || undefined} aria-rowcount={model.length + 1}>
          <caption className="ej-visually-hidden">{caption}</caption>
          <TableHead table={table} sorting={sorting} onSort={onSort} choice={choice} />
          <tbody>
            {loading && !rows && (
              <tr>
                <td colSpan={width} className="ej-state">
                  <span role="status">Loading...</span>
                </td>
              </tr>
            )}
            {rows && model.length === 0 && (
              <tr>
                <td colSpan={width} className="ej-state">
                  No records found
                </td>
              </tr>
            )}
            {top > 0 && <tr aria-hidden="true" style={{ height: top }} />}
            {items.map((item) => {
              const row = model[item.index]!;
              return (
                <tr key={row.id} aria-rowindex={item.index + 2} style={{ height: rowHeight }}>
                  {row.getVisibleCells().map((cell) => {
                    const content = flexRender(cell.column.columnDef.cell, cell.getContext());
                    const value = cell.getValue();
                    return (
                      <td
                        key={cell.id}
                        className={cellClass({ numeric: cell.column.columnDef.meta?.numeric }, 'ej-cut')}
                        title={typeof value === 'string' ? value : undefined}
                      >
                        {content}
                      </td>
                    );
                  })}
                </tr>
              );
            })}
            {bottom > 0 && <tr aria-hidden="true" style={{ height: bottom }} />}
          </tbody>
        </table>
      </div>
    </>
  );
}
