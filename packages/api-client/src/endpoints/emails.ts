import { emailListPaths, type EmailListName } from '@ejdesk/contract';
import type { Answer } from '@ejdesk/contract';
import type * as emailSchemas from '@ejdesk/contract/schemas/emails.ts';
import { http } from '../http.ts';
import type { DashboardCounts, EmailDetails, EmailJsonItem, EmailListRow, Paginated } from '../types.ts';

export type QueryParams = Record<string, string | number | undefined>;

/** Empty values are left out: an empty filter means no filter. */
export function cleanParams(params: QueryParams): Record<string, string | number> {
  return Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined && v !== '')) as Record<string, string | number>;
}

/** month as the API takes it: year, a dash, the English three-letter month (2025-Jan). */
export const getDashboardCounts = async (month: string) =>
  (await http.get<DashboardCounts>('/scrape/email/dashboard/count/', { params: { date: month } })).data;

/** A page of one of the email lists: All Email or one of the seven categories. */
export const getEmailPage = async (list: EmailListName, params: QueryParams, signal?: AbortSignal) =>
  (await http.get<Paginated<EmailListRow>>(emailListPaths[list], { params: cleanParams(params), signal })).data;

export const getEmailJsonData = async () => (await http.get<EmailJsonItem[]>('/scrape/email/to/json/data/')).data;

export const getEmailJsonDataById = async (id: number | string) => (await http.get<EmailJsonItem[]>(`/scrape/email/to/json/data/${id}/`)).data;

export type EmailProduce = Answer<typeof emailSchemas.EmailProduce>;

/** What the email brought (its attachments) and produced (files, records, disputes). */
export const getEmailProduce = async (id: number | string, signal?: AbortSignal) => (await http.get<EmailProduce>(`/emails/${id}/produce/`, { signal })).data;

/** One of the email's attachments, as the sender attached it. */
export const downloadAttachment = async (id: number | string, index: number) =>
  (await http.get<Blob>(`/emails/${id}/attachments/${index}`, { responseType: 'blob' })).data;

export const getEmailDetails = async (id: number | string) => (await http.get<EmailDetails>(`/scrape/email/body/html/text/data/${id}/`)).data;
