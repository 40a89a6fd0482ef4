// Who may sign in: users and their roles, failed logins (throttling), single sign-on requests and
// sessions, and the refresh tokens a logout ended.
import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, inList } from '../columns.ts';

/** operator: every screen but the admin lists; admin: those too. */
export const userRoles = ['operator', 'admin'] as const;
export type UserRole = (typeof userRoles)[number];

/** Accounts: email, argon2id hash, role (`operator`: every screen but the admin lists; `admin`: those too), active, must change password. */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    role: text('role').$type<UserRole>().notNull().default('operator'),
    /** Set by an admin's password reset: the user chooses a new one before anything else. */
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    lastLogin: timestamp('last_login', { withTimezone: true }),
    /** The identity provider's subject (`sub`) of a user who signs in through single sign-on. */
    oidcSubject: text('oidc_subject'),
    /**
     * Tokens issued before this moment are refused: the provider's back-channel logout, an admin's
     * password reset, the user's own password change.
     */
    sessionsRevokedAt: timestamp('sessions_revoked_at', { withTimezone: true }),
    /** The one session that outlived that moment: the one the user changed their own password in. */
    sessionsKeptId: text('sessions_kept_id'),
    createAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    uniqueIndex('users_oidc_subject_key').on(t.oidcSubject),
    check('users_role_check', sql`${t.role} in (${inList(userRoles)})`),
  ],
);

/**
 * Single sign-on requests sent to the identity provider and not yet answered: what the callback
 * must find again (the state, by its hash; the browser's binding cookie, by its hash), the nonce
 * and the PKCE verifier. Kept in the database so that any API instance can take the callback; a
 * row is deleted when its callback comes, so a replayed callback finds nothing.
 */
export const ssoRequests = pgTable(
  'sso_requests',
  {
    stateHash: text('state_hash').primaryKey(),
    bindingHash: text('binding_hash').notNull(),
    nonce: text('nonce').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    createAt: createdAt(),
  },
  (t) => [index('sso_requests_create_at_idx').on(t.createAt)],
);

/**
 * Sessions begun through single sign-on: the one-time code the console exchanges for its tokens
 * (by hash, until used), then the refresh token it got (its jti), with the provider's ID token and
 * session id for the provider's logout.
 */
export const ssoSessions = pgTable(
  'sso_sessions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    handoffHash: text('handoff_hash'),
    refreshJti: text('refresh_jti'),
    idToken: text('id_token').notNull(),
    sid: text('sid'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createAt: createdAt(),
  },
  (t) => [
    uniqueIndex('sso_sessions_handoff_key').on(t.handoffHash),
    uniqueIndex('sso_sessions_refresh_jti_key').on(t.refreshJti),
    index('sso_sessions_expires_at_idx').on(t.expiresAt),
  ],
);

/** Failed logins only: throttling counts these per account and per IP. */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    email: text('email').notNull(),
    ip: text('ip').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('login_failures_email_at_idx').on(t.email, t.at), index('login_failures_ip_at_idx').on(t.ip, t.at), index('login_failures_at_idx').on(t.at)],
);

/**
 * Refresh tokens ended by a logout (their jti), kept until they would have expired anyway: a copied
 * refresh token is worth nothing after its owner logs out.
 */
export const revokedTokens = pgTable(
  'revoked_tokens',
  {
    jti: text('jti').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('revoked_tokens_expires_idx').on(t.expiresAt)],
);
