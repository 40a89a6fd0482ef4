// Alerts: warnings before a dispute's clock runs out, and each owner's daily digest, sent by the
// worker by email (the bank's SMTP relay) or webhook. An alert rule says which clocks, how long
// before the deadline, to whom, by which channel and in which working hours; each warning to each
// recipient is one row of alert_deliveries, made once (its unique key) and sent once.
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, date, index, integer, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { bytea, createdAt, inList, updatedAt } from '../columns.ts';
import { disputes } from '../disputes/schema.ts';

export const alertChannels = ['email', 'webhook'] as const;
export type AlertChannel = (typeof alertChannels)[number];

/**
 * What to warn of and how: the clocks watched, from how many days before their due date, to whom
 * (the owner, addresses) or to which webhook (its key sealed), and in which working hours.
 */
export const alertRules = pgTable(
  'alert_rules',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** The clocks it watches, by key ('tat' for the TAT rule's, nfs.representment, ...); none: every clock. */
    clocks: text('clocks')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Warn from this many days before the due date (0: on the last day). */
    daysBefore: integer('days_before').notNull(),
    toOwner: boolean('to_owner').notNull().default(true),
    /** A team's or anyone's addresses, beside the owner. */
    toAddresses: text('to_addresses')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    channel: text('channel').notNull(),
    webhookUrl: text('webhook_url'),
    /** The webhook's HMAC-SHA256 key, sealed as bank passwords are. */
    webhookSecretEncrypted: bytea('webhook_secret_encrypted'),
    /** Working hours: sent only from hours_from to hours_to (local hours, 0-24) on these ISO weekdays, in time_zone. */
    hoursFrom: smallint('hours_from').notNull().default(9),
    hoursTo: smallint('hours_to').notNull().default(18),
    weekdays: smallint('weekdays')
      .array()
      .notNull()
      .default(sql`'{1,2,3,4,5}'::smallint[]`),
    timeZone: text('time_zone').notNull().default('Asia/Kolkata'),
    active: boolean('active').notNull().default(true),
    createAt: createdAt(),
    updateAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('alert_rules_name_key').on(sql`lower(${t.name})`),
    check('alert_rules_channel_check', sql`${t.channel} in (${inList(alertChannels)})`),
    check('alert_rules_days_check', sql`${t.daysBefore} between 0 and 60`),
    check('alert_rules_hours_check', sql`${t.hoursFrom} between 0 and 23 and ${t.hoursTo} between 1 and 24 and ${t.hoursFrom} < ${t.hoursTo}`),
    check('alert_rules_webhook_check', sql`(${t.channel} = 'webhook') = (${t.webhookUrl} is not null)`),
  ],
);

export const deliveryKinds = ['warning', 'digest'] as const;
export const deliveryStatuses = ['pending', 'sending', 'sent', 'failed'] as const;

/**
 * Each warning (a rule, a dispute's clock and its due date, a recipient) and each digest (a person,
 * a day): made once by whichever worker plans it first (the unique keys), then claimed by one worker
 * at a time for a lease; a worker that dies mid-send leaves its lease to lapse and another sends it.
 */
export const alertDeliveries = pgTable(
  'alert_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    /** The rule that made it; none once the rule is deleted (what it sent stays listed). */
    ruleId: integer('rule_id').references(() => alertRules.id, { onDelete: 'set null' }),
    disputeId: bigint('dispute_id', { mode: 'number' }).references(() => disputes.id, { onDelete: 'cascade' }),
    clockKey: text('clock_key').notNull().default(''),
    clockName: text('clock_name').notNull().default(''),
    /** The clock's due date (a warning), or the digest's day. */
    dueOn: date('due_on').notNull(),
    channel: text('channel').notNull(),
    /** An email address, or the webhook's URL. */
    recipient: text('recipient').notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    leasedBy: text('leased_by'),
    /** What the relay or the webhook answered last (or why it could not be reached). */
    lastAnswer: text('last_answer').notNull().default(''),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createAt: createdAt(),
  },
  (t) => [
    check('alert_deliveries_kind_check', sql`${t.kind} in (${inList(deliveryKinds)})`),
    check('alert_deliveries_status_check', sql`${t.status} in (${inList(deliveryStatuses)})`),
    uniqueIndex('alert_deliveries_warning_key')
      .on(t.ruleId, t.disputeId, t.clockKey, t.dueOn, t.recipient)
      .where(sql`${t.kind} = 'warning'`),
    uniqueIndex('alert_deliveries_digest_key')
      .on(t.recipient, t.dueOn)
      .where(sql`${t.kind} = 'digest'`),
    // What is left to send, oldest first.
    index('alert_deliveries_due_idx')
      .on(t.nextAttemptAt, t.id)
      .where(sql`${t.status} in ('pending', 'sending')`),
    index('alert_deliveries_list_idx').on(sql`${t.id} desc`),
  ],
);
