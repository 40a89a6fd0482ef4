// The answers to keyed writes (Idempotency-Key), kept a day so a retried write is answered again.
import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The answers to writes, by the caller's Idempotency-Key (apps/api/src/plugins/idempotency.ts): a
 * repeated request gets the stored answer instead of writing again. Written in the write's own
 * transaction, so a key is stored exactly when its write is; kept a day. `owner` scopes a key to
 * its user (user:ID, deploy:NAME, anonymous); `body` null: the answer held a secret, not kept.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    owner: text('owner').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    status: integer('status').notNull(),
    contentType: text('content_type'),
    body: text('body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.owner, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);
