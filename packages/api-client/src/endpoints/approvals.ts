// Four eyes: the requests waiting for a second person, what each would change, and the decision;
// and (admins) which actions wait.
import type { Answer } from '@ejdesk/contract';
import type * as approvals from '@ejdesk/contract/schemas/approvals.ts';
import { http } from '../http.ts';
import type { Paginated } from '../types.ts';
import { cleanParams, type QueryParams } from './emails.ts';

export type ChangeRequest = Answer<typeof approvals.ChangeRequest>;
export type ChangeRequestDetail = Answer<typeof approvals.ChangeRequestDetail>;
export type RequestMade = Answer<typeof approvals.RequestMade>;
export type FourEyesSetting = Answer<typeof approvals.FourEyesSetting>;

/** Whether a change's answer is a request made for a second person's approval (202) rather than the change done. */
export const isRequestMade = (answer: unknown): answer is RequestMade => typeof answer === 'object' && answer !== null && 'request' in answer;

export const getChangeRequests = async (params: QueryParams, signal?: AbortSignal) =>
  (await http.get<Paginated<ChangeRequest>>('/approvals/', { params: cleanParams(params), signal })).data;
export const getChangeRequest = async (id: number, signal?: AbortSignal) => (await http.get<ChangeRequestDetail>(`/approvals/${id}/`, { signal })).data;
export const decideChangeRequest = async (id: number, decision: 'approve' | 'reject', note: string) =>
  (await http.post<ChangeRequest>(`/approvals/${id}/${decision}/`, { note })).data;

export const getFourEyes = async () => (await http.get<FourEyesSetting[]>('/admin/four-eyes/')).data;
export const setFourEyes = async (settings: FourEyesSetting[]) => (await http.put<FourEyesSetting[]>('/admin/four-eyes/', settings)).data;
