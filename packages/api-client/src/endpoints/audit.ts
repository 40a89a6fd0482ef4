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

/** The chain walked by the server: whether it holds, and the first entry changed, removed or inserted. */
export type AuditChainReport = Answer<typeof audit.AuditChainReport>;

export const verifyAuditChain = async () => (await http.get<AuditChainReport>('/admin/audit-log/verify/')).data;

/** The chain (a day range, or all of it) as the signed JSON lines file an auditor checks. */
export const downloadAuditChain = async (range: { from?: string | undefined; to?: string | undefined }) =>
  (await http.get<Blob>('/admin/audit-log/chain/', { params: cleanParams(range), responseType: 'blob' })).data;
