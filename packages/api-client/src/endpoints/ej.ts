import { http } from '../http.ts';
import type { Paginated } from '../types.ts';
import { cleanParams, type QueryParams } from './emails.ts';

// The EJ record type is defined once, beside the export columns that read it.
import type { EjRecord } from '@ejdesk/export';

export type { EjRecord };

export const getEjPage = async (params: QueryParams, signal?: AbortSignal) =>
  (await http.get<Paginated<EjRecord>>('/scrape/extract/email/data/pagination/', { params: cleanParams(params), signal })).data;

export const getEjFileRecords = async (kind: 'overage' | 'succeeding') =>
  (await http.get<EjRecord[]>(`/scrape/extract/${kind}/data/`)).data;

/** The whole filtered set, streamed by the server as CSV or XLSX. */
export const getEjExport = async (params: QueryParams & { format: 'csv' | 'xlsx'; kind: 'dispute' | 'overage' | 'succeeding' }) =>
  (await http.get<Blob>('/scrape/extract/export/', { params: cleanParams(params), responseType: 'blob' })).data;
