// The mailboxes an admin added, and the state each one's watcher reported.
import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { bytea, createdAt, updatedAt } from '../columns.ts';

/**
 * The mailboxes an admin added on the Mailboxes screen: every enabled one is watched at once.
 * Secrets (a password or client secret, a refresh token) are sealed like the bank passwords and
 * never leave the database but to sign in. The bootstrap mailbox in IMAP_* is not here.
 */
export const mailboxes = pgTable(
  'mailboxes',
  {
    id: serial('id').primaryKey(),
    host: text('host').notNull(),
    port: integer('port').notNull(),
    tls: boolean('tls').notNull().default(true),
    /** The mailbox signed in to (with OAuth2, the address the token is used for). */
    username: text('username').notNull(),
    folder: text('folder').notNull().default('INBOX'),
    /** password | oauth2-client-credentials | oauth2-refresh-token */
    authMethod: text('auth_method').notNull(),
    tokenUrl: text('token_url'),
    clientId: text('client_id'),
    scope: text('scope'),
    /** The password (password) or the client secret (OAuth2), sealed. */
    secretEncrypted: bytea('secret_encrypted'),
    /** The refresh token (oauth2-refresh-token), sealed; a rotated one replaces it. */
    refreshTokenEncrypted: bytea('refresh_token_encrypted'),
    enabled: boolean('enabled').notNull().default(true),
    createAt: createdAt(),
    updateAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('mailboxes_key').on(sql`lower(${t.username})`, sql`lower(${t.host})`, t.port, t.folder),
    check('mailboxes_auth_method_check', sql`${t.authMethod} in ('password', 'oauth2-client-credentials', 'oauth2-refresh-token')`),
  ],
);

/**
 * What each ingester watching a mailbox last said of it (the Mail flow screen and the stalled
 * banner read it): connected or not and why, and when a sync last finished.
 */
export const mailboxStatus = pgTable('mailbox_status', {
  /** As ingest_checkpoints.source: `imap://user@host:port/mailbox`. */
  source: text('source').primaryKey(),
  /** connecting | connected | disconnected | stopped */
  state: text('state').notNull(),
  lastError: text('last_error'),
  /** When a sync round last finished: the mailbox was read up to its newest message. */
  lastSyncAt: timestamp('last_sync_at', { withTimezone: true }),
  /** When it was first watched: a mailbox that never synced is stalled once this is long ago. */
  createAt: createdAt(),
  updateAt: updatedAt(),
});
