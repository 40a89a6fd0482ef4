import { http } from '../http.ts';
import type { Paginated } from '../types.ts';
import { cleanParams, type QueryParams } from './emails.ts';

/** An EJ error record (SPEC.md section 3); overage and succeeding records add file_name. */
export interface EjRecord {
  id: number;
  atm_id: string;
  card_no: string;
  txt_no: string;
  transaction_date: string | null;
  transaction_amt: string | null;
  dispute_amt: string | null;
  overage: string | null;
  msp_remarks: string;
  msp_ref_no: string;
  short_desc_ej_error: string;
  ej_error: string;
  complaint_date: string | null;
  short_description: string;
  mail_received_from: string;
  mail_subject: string;
  file_name?: string;
}

export const getEjPage = async (params: QueryParams, signal?: AbortSignal) =>
  (await http.get<Paginated<EjRecord>>('/scrape/extract/email/data/pagination/', { params: cleanParams(params), signal })).data;

export const getEjFileRecords = async (kind: 'overage' | 'succeeding') =>
  (await http.get<EjRecord[]>(`/scrape/extract/${kind}/data/`)).data;

/** The whole filtered set, streamed by the server as CSV or XLSX. */
export const getEjExport = async (params: QueryParams & { format: 'csv' | 'xlsx'; kind: 'dispute' | 'overage' | 'succeeding' }) =>
  (await http.get<Blob>('/scrape/extract/export/', { params: cleanParams(params), responseType: 'blob' })).data;
