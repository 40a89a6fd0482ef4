// The audit log: every admin change and every sign-in or sign-out, with who and when.
import { bigserial, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../identity/schema.ts';

/** Who did what, when, from where: logins, logouts, reveals (with the reason), every admin change. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    /** Where the request came from (logins), and what the user said (a reveal's reason). */
    ip: text('ip'),
    detail: text('detail'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_log_at_idx').on(t.at.desc())],
);
