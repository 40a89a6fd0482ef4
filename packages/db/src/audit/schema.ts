// The audit log: every admin change and every sign-in or sign-out, with who and when, each entry
// chained to the one before it by SHA-256 (audit/functions.sql), so that a changed, removed or
// inserted entry shows (chain.ts).
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../identity/schema.ts';

/** Who did what, when, from where: logins, logouts, reveals (with the reason), every admin change. */
export const auditLog = pgTable(
  'audit_log',
  {
    /** Taken by the chain trigger from audit_log_id_seq (0 is a placeholder): id order is chain order. */
    id: bigint('id', { mode: 'number' }).primaryKey().default(0),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    /** Where the request came from (logins), and what the user said (a reveal's reason). */
    ip: text('ip'),
    detail: text('detail'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** The hash of the entry before (64 zeros for the first); set by the insert trigger, never by a caller. */
    prevHash: text('prev_hash').notNull().default(''),
    /** SHA-256 of prev_hash and this entry's content (audit_entry_hash), hex. */
    hash: text('hash').notNull().default(''),
  },
  (t) => [index('audit_log_at_idx').on(t.at.desc())],
);

/**
 * The chain's newest link, kept by the insert trigger: the entries after it are chained onto it,
 * and a verification compares the log's last entry with it (the newest entries removed show).
 */
export const auditChainHead = pgTable(
  'audit_chain_head',
  {
    id: integer('id').primaryKey().default(1),
    lastId: bigint('last_id', { mode: 'number' }).notNull().default(0),
    lastHash: text('last_hash').notNull(),
    entries: bigint('entries', { mode: 'number' }).notNull().default(0),
  },
  (t) => [check('audit_chain_head_one_row', sql`${t.id} = 1`)],
);
