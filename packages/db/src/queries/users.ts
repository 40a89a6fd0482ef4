import { and, eq, gt, lt, sql } from 'drizzle-orm';
import { loginFailures, users } from '../schema.ts';
import type { Db } from '../client.ts';

export async function findUserByEmail(db: Db, email: string) {
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1);
  return user;
}

export async function findActiveUser(db: Db, id: number) {
  const [user] = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(eq(users.id, id), eq(users.isActive, true)))
    .limit(1);
  return user;
}

export async function createUser(db: Db, email: string, passwordHash: string) {
  const [user] = await db
    .insert(users)
    .values({ email, passwordHash })
    .onConflictDoNothing()
    .returning({ id: users.id, email: users.email });
  return user;
}

export async function recordLogin(db: Db, id: number): Promise<void> {
  await db.update(users).set({ lastLogin: new Date() }).where(eq(users.id, id));
}

/** Seconds until the oldest failure in the window expires, or 0 when the caller may try again. */
export async function loginRetryAfter(
  db: Db,
  email: string,
  ip: string,
  maxFailures: number,
  windowMinutes: number,
): Promise<number> {
  const since = new Date(Date.now() - windowMinutes * 60_000);
  const waits = await Promise.all(
    [eq(loginFailures.email, email.toLowerCase()), eq(loginFailures.ip, ip)].map(async (who) => {
      const rows = await db
        .select({ at: loginFailures.at })
        .from(loginFailures)
        .where(and(who, gt(loginFailures.at, since)))
        .orderBy(sql`${loginFailures.at} desc`)
        .limit(maxFailures);
      if (rows.length < maxFailures) return 0;
      const oldest = rows[rows.length - 1]!.at.getTime();
      return Math.max(1, Math.ceil((oldest + windowMinutes * 60_000 - Date.now()) / 1000));
    }),
  );
  return Math.max(...waits);
}

export async function recordLoginFailure(db: Db, email: string, ip: string): Promise<void> {
  // Stored lower-cased, so the per-account count is an index range on (email, at).
  await db.insert(loginFailures).values({ email: email.toLowerCase().slice(0, 320), ip });
  // Old failures no longer count; prune them as we go so the table stays small.
  await db.delete(loginFailures).where(lt(loginFailures.at, new Date(Date.now() - 24 * 3600_000)));
}
