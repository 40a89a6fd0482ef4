// The header row both tables share: a sortable column's header is a button that shows and
// announces the order (aria-sort); the others are plain headers.
import type { ReactNode } from 'react';
import { flexRender, type Table } from '@tanstack/react-table';
import type { TableSorting } from '../sorting.ts';

export const cellClass = (meta: { numeric?: boolean; nowrap?: boolean } | undefined, ...more: (string | false | undefined)[]) =>
  [meta?.numeric && 'ej-numeric', meta?.nowrap && 'ej-nowrap', ...more].filter(Boolean).join(' ') || undefined;

export function TableHead<Row>({
  table,
  sorting,
  onSort,
  leading,
}: {
  table: Table<Row>;
  sorting?: TableSorting | undefined;
  onSort?: ((key: string) => void) | undefined;
  /** A header cell before the columns' (the row selection's box). */
  leading?: ReactNode;
}) {
  return (
    <thead>
      {table.getHeaderGroups().map((group) => (
        <tr key={group.id}>
          {leading}
          {group.headers.map((header) => {
            const meta = header.column.columnDef.meta;
            const label = header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext());
            const sortKey = meta?.sortKey;
            if (!sortKey || !onSort) {
              return (
                <th key={header.id} scope="col" className={cellClass(meta)}>
                  {label}
                </th>
              );
            }
            const sorted = sorting?.key === sortKey ? (sorting.descending ? 'descending' : 'ascending') : undefined;
            return (
              <th key={header.id} scope="col" className={cellClass(meta)} aria-sort={sorted ?? 'none'}>
                <button type="button" className="ej-sort" onClick={() => onSort(sortKey)}>
                  {label}
                  {/* Drawn by CSS, so the header's text stays its name. */}
                  <span className="ej-sort__arrow" data-sort={sorted ?? 'none'} aria-hidden="true" />
                </button>
              </th>
            );
          })}
        </tr>
      ))}
    </thead>
  );
}
