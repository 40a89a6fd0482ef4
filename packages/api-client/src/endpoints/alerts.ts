// Alerts (admins): the rules that warn before a dispute's clock runs out, and what was sent.
import type { Answer } from '@ejdesk/contract';
import type * as alerts from '@ejdesk/contract/schemas/alerts.ts';
import { http } from '../http.ts';
import type { Paginated } from '../types.ts';
import { cleanParams, type QueryParams } from './emails.ts';

export type AlertRule = Answer<typeof alerts.AlertRule>;
export type AlertDelivery = Answer<typeof alerts.AlertDelivery>;

/** An alert rule as its form holds it: text, turned into the API's types here. */
export type AlertRuleFields = Record<
  'name' | 'clocks' | 'days_before' | 'channel' | 'to_owner' | 'to_addresses' | 'webhook_url' | 'webhook_secret' | 'hours' | 'weekdays' | 'time_zone',
  string
>;

const list = (text: string) => text.split(/[\s,;]+/).filter(Boolean);
/** The week's days a form's choice stands for (ISO: 1 is Monday). */
export const weekdayChoices: Record<string, number[]> = {
  'Monday to Friday': [1, 2, 3, 4, 5],
  'Monday to Saturday': [1, 2, 3, 4, 5, 6],
  'Every day': [1, 2, 3, 4, 5, 6, 7],
};

const ruleBody = (f: AlertRuleFields) => {
  const hours = /^\s*(\d{1,2})\s*-\s*(\d{1,2})\s*$/.exec(f.hours);
  return {
    name: f.name,
    clocks: list(f.clocks),
    // A blank or non-numeric count goes as null: the API's 400 names the field.
    days_before: /^\s*\d+\s*$/.test(f.days_before) ? Number(f.days_before) : null,
    channel: f.channel,
    to_owner: f.to_owner === 'yes',
    to_addresses: list(f.to_addresses),
    webhook_url: f.webhook_url.trim() || null,
    ...(f.webhook_secret.trim() && { webhook_secret: f.webhook_secret.trim() }),
    hours_from: hours ? Number(hours[1]) : null,
    hours_to: hours ? Number(hours[2]) : null,
    weekdays: weekdayChoices[f.weekdays] ?? [1, 2, 3, 4, 5],
    time_zone: f.time_zone.trim() || 'Asia/Kolkata',
  };
};

/** The form's text of a stored rule (its webhook key is never sent back: left empty, it stays). */
export const alertRuleFields = (r: AlertRule): AlertRuleFields => ({
  name: r.name,
  clocks: r.clocks.join(', '),
  days_before: String(r.days_before),
  channel: r.channel,
  to_owner: r.to_owner ? 'yes' : 'no',
  to_addresses: r.to_addresses.join(', '),
  webhook_url: r.webhook_url ?? '',
  webhook_secret: '',
  hours: `${r.hours_from}-${r.hours_to}`,
  weekdays: Object.entries(weekdayChoices).find(([, days]) => days.join() === r.weekdays.join())?.[0] ?? 'Monday to Friday',
  time_zone: r.time_zone,
});

export const listAlertRules = async () => (await http.get<AlertRule[]>('/admin/alert-rules/')).data;
export const createAlertRule = async (fields: AlertRuleFields) => (await http.post<AlertRule>('/admin/alert-rules/', ruleBody(fields))).data;
export const changeAlertRule = async (id: number, fields: AlertRuleFields) => (await http.put<AlertRule>(`/admin/alert-rules/${id}/`, ruleBody(fields))).data;
export const deleteAlertRule = async (id: number) => void (await http.delete(`/admin/alert-rules/${id}/`));

export const getAlertDeliveries = async (params: QueryParams, signal?: AbortSignal) =>
  (await http.get<Paginated<AlertDelivery>>('/admin/alert-deliveries/', { params: cleanParams(params), signal })).data;
