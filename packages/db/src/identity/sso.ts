// Single sign-on's rows: the requests waiting for the identity provider's callback, the users it
// signs in (found by the provider's subject, else linked by e-mail), and the sessions it began.
import { and, eq, gt, isNotNull, lt, sql } from 'drizzle-orm';
import { auditLog } from '../audit/schema.ts';
import type { Db } from '../client.ts';
import { revokedTokens, ssoRequests, ssoSessions, type UserRole, users } from './schema.ts';

/** How long the provider has to call back, and the console to exchange its one-time code. */
const requestMinutes = 10;
const handoffSeconds = 120;

export async function saveSsoRequest(db: Db, row: { stateHash: string; bindingHash: string; nonce: string; codeVerifier: string }): Promise<void> {
  await db.insert(ssoRequests).values(row);
  // Requests never answered (the person closed the provider's page) go at the rate of new ones.
  await db.delete(ssoRequests).where(lt(ssoRequests.createAt, new Date(Date.now() - requestMinutes * 60_000)));
}

/** The request a callback's state names, taken once: a second callback with it finds nothing. */
export async function takeSsoRequest(db: Db, stateHash: string) {
  const [row] = await db
    .delete(ssoRequests)
    .where(and(eq(ssoRequests.stateHash, stateHash), gt(ssoRequests.createAt, new Date(Date.now() - requestMinutes * 60_000))))
    .returning();
  return row;
}

export interface SsoIdentity {
  subject: string;
  email: string;
  /** False when the provider says the address is not verified: it is then not used to link an account. */
  emailVerified: boolean;
  role: UserRole;
}

export type SsoUser = { id: number; email: string; role: UserRole; created: boolean; changes: string[] } | { refused: string; id?: number };

/**
 * The user a sign-in is for: by the provider's subject, else an existing account with the same
 * (verified) address, which is then linked; else a new one. Name, address and role follow the
 * provider at every sign-in; an account disabled here stays refused whatever the provider says.
 */
export async function upsertSsoUser(db: Db, who: SsoIdentity): Promise<SsoUser> {
  return db.transaction(async (tx) => {
    // One sign-in at a time per subject, so two first sign-ins in parallel make one account.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`sso:${who.subject}`}, 0))`);
    let [user] = await tx.select().from(users).where(eq(users.oidcSubject, who.subject)).limit(1);
    if (!user && who.emailVerified) {
      [user] = await tx
        .select()
        .from(users)
        .where(sql`lower(${users.email}) = lower(${who.email})`)
        .limit(1);
      if (user?.oidcSubject) return { refused: `the account ${user.email} is linked to another identity at the provider`, id: user.id };
    }
    if (user && !user.isActive) return { refused: `the account ${user.email} is disabled in EJ Desk`, id: user.id };
    if (!user) {
      const taken = await tx
        .select({ id: users.id })
        .from(users)
        .where(sql`lower(${users.email}) = lower(${who.email})`)
        .limit(1);
      if (taken.length) return { refused: `the provider does not vouch for the address ${who.email}, which an account here already has` };
      // No password: such a user signs in only through the provider ('!' is no hash argon2 accepts).
      const [created] = await tx
        .insert(users)
        .values({ email: who.email, passwordHash: '!', role: who.role, oidcSubject: who.subject, lastLogin: new Date() })
        .returning({ id: users.id, email: users.email, role: users.role });
      return { ...created!, created: true, changes: [] };
    }
    const changes: string[] = [];
    if (user.email !== who.email) changes.push(`email ${user.email} -> ${who.email}`);
    if (user.role !== who.role) changes.push(`role ${user.role} -> ${who.role}`);
    if (!user.oidcSubject) changes.push('linked to the provider');
    await tx.update(users).set({ email: who.email, role: who.role, oidcSubject: who.subject, lastLogin: new Date() }).where(eq(users.id, user.id));
    return { id: user.id, email: who.email, role: who.role, created: false, changes };
  });
}

/** A session begun through the provider, waiting for the console to exchange its one-time code. */
export async function saveSsoHandoff(
  db: Db,
  row: { userId: number; handoffHash: string; idToken: string; sid: string | null; expiresAt: Date },
): Promise<void> {
  await db.insert(ssoSessions).values(row);
  await db.delete(ssoSessions).where(lt(ssoSessions.expiresAt, new Date()));
}

/**
 * The user a one-time code was given for, taken once and within its time: the code is cleared and
 * the refresh token's jti recorded in its place (the session, for the provider's logout).
 */
export async function takeSsoHandoff(db: Db, handoffHash: string, refreshJti: string, expiresAt: Date): Promise<{ userId: number } | undefined> {
  const [row] = await db
    .update(ssoSessions)
    .set({ handoffHash: null, refreshJti, expiresAt })
    .where(and(eq(ssoSessions.handoffHash, handoffHash), gt(ssoSessions.createAt, new Date(Date.now() - handoffSeconds * 1000))))
    .returning({ userId: ssoSessions.userId });
  return row;
}

/** The provider's ID token of the session a refresh token belongs to (for its logout), if begun there. */
export async function ssoSessionOf(db: Db, refreshJti: string) {
  const [row] = await db
    .select({ idToken: ssoSessions.idToken })
    .from(ssoSessions)
    .where(and(eq(ssoSessions.refreshJti, refreshJti), isNotNull(ssoSessions.refreshJti)))
    .limit(1);
  return row;
}

export async function endSsoSession(db: Db, refreshJti: string): Promise<void> {
  await db.delete(ssoSessions).where(eq(ssoSessions.refreshJti, refreshJti));
}

/**
 * The provider's back-channel logout of the user with this subject: the refresh tokens of their
 * single sign-on sessions (and those sessions' access tokens) are refused from now on by their
 * ids, and every other token issued before now (a password session's) by the user's cutoff. The
 * logout token's id is kept until it expires: the same token again ends nothing (not the sessions
 * begun since).
 */
export async function revokeSessionsOfSubject(
  db: Db,
  logout: { subject: string; logoutTokenId: string; logoutTokenExpiresAt: Date; ip: string },
): Promise<'ended' | 'no such user' | 'seen before'> {
  return db.transaction(async (tx) => {
    const first = await tx
      .insert(revokedTokens)
      .values({ jti: `logout:${logout.logoutTokenId}`, expiresAt: logout.logoutTokenExpiresAt })
      .onConflictDoNothing()
      .returning({ jti: revokedTokens.jti });
    if (first.length === 0) return 'seen before';
    const [user] = await tx
      .update(users)
      .set({ sessionsRevokedAt: sql`greatest(${users.sessionsRevokedAt}, now())`, sessionsKeptId: null })
      .where(eq(users.oidcSubject, logout.subject))
      .returning({ id: users.id, email: users.email });
    if (!user) return 'no such user';
    const sessions = await tx
      .delete(ssoSessions)
      .where(and(eq(ssoSessions.userId, user.id), isNotNull(ssoSessions.refreshJti)))
      .returning({ jti: ssoSessions.refreshJti, expiresAt: ssoSessions.expiresAt });
    if (sessions.length) {
      await tx
        .insert(revokedTokens)
        .values(sessions.map((s) => ({ jti: s.jti!, expiresAt: s.expiresAt })))
        .onConflictDoNothing();
    }
    await tx.insert(auditLog).values({
      userId: user.id,
      action: 'sso_backchannel_logout',
      entity: 'session',
      entityId: user.email,
      ip: logout.ip,
      detail: `subject ${logout.subject}; ${sessions.length} single sign-on session${sessions.length === 1 ? '' : 's'} ended`,
    });
    return 'ended';
  });
}
