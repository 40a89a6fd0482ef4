import type { Answer } from '@ejdesk/contract';
import type * as audit from '@ejdesk/contract/schemas/audit.ts';
import { http } from '../http.ts';
import type { Paginated } from '../types.ts';
import { cleanParams, type QueryParams } from './emails.ts';

/** One audited action: who did what to which record, when, why (a reveal's reason) and from where. */
export type AuditEntry = Answer<typeof audit.AuditRow>;

export const getAuditPage = async (params: QueryParams, signal?: AbortSignal) =>
  (await http.get<Paginated<AuditEntry>>('/admin/audit-log/', { params: cleanParams(params), signal })).data;

/** The log under the applied filters as CSV, written by the server (the whole set, not one page). */
export const downloadAuditLog = async (filters: QueryParams) =>
  (await http.get<Blob>('/admin/audit-log/export/', { params: cleanParams(filters), responseType: 'blob' })).data;
