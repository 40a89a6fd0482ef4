// The dispute desk: a dispute's story, its status (one, or many by ids or by the EJ table's
// filters), the dashboard's ageing card, and the TAT rules (an admin list).
import type { Answer } from '@ejdesk/contract';
import type * as disputes from '@ejdesk/contract/schemas/disputes.ts';
import { http } from '../http.ts';
import type { RequestMade } from './approvals.ts';
import { cleanParams, type QueryParams } from './emails.ts';

export type DisputeRecord = Answer<typeof disputes.DisputeRecord>;
export type DisputeStory = Answer<typeof disputes.DisputeStory>;
export type DisputeAgeing = Answer<typeof disputes.DisputeAgeing>;
export type TatRule = Answer<typeof disputes.TatRule>;
export type DisputeStatus = DisputeStory['status'];
export type DisputeOutcome = NonNullable<DisputeStory['outcome']>;

export interface StatusChange {
  status: DisputeStatus;
  outcome?: DisputeOutcome | null;
  note: string;
}

export const getDispute = async (id: number | string, signal?: AbortSignal) => (await http.get<DisputeStory>(`/disputes/${id}/`, { signal })).data;

/** The dispute as it now is, or the request made when four eyes holds the change for a second person. */
export const setDisputeStatus = async (id: number, change: StatusChange) =>
  (await http.post<DisputeStory | RequestMade>(`/disputes/${id}/status/`, change)).data;

/** Many disputes at once: the ids, or every record the table's filters match (applied by the server). */
export const setDisputesStatus = async (change: StatusChange & ({ ids: number[] } | { filters: QueryParams })) =>
  (
    await http.post<{ updated: number; change_id: number | null } | RequestMade>(
      '/disputes/bulk-status/',
      'filters' in change ? { ...change, filters: cleanParams(change.filters) } : change,
    )
  ).data;

/** Gives the disputes of a status change back the status they had (its maker, within minutes). */
export const undoStatusChange = async (changeId: number) => (await http.post<{ restored: number }>(`/disputes/status-changes/${changeId}/undo/`)).data;

/** Who works disputes and when they look again: null clears; what is left out stays. */
export interface FollowUpChange {
  owner_id?: number | null;
  follow_up_on?: string | null;
}

export const setFollowUp = async (change: FollowUpChange & ({ ids: number[] } | { filters: QueryParams })) =>
  (await http.post<{ updated: number }>('/disputes/follow-up/', 'filters' in change ? { ...change, filters: cleanParams(change.filters) } : change)).data;

export type DisputeOwner = Answer<typeof disputes.DisputeOwner>;

/** The accounts a dispute can be given to (the active ones). */
export const getDisputeOwners = async (signal?: AbortSignal) => (await http.get<DisputeOwner[]>('/disputes/owners/', { signal })).data;

/** The open disputes of the dashboard's month by age, breached, and their penalty. */
export const getDisputeAgeing = async (month: string, signal?: AbortSignal) =>
  (await http.get<DisputeAgeing>('/disputes/ageing/', { params: { date: month }, signal })).data;

/** A TAT rule as its form holds it: text, turned into the API's types here (days a number, holidays a list). */
export type TatRuleFields = Record<
  'name' | 'scope' | 'scope_value' | 'clock_start' | 'days' | 'day_kind' | 'holidays' | 'penalty_per_day' | 'currency',
  string
>;

const tatRuleBody = (fields: TatRuleFields) => ({
  ...fields,
  // A blank or non-numeric day count goes as null: the API's 400 names the field.
  days: /^\s*\d+\s*$/.test(fields.days) ? Number(fields.days) : null,
  holidays: fields.holidays.split(/[\s,;]+/).filter(Boolean),
});

export const listTatRules = async () => (await http.get<TatRule[]>('/admin/tat-rules/')).data;
export const createTatRule = async (fields: TatRuleFields) => (await http.post<TatRule>('/admin/tat-rules/', tatRuleBody(fields))).data;
export const changeTatRule = async (id: number, fields: TatRuleFields) => (await http.put<TatRule>(`/admin/tat-rules/${id}/`, tatRuleBody(fields))).data;
/** Nothing when deleted; the request made when four eyes holds it for a second admin. */
export const deleteTatRule = async (id: number) => (await http.delete<RequestMade | ''>(`/admin/tat-rules/${id}/`)).data || undefined;

export type DisputeStage = DisputeStory['stage'];
export type DisputeClock = DisputeStory['clocks'][number];

export interface StageChange {
  stage: DisputeStage;
  note: string;
  outcome?: DisputeOutcome | null;
  cost_bearer?: 'issuer' | 'acquirer' | null;
}

/** Moves a dispute to a stage (closed resolves it, with the outcome and who bears the cost). */
export const setDisputeStage = async (id: number, change: StageChange) => (await http.post<DisputeStory>(`/disputes/${id}/stage/`, change)).data;

/** The card network whose rule sets' clocks the dispute runs ('' for none known). */
export const setDisputeNetwork = async (id: number, network: string) => (await http.post<DisputeStory>(`/disputes/${id}/network/`, { network })).data;

export type RuleSet = Answer<typeof disputes.RuleSet>;

export const listRuleSets = async () => (await http.get<RuleSet[]>('/admin/rule-sets/')).data;
export const setRuleSetActive = async (id: number, active: boolean) => (await http.patch<RuleSet>(`/admin/rule-sets/${id}/`, { active })).data;
