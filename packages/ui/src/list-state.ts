// List state in the URL (page, page size, filters), so the back button and shared links work.
// Any filter change returns the list to page 1.
import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { pageSizes } from './components/Pager.tsx';

export interface ListState<F extends string> {
  page: number;
  pageSize: number;
  filters: Record<F, string>;
  setPage: (page: number) => void;
  /** Replaces a page past the end in the URL (no new history entry: Back skips it). */
  clampPage: (lastPage: number) => void;
  setPageSize: (size: number) => void;
  setFilters: (changes: Partial<Record<F, string>>) => void;
  reset: () => void;
  /** How many times reset() ran: a filter still waiting for a pause in typing is dropped by it. */
  resets: number;
  /** The API ordering in the URL ('' for the list's default); a new order starts at page 1. */
  ordering: string;
  setOrdering: (ordering: string) => void;
}

const whole = (value: string | null, fallback: number) => {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : fallback;
};

export function useListState<F extends string>(filterNames: readonly F[], defaultPageSize = 10): ListState<F> {
  const [params, setParams] = useSearchParams();
  const [resets, setResets] = useState(0);
  const page = whole(params.get('page'), 1);
  const requestedSize = whole(params.get('page_size'), defaultPageSize);
  const pageSize = (pageSizes as readonly number[]).includes(requestedSize) ? requestedSize : defaultPageSize;
  const key = params.toString();
  const filters = useMemo(
    () => Object.fromEntries(filterNames.map((name) => [name, new URLSearchParams(key).get(name) ?? ''])) as Record<F, string>,
    [key, filterNames],
  );

  // react-router hands a functional update the URL of the last render, not of the last update: two
  // filters committed before the list re-renders (two search boxes typed in quick succession) would
  // each start from the old URL and the later would undo the earlier. So updates not yet rendered
  // are kept here and the next one starts from the newest; a navigation we did not make drops them.
  const issued = useRef<string[]>([]);
  useLayoutEffect(() => {
    const at = issued.current.indexOf(key);
    issued.current = at === -1 ? [] : issued.current.slice(at + 1);
  }, [key]);

  const update = useCallback(
    (changes: Record<string, string | number | null>, replace = false) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(issued.current.at(-1) ?? current);
          for (const [name, value] of Object.entries(changes)) {
            if (value === null || value === '' || (name === 'page' && value === 1)) next.delete(name);
            else next.set(name, String(value));
          }
          issued.current.push(next.toString());
          return next;
        },
        { replace },
      ),
    [setParams],
  );

  return {
    page,
    pageSize,
    filters,
    setPage: useCallback((p: number) => update({ page: p }), [update]),
    clampPage: useCallback((last: number) => update({ page: last }, true), [update]),
    setPageSize: useCallback((size: number) => update({ page_size: size, page: null }), [update]),
    setFilters: useCallback((changes: Partial<Record<F, string>>) => update({ ...(changes as Record<string, string>), page: null }), [update]),
    reset: useCallback(() => {
      setResets((n) => n + 1);
      update({ ...Object.fromEntries(filterNames.map((n) => [n, null])), page: null });
    }, [update, filterNames]),
    resets,
    ordering: params.get('ordering') ?? '',
    setOrdering: useCallback((ordering: string) => update({ ordering, page: null }), [update]),
  };
}
