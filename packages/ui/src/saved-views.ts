// Saved views of a list, kept by the API per operator (through the store the shell provides, as
// the column choice is): the list's query (filters, order, page size) and columns under a name.
import { createContext, useContext } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnChoice } from './column-choice.ts';

export interface SavedView {
  id: number;
  name: string;
  /** The list's URL query without '?' and without the page (a view opens on page 1). */
  query: string;
  /** The columns as they were chosen, or null for the list's own. */
  columns: ColumnChoice | null;
  shared: boolean;
  /** The operator's default for the list: opened when the list is opened without a query. */
  default: boolean;
  mine: boolean;
  owner: string;
}

export type SavedViewFields = Pick<SavedView, 'name' | 'query' | 'columns' | 'shared' | 'default'>;

/** Where views are kept: the API for the signed-in operator (given by the shell). */
export interface ViewStore {
  load: (list: string, signal?: AbortSignal) => Promise<SavedView[]>;
  create: (list: string, fields: SavedViewFields) => Promise<SavedView>;
  change: (id: number, fields: SavedViewFields) => Promise<SavedView>;
  remove: (id: number) => Promise<void>;
  chooseDefault: (id: number, on: boolean) => Promise<SavedView>;
  /** The signed-in operator may share a view with everyone (an admin). */
  canShare: boolean;
  /** Why an action failed, as a sentence for the operator. */
  describe: (error: unknown) => string;
}

const ViewStoreContext = createContext<ViewStore | null>(null);
export const ViewStoreProvider = ViewStoreContext.Provider;
const useViewStore = () => useContext(ViewStoreContext);

type Change =
  | { kind: 'create'; fields: SavedViewFields }
  | { kind: 'change'; id: number; fields: SavedViewFields }
  | { kind: 'remove'; id: number }
  | { kind: 'default'; id: number; on: boolean };

/** A list's views and the one way to change them; every change reloads the list of views. */
export function useSavedViews(list: string) {
  const store = useViewStore();
  const queryClient = useQueryClient();
  const queryKey = ['saved-views', list];
  const views = useQuery({
    queryKey,
    queryFn: ({ signal }) => (store ? store.load(list, signal) : []),
    staleTime: 60_000,
    retry: false,
  });
  const change = useMutation({
    mutationFn: async (c: Change): Promise<unknown> => {
      if (!store) throw new Error('Views cannot be kept here.');
      if (c.kind === 'create') return store.create(list, c.fields);
      if (c.kind === 'change') return store.change(c.id, c.fields);
      if (c.kind === 'remove') return store.remove(c.id);
      return store.chooseDefault(c.id, c.on);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey }),
  });
  return { store, views, change };
}
