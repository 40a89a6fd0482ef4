// Four eyes: the changes an admin has put under a second person's approval, and the requests made
// for them, each decided once by someone other than its maker.
import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { inList } from '../columns.ts';
import { users } from '../identity/schema.ts';

/**
 * The actions four eyes can hold: a dispute resolved with the customer credited, one resolved
 * rejected, a status set on more than `threshold` disputes at once, and any change of the TAT
 * rules or of the stored bank passwords.
 */
export const fourEyesActions = ['resolve_credited', 'resolve_rejected', 'bulk_status', 'tat_rule', 'bank_password'] as const;
export type FourEyesAction = (typeof fourEyesActions)[number];

/** Which actions wait for a second person (admins switch each on), and the bulk action's size. */
export const fourEyesSettingsTable = pgTable(
  'four_eyes_settings',
  {
    action: text('action').primaryKey(),
    enabled: boolean('enabled').notNull().default(false),
    /** For bulk_status: a change of more disputes than this waits. */
    threshold: integer('threshold').notNull().default(100),
    updateAt: timestamp('update_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('four_eyes_settings_action_check', sql`${t.action} in (${inList(fourEyesActions)})`),
    check('four_eyes_settings_threshold_check', sql`${t.threshold} >= 0`),
  ],
);

export const requestStatuses = ['pending', 'approved', 'rejected'] as const;

/**
 * A change waiting for a second person: what its maker asked (the request's body, applied as the
 * disputes are when it is approved), how many it matched then, and who decided it, when and why.
 */
export const changeRequests = pgTable(
  'change_requests',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    action: text('action').notNull(),
    /** What to do: the status change and its target (ids, or the list's filters), as the maker sent it. */
    payload: jsonb('payload').notNull(),
    summary: text('summary').notNull(),
    /** How many disputes the target matched when the request was made. */
    matchedThen: integer('matched_then').notNull(),
    makerId: integer('maker_id').references(() => users.id, { onDelete: 'set null' }),
    maker: text('maker').notNull(),
    madeAt: timestamp('made_at', { withTimezone: true }).notNull().defaultNow(),
    status: text('status').notNull().default('pending'),
    checkerId: integer('checker_id').references(() => users.id, { onDelete: 'set null' }),
    checker: text('checker'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decisionNote: text('decision_note'),
    /** What the approval did: how many it changed, and how many had changed since the request. */
    result: jsonb('result'),
  },
  (t) => [
    check('change_requests_action_check', sql`${t.action} in (${inList(fourEyesActions)})`),
    check('change_requests_status_check', sql`${t.status} in (${inList(requestStatuses)})`),
    index('change_requests_pending_idx')
      .on(t.madeAt)
      .where(sql`${t.status} = 'pending'`),
    index('change_requests_list_idx').on(sql`${t.id} desc`),
  ],
);
