import type { Answer } from '@ejdesk/contract';
import type * as preferences from '@ejdesk/contract/schemas/preferences.ts';
import { http } from '../http.ts';

/** A table's columns as the operator arranged them: every column id in order, and the hidden ones. */
export type ColumnChoice = Answer<typeof preferences.ColumnChoice>;

const url = (key: string) => `/preferences/${encodeURIComponent(key)}/`;

/** The operator's saved value for the key, or null when they never saved one. */
export const getPreference = async (key: string) => (await http.get<{ value: ColumnChoice | null }>(url(key))).data.value;

export const savePreference = async (key: string, value: ColumnChoice) => {
  await http.put(url(key), value);
};

export const forgetPreference = async (key: string) => {
  await http.delete(url(key));
};
