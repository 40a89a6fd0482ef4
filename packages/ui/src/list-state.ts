// List state in the URL (page, page size, filters), so the back button and shared links work.
// Any filter change returns the list to page 1. A filter typed waits for a pause in typing (one
// request, not one per keystroke); a page, page size or order chosen during the pause takes the
// waiting filter with it, so neither undoes the other.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
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
  /** New filters (page 1); with `ordering`, the order that suits them too, in the same URL change. */
  setFilters: (changes: Partial<Record<F, string>>, ordering?: string) => void;
  /** A filter as typed: applied after a pause in typing, or with the next page, size or order change. */
  typeFilter: (name: F, value: string) => void;
  reset: () => void;
  /** How many times reset() ran: a filter still waiting for a pause in typing is dropped by it. */
  resets: number;
  /** The API ordering in the URL ('' for the list's default); a new order starts at page 1. */
  ordering: string;
  setOrdering: (ordering: string) => void;
}

/** How long typing must pause before a typed filter changes the list. */
export const typingPauseMs = 300;

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
  // Filters typed and still in their pause, and the pause's timer.
  const waiting = useRef(new Map<string, string>());
  const pause = useRef<ReturnType<typeof setTimeout>>(undefined);
  const dropWaiting = useCallback(() => {
    clearTimeout(pause.current);
    waiting.current.clear();
  }, []);
  /** The waiting filters as changes to apply now (the pause ends with this update). */
  const takeWaiting = useCallback(() => {
    const changes = Object.fromEntries(waiting.current);
    dropWaiting();
    return changes;
  }, [dropWaiting]);
  useLayoutEffect(() => {
    const at = issued.current.indexOf(key);
    issued.current = at === -1 ? [] : issued.current.slice(at + 1);
    // Back, forward or a link changed the list: what was typed for the old one is not applied.
    if (at === -1) dropWaiting();
  }, [key, dropWaiting]);
  useEffect(() => dropWaiting, [dropWaiting]);

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

  const latestUpdate = useRef(update);
  useLayoutEffect(() => {
    latestUpdate.current = update;
  });

  return {
    page,
    pageSize,
    filters,
    setPage: useCallback((p: number) => update({ ...takeWaiting(), page: p }), [update, takeWaiting]),
    clampPage: useCallback((last: number) => update({ page: last }, true), [update]),
    setPageSize: useCallback((size: number) => update({ ...takeWaiting(), page_size: size, page: null }), [update, takeWaiting]),
    setFilters: useCallback(
      (changes: Partial<Record<F, string>>, ordering?: string) => {
        for (const name of Object.keys(changes)) waiting.current.delete(name);
        update({ ...(changes as Record<string, string>), ...(ordering === undefined ? {} : { ordering }), page: null });
      },
      [update],
    ),
    typeFilter: useCallback(
      (name: F, value: string) => {
        waiting.current.set(name, value);
        clearTimeout(pause.current);
        // The update of the render the pause ends in: react-router's setter of this render would
        // start from this render's URL and undo a date picked during the pause.
        pause.current = setTimeout(() => latestUpdate.current({ ...takeWaiting(), page: null }), typingPauseMs);
      },
      [takeWaiting],
    ),
    reset: useCallback(() => {
      dropWaiting();
      setResets((n) => n + 1);
      update({ ...Object.fromEntries(filterNames.map((n) => [n, null])), page: null });
    }, [update, filterNames, dropWaiting]),
    resets,
    ordering: params.get('ordering') ?? '',
    setOrdering: useCallback((ordering: string) => update({ ...takeWaiting(), ordering, page: null }), [update, takeWaiting]),
  };
}
