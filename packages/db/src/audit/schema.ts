// The audit log: every admin change and every sign-in or sign-out, with who and when, each entry
// chained to the one before it by SHA-256 (audit/functions.sql), so that a changed, removed or
// inserted entry shows (chain.ts).
import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
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
    /**
     * Its place in the chain, given once it has committed (audit_chain_extend): null until then. The
     * chain's order is the order entries were seen committed, so no writer waits for another.
     */
    chainSeq: bigint('chain_seq', { mode: 'number' }),
    /** The hash of the entry before in the chain (64 zeros for the first); '' until chained. */
    prevHash: text('prev_hash').notNull().default(''),
    /** SHA-256 of prev_hash and this entry's content (audit_entry_hash), hex; '' until chained. */
    hash: text('hash').notNull().default(''),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at.desc()),
    uniqueIndex('audit_log_chain_seq_key')
      .on(t.chainSeq)
      .where(sql`${t.chainSeq} is not null`),
    // The entries not chained yet, for the chainer to find at once.
    index('audit_log_unchained_idx')
      .on(t.id)
      .where(sql`${t.chainSeq} is null`),
  ],
);

/**
 * The chain's newest link, kept by audit_chain_extend: the entries after it are chained onto it,
 * and a verification compares the chain's last entry with it (the newest entries removed show).
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
