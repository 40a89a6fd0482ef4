// The origins a remote's releases may come from (REMOTE_ORIGINS, and those admins add on Releases).
import { count, eq, sql } from 'drizzle-orm';
import { auditLog } from '../audit/schema.ts';
import { type Db, notifySql, releaseChannel } from '../client.ts';
import { users } from '../identity/schema.ts';
import { isUniqueViolation } from '../refusals.ts';
import { remoteOrigins } from './schema.ts';

/** An origin an admin allowed a remote's manifests and files to come from. */
export interface RemoteOriginRow {
  id: number;
  remote: string;
  origin: string;
  createdBy: string | null;
  createAt: Date;
}

/** Origins an admin may add per remote (each widens the console's CSP). */
export const maxRemoteOrigins = 20;

/** The origins admins allowed, by remote then origin. */
export async function listRemoteOrigins(db: Db): Promise<RemoteOriginRow[]> {
  return db
    .select({ id: remoteOrigins.id, remote: remoteOrigins.remote, origin: remoteOrigins.origin, createdBy: users.email, createAt: remoteOrigins.createAt })
    .from(remoteOrigins)
    .leftJoin(users, eq(users.id, remoteOrigins.createdBy))
    .orderBy(remoteOrigins.remote, remoteOrigins.origin);
}

export type OriginAdded = { ok: true; row: RemoteOriginRow } | { ok: false; status: 400 | 409; detail: string };

/** Allows a remote one more origin (audited); `origin` is a bare origin already (scheme://host[:port]). */
export async function addRemoteOrigin(db: Db, fields: { remote: string; origin: string }, by: number): Promise<OriginAdded> {
  try {
    return await db.transaction(async (tx): Promise<OriginAdded> => {
      // The limit under parallel adds: one at a time counts and inserts.
      await tx.execute(sql`select pg_advisory_xact_lock(727003)`);
      const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(remoteOrigins).where(eq(remoteOrigins.remote, fields.remote));
      if (n >= maxRemoteOrigins)
        return { ok: false, status: 400, detail: `${fields.remote} has ${maxRemoteOrigins} allowed origins, the most it may: remove one first.` };
      const [row] = await tx
        .insert(remoteOrigins)
        .values({ ...fields, createdBy: by })
        .returning({ id: remoteOrigins.id, createAt: remoteOrigins.createAt });
      await tx.insert(auditLog).values({ userId: by, action: 'allow', entity: 'remote_origin', entityId: fields.remote, detail: fields.origin });
      const [creator] = await tx.select({ email: users.email }).from(users).where(eq(users.id, by));
      return { ok: true, row: { id: row!.id, ...fields, createdBy: creator?.email ?? null, createAt: row!.createAt } };
    });
  } catch (err) {
    if (isUniqueViolation(err)) return { ok: false, status: 409, detail: `${fields.origin} is allowed for ${fields.remote} already.` };
    throw err;
  }
}

/**
 * Takes an origin away from a remote (audited): its releases there are refused at deploy and no
 * longer served. False when there is no such origin.
 */
export async function removeRemoteOrigin(db: Db, id: number, by: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx.delete(remoteOrigins).where(eq(remoteOrigins.id, id)).returning({ remote: remoteOrigins.remote, origin: remoteOrigins.origin });
    if (!row) return false;
    await tx.insert(auditLog).values({ userId: by, action: 'disallow', entity: 'remote_origin', entityId: row.remote, detail: row.origin });
    // Shells reading the registry hear of it: a release there is no longer served.
    await tx.execute(notifySql(releaseChannel, row.remote));
    return true;
  });
}
