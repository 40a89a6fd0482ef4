// Alert rules: an admin list, every write audited. A webhook's key is sealed by the caller (the API
// holds the ring) and never read back: the list says only whether there is one.
import { eq, sql } from 'drizzle-orm';
import { auditedList } from '../audit/index.ts';
import { RuleProblem } from '../refusals.ts';
import { type AlertChannel, alertChannels, alertRules } from './schema.ts';

export interface AlertRuleInput {
  name: string;
  clocks: string[];
  daysBefore: number;
  toOwner: boolean;
  toAddresses: string[];
  channel: AlertChannel;
  webhookUrl: string | null;
  /** The sealed key: a new one, or undefined to keep the one stored. */
  webhookSecretEncrypted?: Buffer | undefined;
  hoursFrom: number;
  hoursTo: number;
  weekdays: number[];
  timeZone: string;
  active: boolean;
}

const address = /^[^\s@<>,;]{1,64}@[^\s@<>,;]{1,255}$/;
const clockKey = /^[a-z0-9_.]{1,60}$/;

/** Whether a webhook's address is one EJ Desk may call: https, or http to this machine only (tests, a local relay). */
function webhookAllowed(url: string): boolean {
  try {
    const u = new URL(url);
    if (u.username || u.password) return false;
    if (u.protocol === 'https:') return true;
    return u.protocol === 'http:' && ['127.0.0.1', '[::1]', 'localhost'].includes(u.hostname);
  } catch {
    return false;
  }
}

/** The checked rule (names trimmed, lists unique), or a RuleProblem naming the field. */
export function checkAlertRule(value: Record<string, unknown>): Omit<AlertRuleInput, 'webhookSecretEncrypted'> & { webhookSecret: string | undefined } {
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const name = text(value.name);
  if (!name || name.length > 200) throw new RuleProblem('name must be a text of 1 to 200 characters');
  const clocks = value.clocks ?? [];
  if (!Array.isArray(clocks) || clocks.length > 50 || !clocks.every((c) => typeof c === 'string' && clockKey.test(c)))
    throw new RuleProblem('clocks must be a list of clock keys such as tat or nfs.representment (none: every clock)');
  const daysBefore = value.days_before;
  if (typeof daysBefore !== 'number' || !Number.isInteger(daysBefore) || daysBefore < 0 || daysBefore > 60)
    throw new RuleProblem('days_before must be a whole number from 0 to 60');
  const channel = value.channel as AlertChannel;
  if (!alertChannels.includes(channel)) throw new RuleProblem(`channel must be one of ${alertChannels.join(', ')}`);
  const toOwner = value.to_owner !== false;
  const toAddresses = (value.to_addresses ?? []) as unknown[];
  if (!Array.isArray(toAddresses) || toAddresses.length > 50 || !toAddresses.every((a) => typeof a === 'string' && address.test(a.trim())))
    throw new RuleProblem('to_addresses must be a list of at most 50 email addresses');
  const webhookUrl = text(value.webhook_url) || null;
  const webhookSecret = text(value.webhook_secret) || undefined;
  if (channel === 'webhook') {
    if (!webhookUrl || !webhookAllowed(webhookUrl)) throw new RuleProblem('webhook_url must be an https:// address (http:// only to this machine)');
    if (webhookSecret !== undefined && webhookSecret.length < 16) throw new RuleProblem('webhook_secret must be at least 16 characters');
  } else {
    if (webhookUrl || webhookSecret) throw new RuleProblem('webhook_url and webhook_secret are for the webhook channel only');
    if (!toOwner && toAddresses.length === 0) throw new RuleProblem('an email rule must go to the owner or to an address');
  }
  const hour = (v: unknown, min: number, max: number, field: string) => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw new RuleProblem(`${field} must be a whole hour from ${min} to ${max}`);
    return v;
  };
  const hoursFrom = hour(value.hours_from ?? 9, 0, 23, 'hours_from');
  const hoursTo = hour(value.hours_to ?? 18, 1, 24, 'hours_to');
  if (hoursFrom >= hoursTo) throw new RuleProblem('hours_from must come before hours_to');
  const weekdays = (value.weekdays ?? [1, 2, 3, 4, 5]) as unknown[];
  if (!Array.isArray(weekdays) || weekdays.length === 0 || !weekdays.every((d) => typeof d === 'number' && Number.isInteger(d) && d >= 1 && d <= 7))
    throw new RuleProblem('weekdays must list ISO weekdays, 1 (Monday) to 7 (Sunday)');
  const timeZone = text(value.time_zone) || 'Asia/Kolkata';
  try {
    new Intl.DateTimeFormat('en', { timeZone });
  } catch {
    throw new RuleProblem('time_zone must be an IANA time zone such as Asia/Kolkata');
  }
  return {
    name,
    clocks: [...new Set(clocks as string[])].sort(),
    daysBefore,
    toOwner: channel === 'email' && toOwner,
    toAddresses: [...new Set((toAddresses as string[]).map((a) => a.trim().toLowerCase()))].sort(),
    channel,
    webhookUrl,
    webhookSecret,
    hoursFrom,
    hoursTo,
    weekdays: [...new Set(weekdays as number[])].sort(),
    timeZone,
    active: value.active !== false,
  };
}

const columns = {
  id: alertRules.id,
  name: alertRules.name,
  clocks: alertRules.clocks,
  days_before: alertRules.daysBefore,
  to_owner: alertRules.toOwner,
  to_addresses: alertRules.toAddresses,
  channel: alertRules.channel,
  webhook_url: alertRules.webhookUrl,
  has_webhook_secret: sql<boolean>`${alertRules.webhookSecretEncrypted} is not null`,
  hours_from: alertRules.hoursFrom,
  hours_to: alertRules.hoursTo,
  weekdays: alertRules.weekdays,
  time_zone: alertRules.timeZone,
  active: alertRules.active,
};
export type AlertRuleRow = {
  id: number;
  name: string;
  clocks: string[];
  days_before: number;
  to_owner: boolean;
  to_addresses: string[];
  channel: string;
  webhook_url: string | null;
  has_webhook_secret: boolean;
  hours_from: number;
  hours_to: number;
  weekdays: number[];
  time_zone: string;
  active: boolean;
};

const values = (input: AlertRuleInput) => ({
  name: input.name,
  clocks: input.clocks,
  daysBefore: input.daysBefore,
  toOwner: input.toOwner,
  toAddresses: input.toAddresses,
  channel: input.channel,
  webhookUrl: input.webhookUrl,
  // A rule moved off webhooks keeps no key; one left out on a change keeps the stored one.
  ...(input.channel !== 'webhook'
    ? { webhookSecretEncrypted: null }
    : input.webhookSecretEncrypted
      ? { webhookSecretEncrypted: input.webhookSecretEncrypted }
      : {}),
  hoursFrom: input.hoursFrom,
  hoursTo: input.hoursTo,
  weekdays: input.weekdays,
  timeZone: input.timeZone,
  active: input.active,
});

/** A webhook's address as the audit log keeps it: its origin only (a path may hold a token, and entries are never changed). */
const originOf = (url: string | null) => {
  try {
    return `${new URL(url ?? '').origin}/…`;
  } catch {
    return 'a webhook';
  }
};

const describe = (r: AlertRuleRow) =>
  `${r.name}: ${r.clocks.length ? r.clocks.join(', ') : 'every clock'}, ${r.days_before} days before, by ${r.channel}${
    r.channel === 'webhook' ? ` to ${originOf(r.webhook_url)}` : ` to ${[r.to_owner ? 'the owner' : '', ...r.to_addresses].filter(Boolean).join(', ')}`
  }, ${r.hours_from}-${r.hours_to} h ${r.time_zone}${r.active ? '' : ' (off)'}`;

export const alertRuleList = auditedList<AlertRuleInput, AlertRuleRow>({
  entity: 'alert_rule',
  list: (db) => db.select(columns).from(alertRules).orderBy(alertRules.id) as Promise<AlertRuleRow[]>,
  insert: async (tx, input) => (await tx.insert(alertRules).values(values(input)).onConflictDoNothing().returning(columns))[0] as AlertRuleRow | undefined,
  update: async (tx, id, input) =>
    (
      await tx
        .update(alertRules)
        .set({ ...values(input), updateAt: sql`now()` })
        .where(eq(alertRules.id, id))
        .returning(columns)
    )[0] as AlertRuleRow | undefined,
  remove: async (tx, id) => (await tx.delete(alertRules).where(eq(alertRules.id, id)).returning(columns))[0] as AlertRuleRow | undefined,
  describe,
});
