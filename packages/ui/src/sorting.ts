// A list's order as the API names it (DRF's `ordering`: a field, '-' for descending), kept in the
// URL. Server-paged lists send it; lists loaded whole sort in the browser the same way.
import { useCallback, useMemo } from 'react';

/** The list's order: an API field and its direction. */
export interface TableSorting {
  key: string;
  descending: boolean;
}

/**
 * The order shown (the URL's, else the list's default) and what a header click asks for: the
 * first click sorts ascending, the next descending; the default order leaves the URL.
 */
export function useSorting(ordering: string, setOrdering: (ordering: string) => void, defaultOrdering = '') {
  const shown = ordering || defaultOrdering;
  const sortBy = useCallback(
    (key: string) => {
      const next = shown === key ? `-${key}` : key;
      setOrdering(next === defaultOrdering ? '' : next);
    },
    [shown, setOrdering, defaultOrdering],
  );
  // One object per order, so a list sorted in the browser re-sorts only when the order changes.
  const sorting = useMemo<TableSorting | undefined>(() => (shown ? { key: shown.replace(/^-/, ''), descending: shown.startsWith('-') } : undefined), [shown]);
  return { sorting, sortBy };
}

const asNumber = (value: unknown) => (typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN);

/**
 * Rows in the order, as the API orders them: an empty value the smallest, amounts as numbers,
 * dates (ISO) and text by their characters; ties keep the order the rows came in.
 */
export function sortedRows<Row>(rows: readonly Row[], sorting: TableSorting | undefined, read: (row: Row, key: string) => unknown): Row[] {
  if (!sorting) return [...rows];
  const direction = sorting.descending ? -1 : 1;
  const compare = (a: unknown, b: unknown) => {
    const emptyA = a === null || a === undefined || a === '';
    const emptyB = b === null || b === undefined || b === '';
    if (emptyA || emptyB) return emptyA === emptyB ? 0 : emptyA ? -1 : 1;
    const [x, y] = [asNumber(a), asNumber(b)];
    if (!Number.isNaN(x) && !Number.isNaN(y)) return x - y;
    const [s, t] = [String(a), String(b)];
    return s === t ? 0 : s < t ? -1 : 1;
  };
  return [...rows].sort((a, b) => direction * compare(read(a, sorting.key), read(b, sorting.key)));
}
