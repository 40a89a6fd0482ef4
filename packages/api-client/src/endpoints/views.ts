// Saved views of the lists (/api/views/): an operator's named filters, order, page size and
// columns; personal, or shared with everyone by an admin; one per list can be their default.
import type { Answer } from '@ejdesk/contract';
import type * as views from '@ejdesk/contract/schemas/views.ts';
import { http } from '../http.ts';

export type SavedView = Answer<typeof views.View>;
/** What a view holds: its name, the list's query without `?`, the columns (null: the list's own). */
export type SavedViewFields = Pick<SavedView, 'name' | 'query' | 'columns' | 'shared' | 'default'>;

export const getViews = async (list: string, signal?: AbortSignal) => (await http.get<SavedView[]>('/views/', { params: { list }, signal })).data;

export const createView = async (list: string, fields: SavedViewFields) => (await http.post<SavedView>('/views/', { list, ...fields })).data;

export const changeView = async (id: number, fields: SavedViewFields) => (await http.put<SavedView>(`/views/${id}/`, fields)).data;

export const deleteView = async (id: number) => {
  await http.delete(`/views/${id}/`);
};

/** Makes the view the operator's default for its list, or no longer. */
export const chooseDefaultView = async (id: number, on: boolean) =>
  (await (on ? http.put<SavedView>(`/views/${id}/default/`) : http.delete<SavedView>(`/views/${id}/default/`))).data;
