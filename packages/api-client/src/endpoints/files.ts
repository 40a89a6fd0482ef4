import { http } from '../http.ts';
import type { Paginated } from '../types.ts';
import { cleanParams, type QueryParams } from './emails.ts';

export interface DataFileListRow {
  id: number;
  name: string;
  subject_name?: string;
  create_at: string;
  update_at: string;
}

/** A file's extracted rows carry SPEC.md's display-labelled keys ('ATM ID', 'TXT Date.(DD/MM/YY)', ...). */
export type LabelledRow = Record<string, string | number | null>;

export type DataFileDetail = DataFileListRow & Record<string, unknown>;

/** base: the kind's API path, e.g. '/scrape/text/email/data'. */
export const getDataFilePage = async (base: string, params: QueryParams, signal?: AbortSignal) =>
  (await http.get<Paginated<DataFileListRow>>(`${base}/pagination/`, { params: cleanParams(params), signal })).data;

export const getDataFiles = async (base: string) => (await http.get<DataFileListRow[]>(`${base}/`)).data;

export const getDataFileDetail = async (base: string, id: string | number) => (await http.get<DataFileDetail>(`${base}/${id}/`)).data;
