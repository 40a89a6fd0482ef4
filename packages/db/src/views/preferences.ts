// An operator's console choices, one JSON value per key (see userPreferences in schema.ts).
import { and, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { users } from '../identity/schema.ts';
import { userPreferences } from './schema.ts';

/** How many keys one operator may keep: enough for every table, too few to fill the disk. */
export const preferenceLimit = 50;

export async function getPreference(db: Db, userId: number, key: string) {
  const [row] = await db
    .select({ value: userPreferences.value, update_at: userPreferences.updateAt })
    .from(userPreferences)
    .where(and(eq(userPreferences.userId, userId), eq(userPreferences.key, key)));
  return row;
}

/**
 * Stores the value; 'full' when it is a new key and the operator already keeps the most allowed.
 * The operator's row is locked first, so parallel saves of new keys cannot pass the limit together.
 */
export async function savePreference(db: Db, userId: number, key: string, value: unknown) {
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const [{ kept } = { kept: 0 }] = await tx
      .select({ kept: count() })
      .from(userPreferences)
      .where(and(eq(userPreferences.userId, userId), sql`${userPreferences.key} <> ${key}`));
    if (kept >= preferenceLimit) return 'full' as const;
    const [row] = await tx
      .insert(userPreferences)
      .values({ userId, key, value })
      .onConflictDoUpdate({ target: [userPreferences.userId, userPreferences.key], set: { value, updateAt: sql`now()` } })
      .returning({ value: userPreferences.value, update_at: userPreferences.updateAt });
    return row!;
  });
}

/** True when there was a value to forget. */
export async function deletePreference(db: Db, userId: number, key: string) {
  const rows = await db
    .delete(userPreferences)
    .where(and(eq(userPreferences.userId, userId), eq(userPreferences.key, key)))
    .returning({ key: userPreferences.key });
  return rows.length > 0;
}
