// The Users screen's data: accounts as admins manage them. Every change is written to
// the audit log in the same transaction, so a change and its record never part.
import { asc, eq, sql } from 'drizzle-orm';
import { auditLog } from '../audit/schema.ts';
import type { Db } from '../client.ts';
import { type UserRole, users } from './schema.ts';

const accountColumns = {
  id: users.id,
  email: users.email,
  role: users.role,
  is_active: users.isActive,
  must_change_password: users.mustChangePassword,
  last_login: users.lastLogin,
  create_at: users.createAt,
};

export type Account = {
  id: number;
  email: string;
  role: UserRole;
  is_active: boolean;
  must_change_password: boolean;
  last_login: Date | null;
  create_at: Date;
};

export async function listAccounts(db: Db): Promise<Account[]> {
  return db
    .select(accountColumns)
    .from(users)
    .orderBy(asc(sql`lower(${users.email})`));
}

/** The new account, or undefined when the email is taken (any case). */
export async function createAccount(db: Db, by: number, email: string, passwordHash: string, role: UserRole): Promise<Account | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(users).values({ email, passwordHash, role }).onConflictDoNothing().returning(accountColumns);
    if (!row) return undefined;
    await tx.insert(auditLog).values({ userId: by, action: 'create', entity: 'user', entityId: row.email, detail: `role ${role}` });
    return row;
  });
}

/** Role or active flag changed (what was given), or undefined when there is no such account. */
export async function changeAccount(
  db: Db,
  by: number,
  id: number,
  change: { role?: UserRole | undefined; isActive?: boolean | undefined },
): Promise<Account | undefined> {
  return db.transaction(async (tx) => {
    const set = { ...(change.role ? { role: change.role } : {}), ...(change.isActive === undefined ? {} : { isActive: change.isActive }) };
    const [row] = await tx.update(users).set(set).where(eq(users.id, id)).returning(accountColumns);
    if (!row) return undefined;
    const said = [change.role && `role ${change.role}`, change.isActive !== undefined && (change.isActive ? 'enabled' : 'disabled')].filter(Boolean).join(', ');
    await tx.insert(auditLog).values({ userId: by, action: 'change', entity: 'user', entityId: row.email, detail: said });
    return row;
  });
}

/**
 * A password an admin set for the user, who must choose their own at the next login; every
 * session of the user ends (audited).
 */
export async function resetAccountPassword(db: Db, by: number, id: number, passwordHash: string): Promise<Account | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({ passwordHash, mustChangePassword: true, sessionsRevokedAt: new Date(), sessionsKeptId: null })
      .where(eq(users.id, id))
      .returning(accountColumns);
    if (!row) return undefined;
    await tx.insert(auditLog).values({ userId: by, action: 'reset_password', entity: 'user', entityId: row.email, detail: 'every session ended' });
    return row;
  });
}
