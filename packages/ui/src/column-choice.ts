// Which columns a table shows and in what order, chosen by the operator and kept on the server
// (through the store the shell provides), so the choice follows them to another machine.
import { createContext, useCallback, useContext, useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef, ColumnOrderState, VisibilityState } from '@tanstack/react-table';
import { notify } from './components/Toaster.tsx';

/** Every column id in the chosen order, the hidden ones, the widths dragged (CSS px), the pinned. */
export interface ColumnChoice {
  order: string[];
  hidden: string[];
  widths?: Record<string, number>;
  /** Columns kept at the left while the table scrolls sideways; absent: the table's own. */
  pinned?: string[];
}

/** The narrowest and widest a column can be dragged to (the API refuses others). */
export const columnWidthLimits = { min: 40, max: 1200 } as const;
/** A width as a column may have it: whole pixels within columnWidthLimits. */
export const clampWidth = (width: number) => Math.round(Math.min(columnWidthLimits.max, Math.max(columnWidthLimits.min, width)));

const noPins: readonly string[] = [];

/** Where choices are kept: the API for the signed-in operator (given by the shell). */
export interface PreferenceStore {
  load: (key: string) => Promise<ColumnChoice | null>;
  save: (key: string, value: ColumnChoice) => Promise<void>;
  forget: (key: string) => Promise<void>;
}

const PreferenceStoreContext = createContext<PreferenceStore | null>(null);
export const PreferenceStoreProvider = PreferenceStoreContext.Provider;

/** A column's id as react-table resolves it: its id, else its accessor key, else a text header. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const columnIdOf = (def: ColumnDef<any, any>): string | undefined =>
  def.id ??
  ('accessorKey' in def && typeof def.accessorKey === 'string' ? def.accessorKey.replace('.', '_') : undefined) ??
  (typeof def.header === 'string' ? def.header : undefined);

export interface ChoosableColumn {
  id: string;
  label: string;
  visible: boolean;
}

export interface ColumnChoiceState {
  /** The table's columns in the chosen order, each with whether it shows. */
  columns: ChoosableColumn[];
  columnOrder: ColumnOrderState;
  columnVisibility: VisibilityState;
  /** False until the saved choice has been read (or could not be). */
  ready: boolean;
  /** Whether the columns are as the table declares them. */
  isDefault: boolean;
  toggle: (id: string) => void;
  move: (id: string, by: -1 | 1) => void;
  /** A column to a place in the order shown (a drag): pinned columns stay among the pinned. */
  moveTo: (id: string, to: number) => void;
  /** The places a column may take in the order shown: among the pinned if pinned, else after them. */
  placesFor: (id: string) => { first: number; last: number };
  /** Takes a whole choice (a saved view's): ids the table no longer has are dropped. */
  choose: (next: ColumnChoice) => void;
  /** The widths the operator dragged, by column id (the others take their content's). */
  widths: Record<string, number>;
  /** The pinned columns, in their order: they lead the table and stay while it scrolls sideways. */
  pinned: string[];
  pin: (id: string, pinned: boolean) => void;
  resize: (id: string, width: number) => void;
  reset: () => void;
}

/**
 * A saved choice fitted to the columns the table has today: ids it no longer has are dropped, new
 * columns join at the end, and at least one column stays visible.
 */
export function fitChoice(ids: string[], saved: ColumnChoice | null | undefined): ColumnChoice {
  if (!saved) return { order: ids, hidden: [] };
  const known = new Set(ids);
  const order = saved.order.filter((id) => known.has(id));
  order.push(...ids.filter((id) => !order.includes(id)));
  const hidden = saved.hidden.filter((id) => known.has(id));
  const widths = Object.entries(saved.widths ?? {}).filter(([id]) => known.has(id));
  const pinned = saved.pinned?.filter((id) => known.has(id));
  return {
    order,
    hidden: hidden.length >= ids.length ? hidden.slice(1) : hidden,
    ...(widths.length ? { widths: Object.fromEntries(widths) } : {}),
    ...(pinned ? { pinned } : {}),
  };
}

/** The order shown: the pinned columns first (in their order), then the rest. */
const pinnedFirst = (order: string[], pinned: string[]) => [...pinned, ...order.filter((id) => !pinned.includes(id))];

/**
 * `defaultPinned`: the columns pinned until the operator pins others (the first column always
 * stays at the left, pinned or not: it names the row).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function useColumnChoice(table: string, columns: ColumnDef<any, any>[], defaultPinned: readonly string[] = noPins): ColumnChoiceState {
  const store = useContext(PreferenceStoreContext);
  const queryClient = useQueryClient();
  const key = `columns.${table}`;
  const queryKey = useMemo(() => ['preference', key], [key]);
  const declared = useMemo(
    () =>
      columns.flatMap((def) => {
        const id = columnIdOf(def);
        return id ? [{ id, label: typeof def.header === 'string' ? def.header : id }] : [];
      }),
    [columns],
  );
  const ids = useMemo(() => declared.map((c) => c.id), [declared]);
  // Without a store (a remote on its own, a test) the choice lives in the query cache only.
  const saved = useQuery({
    queryKey,
    queryFn: () => (store ? store.load(key) : null),
    staleTime: Infinity,
    retry: false,
  });
  // The change shows at once (a checkbox must not flicker back while the cache catches up); the
  // cache, updated too, gives the choice to the next screen that shows this table.
  const [changed, setChanged] = useState<{ value: ColumnChoice | null } | null>(null);
  const choice = useMemo(() => fitChoice(ids, changed ? changed.value : saved.data), [ids, changed, saved.data]);

  // Saves of one table run one after another (a mutation scope), so the last choice is the one kept.
  const { mutate: save } = useMutation({
    scope: { id: key },
    mutationFn: async (next: ColumnChoice | null) => {
      if (!store) return;
      if (next) await store.save(key, next);
      else await store.forget(key);
    },
    onMutate: (next) => queryClient.setQueryData(queryKey, next),
    onError: () => {
      notify.error('Your column choice could not be saved; it holds only until you sign out.');
    },
  });
  const mutate = useCallback(
    (next: ColumnChoice | null) => {
      setChanged({ value: next });
      save(next);
    },
    [save],
  );

  const toggle = useCallback(
    (id: string) => {
      const hidden = choice.hidden.includes(id) ? choice.hidden.filter((h) => h !== id) : [...choice.hidden, id];
      if (hidden.length < ids.length) mutate({ ...choice, hidden });
    },
    [choice, ids.length, mutate],
  );
  const pinned = useMemo(() => choice.pinned ?? defaultPinned.filter((id) => ids.includes(id)), [choice.pinned, defaultPinned, ids]);
  /** A column to a new place in the order shown; pinned ones stay among the pinned, the others after them. */
  const placesFor = useCallback(
    (id: string) => (pinned.includes(id) ? { first: 0, last: pinned.length - 1 } : { first: pinned.length, last: choice.order.length - 1 }),
    [pinned, choice.order.length],
  );
  const moveTo = useCallback(
    (id: string, to: number) => {
      const shown = pinnedFirst(choice.order, pinned);
      const from = shown.indexOf(id);
      const isPinned = pinned.includes(id);
      const { first: low, last: high } = placesFor(id);
      if (from < 0 || to === from || to < low || to > high) return;
      shown.splice(from, 1);
      shown.splice(to, 0, id);
      mutate({ ...choice, order: shown, ...(isPinned || choice.pinned ? { pinned: shown.slice(0, pinned.length) } : {}) });
    },
    [choice, pinned, placesFor, mutate],
  );
  const move = useCallback((id: string, by: -1 | 1) => moveTo(id, pinnedFirst(choice.order, pinned).indexOf(id) + by), [choice.order, pinned, moveTo]);
  const resize = useCallback(
    (id: string, width: number) => {
      mutate({ ...choice, widths: { ...choice.widths, [id]: clampWidth(width) } });
    },
    [choice, mutate],
  );
  const pin = useCallback(
    (id: string, on: boolean) => {
      const next = on ? [...pinned.filter((p) => p !== id), id] : pinned.filter((p) => p !== id);
      // Unpinned, a column goes back to the place after the pinned ones.
      mutate({ ...choice, order: pinnedFirst(choice.order, next), pinned: next });
    },
    [choice, pinned, mutate],
  );
  const choose = useCallback((next: ColumnChoice) => mutate(fitChoice(ids, next)), [ids, mutate]);
  const reset = useCallback(() => mutate(null), [mutate]);

  return useMemo(() => {
    const labels = new Map(declared.map((c) => [c.id, c.label]));
    const order = pinnedFirst(choice.order, pinned);
    return {
      columns: order.map((id) => ({ id, label: labels.get(id) ?? id, visible: !choice.hidden.includes(id) })),
      columnOrder: order,
      columnVisibility: Object.fromEntries(choice.hidden.map((id) => [id, false])),
      ready: !saved.isPending,
      isDefault: choice.hidden.length === 0 && !choice.widths && !choice.pinned && choice.order.every((id, i) => id === ids[i]),
      toggle,
      move,
      moveTo,
      placesFor,
      choose,
      widths: choice.widths ?? {},
      resize,
      pinned,
      pin,
      reset,
    };
  }, [choice, declared, ids, pinned, saved.isPending, toggle, move, moveTo, placesFor, choose, resize, pin, reset]);
}
