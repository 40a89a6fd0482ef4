import { http } from '../http.ts';
import type { Paginated } from '../types.ts';
import { cleanParams, type QueryParams } from './emails.ts';

/** One audited action: who did what to which record, when, why (a reveal's reason) and from where. */
export interface AuditEntry {
  id: number;
  at: string;
  user_email: string | null;
  action: string;
  entity: string;
  entity_id: string | null;
  detail: string | null;
  ip: string | null;
}

export const getAuditPage = async (params: QueryParams, signal?: AbortSignal) =>
  (await http.get<Paginated<AuditEntry>>('/admin/audit-log/', { params: cleanParams(params), signal })).data;

/** The log under the applied filters as CSV, written by the server (the whole set, not one page). */
export const downloadAuditLog = async (filters: QueryParams) =>
  (await http.get<Blob>('/admin/audit-log/export/', { params: cleanParams(filters), responseType: 'blob' })).data;
