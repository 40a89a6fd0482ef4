// Users and their sign-in: finding and creating them, the login throttle (failed logins per account
// and per IP), the refresh tokens a logout ended, and changing one's own password.
import { and, eq, lt, sql } from 'drizzle-orm';
import { auditLog } from '../audit/schema.ts';
import { type Db, queryRows } from '../client.ts';
import { loginFailures, revokedTokens, type UserRole, users } from './schema.ts';

export async function findUserByEmail(db: Db, email: string) {
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1);
  return user;
}

/** An active user by id; with a session id (an access token's), whether that session was ended, in the same query. */
export async function findActiveUser(db: Db, id: number, sessionId?: string) {
  // Every request asks it: a named statement, planned once per connection.
  const [user] = await db
    .select({
      id: users.id,
      email: users.email,
      role: users.role,
      mustChangePassword: users.mustChangePassword,
      sessionsRevokedAt: users.sessionsRevokedAt,
      sessionsKeptId: users.sessionsKeptId,
      sessionEnded: sessionId ? sql<boolean>`exists (select 1 from revoked_tokens where jti = ${sql.placeholder('session')})` : sql<boolean>`false`,
    })
    .from(users)
    .where(and(eq(users.id, sql.placeholder('id')), eq(users.isActive, true)))
    .limit(1)
    .prepare(sessionId ? 'active_user_in_session' : 'active_user')
    .execute({ id, session: sessionId });
  return user;
}

export async function createUser(db: Db, email: string, passwordHash: string, role: UserRole = 'operator') {
  const [user] = await db
    .insert(users)
    .values({ email, passwordHash, role })
    .onConflictDoNothing()
    .returning({ id: users.id, email: users.email, role: users.role });
  return user;
}

export async function recordLogin(db: Db, id: number): Promise<void> {
  await db.update(users).set({ lastLogin: new Date() }).where(eq(users.id, id));
}

export interface LoginLimits {
  /** Failures allowed for one account from one IP within the window (the lock-out). */
  perAccountIp: number;
  /** Failures allowed from one IP, whatever the accounts (password spraying). */
  perIp: number;
  windowMinutes: number;
}

export type LoginAttempt = { allowed: true; attemptId: number } | { allowed: false; scope: 'account' | 'ip'; retryAfter: number };

/**
 * Check the throttle and reserve a slot in one atomic step: under advisory locks on the
 * account+IP pair and on the IP (held to the end of the transaction, across processes), count the
 * failures in the window and, when under both limits, record this attempt as a failure before the
 * password is checked. N parallel attempts therefore check at most the limit; a successful attempt
 * then removes its row (finishLoginAttempt), so successes never count.
 */
export async function beginLoginAttempt(db: Db, email: string, ip: string, limits: LoginLimits): Promise<LoginAttempt> {
  const account = email.toLowerCase().slice(0, 320);
  const windowMs = limits.windowMinutes * 60_000;
  return db.transaction(async (tx) => {
    // Always the pair's lock first, then the IP's: the same order everywhere, so no deadlock.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`login:${account}\n${ip}`}, 0))`);
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`login-ip:${ip}`}, 0))`);
    const since = new Date(Date.now() - windowMs);
    // The limit-th newest failure in the window, per scope: when it exists the scope is full, and
    // it is the one whose expiry lets the next attempt in.
    const [row] = await queryRows<{ pair_nth: string | null; ip_nth: string | null }>(
      tx as unknown as Db,
      sql`select
        (select at from login_failures where ip = ${ip} and email = ${account} and at > ${since}
          order by at desc offset ${limits.perAccountIp - 1} limit 1)::text as pair_nth,
        (select at from login_failures where ip = ${ip} and at > ${since}
          order by at desc offset ${limits.perIp - 1} limit 1)::text as ip_nth`,
    );
    const refusal = (scope: 'account' | 'ip', nth: string): LoginAttempt => ({
      allowed: false,
      scope,
      retryAfter: Math.max(1, Math.ceil((new Date(nth).getTime() + windowMs - Date.now()) / 1000)),
    });
    if (row?.pair_nth) return refusal('account', row.pair_nth);
    if (row?.ip_nth) return refusal('ip', row.ip_nth);
    const [attempt] = await tx.insert(loginFailures).values({ email: account, ip }).returning({ id: loginFailures.id });
    return { allowed: true, attemptId: attempt!.id };
  });
}

/** After the password check: a success removes the reserved row; a failure keeps it and prunes old ones. */
export async function finishLoginAttempt(db: Db, attemptId: number, succeeded: boolean): Promise<void> {
  if (succeeded) {
    await db.delete(loginFailures).where(eq(loginFailures.id, attemptId));
    return;
  }
  // Old failures no longer count; prune them as we go so the table stays small.
  await db.delete(loginFailures).where(lt(loginFailures.at, new Date(Date.now() - 24 * 3600_000)));
}

/** Ends a refresh token: its jti is refused until it expires (then the row is dropped). */
export async function revokeToken(db: Db, jti: string, expiresAt: Date): Promise<void> {
  await db.insert(revokedTokens).values({ jti, expiresAt }).onConflictDoNothing();
  // Housekeeping at the rate of logouts: rows of tokens that have expired anyway.
  await db.delete(revokedTokens).where(lt(revokedTokens.expiresAt, new Date()));
}

export async function isTokenRevoked(db: Db, jti: string): Promise<boolean> {
  const [row] = await db.select({ jti: revokedTokens.jti }).from(revokedTokens).where(eq(revokedTokens.jti, jti)).limit(1);
  return Boolean(row);
}

/** The stored hash, to check a user's current password before they change it. */
export async function passwordHashOf(db: Db, id: number): Promise<string | undefined> {
  const [row] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, id));
  return row?.hash;
}

/**
 * The user's own new password: the reset's obligation ends with it, and so does every other
 * session of the user (whoever knew the old password may have signed in with it); the session the
 * change was made in goes on. Audited.
 */
export async function setOwnPassword(db: Db, id: number, passwordHash: string, keptSession: string | null): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, mustChangePassword: false, sessionsRevokedAt: new Date(), sessionsKeptId: keptSession }).where(eq(users.id, id));
    await tx.insert(auditLog).values({ userId: id, action: 'change_password', entity: 'user', entityId: String(id), detail: 'other sessions ended' });
  });
}
