// The remote registry: every release of a remote, which one each remote serves (and its canary),
// the origins a release may come from, load failures, and the tokens that may deploy.
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { bytea, createdAt, updatedAt } from '../columns.ts';
import { users } from '../identity/schema.ts';

/**
 * The remote registry: every release of a remote that `pnpm remote deploy` accepted.
 * A release is immutable (one row per name and version) and stays loadable at its manifest URL, so
 * a page opened on it keeps working after the next deploy; remote_current says which one the shell
 * loads now. Every shell server reads these through the API, so they all agree.
 */
export const remoteReleases = pgTable(
  'remote_releases',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    name: text('name').notNull(),
    version: text('version').notNull(),
    manifest: text('manifest').notNull(),
    /** What the build declared (ejdesk-remote.json): section, role, paths, nav, contract. */
    descriptor: jsonb('descriptor').notNull(),
    deployedBy: text('deployed_by').notNull(),
    deployedAt: timestamp('deployed_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The entry script the manifest names, and the SHA-384 of it and of the manifest as the API
     * fetched them at deploy (SRI form, sha384-BASE64): the shell loads the entry with this
     * integrity. Null for releases recorded before the API checked them itself.
     */
    entry: text('entry'),
    entryIntegrity: text('entry_integrity'),
    manifestIntegrity: text('manifest_integrity'),
    /** Withdrawn: never served or returned to again. */
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
    /** Rolled back from (as current, or as a canary ended): a later rollback never returns to it. */
    rolledBackAt: timestamp('rolled_back_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('remote_releases_version_key').on(t.name, t.version)],
);

/**
 * The origins a remote's manifests and files may come from, beyond the one EJ Desk serves it from
 * (REMOTE_ORIGINS): added and removed by admins. A release elsewhere is refused at deploy and never
 * served.
 */
export const remoteOrigins = pgTable(
  'remote_origins',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    remote: text('remote').notNull(),
    /** scheme://host[:port], as URL.origin writes it. */
    origin: text('origin').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createAt: createdAt(),
  },
  (t) => [uniqueIndex('remote_origins_key').on(t.remote, t.origin)],
);

/** Which release of each remote the shell loads now, and its canary with the share it reaches. */
export const remoteCurrent = pgTable(
  'remote_current',
  {
    name: text('name').primaryKey(),
    releaseId: bigint('release_id', { mode: 'number' })
      .notNull()
      .references(() => remoteReleases.id),
    updateAt: updatedAt(),
    /** A canary: this release for canary_percent of the operators (the same ones each time), the current one for the rest. */
    canaryReleaseId: bigint('canary_release_id', { mode: 'number' }).references(() => remoteReleases.id),
    canaryPercent: integer('canary_percent'),
    canaryAt: timestamp('canary_at', { withTimezone: true }),
  },
  (t) => [
    check(
      'remote_current_canary_check',
      sql`(${t.canaryReleaseId} is null and ${t.canaryPercent} is null) or (${t.canaryReleaseId} is not null and ${t.canaryPercent} between 1 and 99)`,
    ),
  ],
);

/** The operators a release failed to load for (a remote that failed to load or threw at render), once each. */
export const remoteLoadFailures = pgTable(
  'remote_load_failures',
  {
    releaseId: bigint('release_id', { mode: 'number' })
      .notNull()
      .references(() => remoteReleases.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.releaseId, t.userId] })],
);

/**
 * The deploy tokens: each lets `pnpm remote` deploy and roll back one remote (its team's), or every
 * remote (remote null: the configured REMOTE_DEPLOY_TOKEN, recorded here so an admin can revoke it).
 * Only a SHA-256 of the token is kept (it is 32 random bytes: no slow hash is needed); it is shown
 * once, when created. A revoked token keeps its row (revoked_at) so the configured one stays revoked.
 */
export const deployTokens = pgTable(
  'deploy_tokens',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    name: text('name').notNull(),
    remote: text('remote'),
    tokenHash: bytea('token_hash').notNull(),
    /** The one from the configuration (REMOTE_DEPLOY_TOKEN), not created in the console. */
    configured: boolean('configured').notNull().default(false),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('deploy_tokens_hash_key').on(t.tokenHash),
    // A name says which token did a deploy in the audit log: one live token per name.
    uniqueIndex('deploy_tokens_live_name_key')
      .on(t.name)
      .where(sql`${t.revokedAt} is null`),
  ],
);
