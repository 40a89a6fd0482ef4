import { fileKindPaths, type FileKindName } from '@ejdesk/contract';
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

/** A file's extracted rows carry the original's display-labelled keys ('ATM ID', 'TXT Date.(DD/MM/YY)', ...). */
export type LabelledRow = Record<string, string | number | null>;

/** A file's rows under its kind's key, and the email it came in (null when that email was removed). */
export type DataFileDetail = DataFileListRow & { email_id: number | null; email_subject: string | null } & Record<string, unknown>;

/** A paginated kind's files (the four text kinds). */
export const getDataFilePage = async (kind: FileKindName, params: QueryParams, signal?: AbortSignal) =>
  (await http.get<Paginated<DataFileListRow>>(`${fileKindPaths[kind]}/pagination/`, { params: cleanParams(params), signal })).data;

/** Every file of a listed kind (Excel, PDF, other). */
export const getDataFiles = async (kind: FileKindName) => (await http.get<DataFileListRow[]>(`${fileKindPaths[kind]}/`)).data;

export const getDataFileDetail = async (kind: FileKindName, id: string | number) => (await http.get<DataFileDetail>(`${fileKindPaths[kind]}/${id}/`)).data;
