// Saved views of the lists (savedViews in schema.ts): an operator's own, and those an admin shared.
// Every write locks the owner's user row first, so parallel saves cannot pass the limit or take one
// name twice, and a view's default moves with it in the same transaction.
import { and, count, eq, or, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { users } from '../identity/schema.ts';
import { savedViewDefaults, savedViews } from './schema.ts';

/** How many views one operator may keep over all lists: a working set, not an archive. */
export const viewLimit = 50;

export interface ViewInput {
  name: string;
  query: string;
  columns?: unknown;
  shared?: boolean;
  default?: boolean;
}

/** Who asks: the owner of what they save; an admin may also share, and change what is shared. */
export interface ViewAsker {
  id: number;
  admin: boolean;
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

function viewSelect(userId: number) {
  return {
    id: savedViews.id,
    list: savedViews.list,
    name: savedViews.name,
    query: savedViews.query,
    columns: savedViews.columns,
    shared: savedViews.shared,
    default: sql<boolean>`(${savedViewDefaults.viewId} is not null)`,
    mine: sql<boolean>`(${savedViews.userId} = ${userId})`,
    owner: users.email,
    create_at: savedViews.createAt,
    update_at: savedViews.updateAt,
  };
}

async function readView(db: Db | Tx, userId: number, id: number) {
  const [row] = await db
    .select(viewSelect(userId))
    .from(savedViews)
    .innerJoin(users, eq(users.id, savedViews.userId))
    .leftJoin(savedViewDefaults, and(eq(savedViewDefaults.viewId, savedViews.id), eq(savedViewDefaults.userId, userId)))
    .where(eq(savedViews.id, id));
  return row;
}

/** The list's views the operator may open: their own, then the shared ones, each by name. */
export async function listViews(db: Db, userId: number, list: string) {
  return db
    .select(viewSelect(userId))
    .from(savedViews)
    .innerJoin(users, eq(users.id, savedViews.userId))
    .leftJoin(savedViewDefaults, and(eq(savedViewDefaults.viewId, savedViews.id), eq(savedViewDefaults.userId, userId)))
    .where(and(eq(savedViews.list, list), or(eq(savedViews.userId, userId), eq(savedViews.shared, true))))
    .orderBy(sql`${savedViews.userId} <> ${userId}`, savedViews.name, savedViews.id);
}

async function lockUser(tx: Tx, userId: number) {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}

async function nameTaken(tx: Tx, userId: number, list: string, name: string, except?: number) {
  const [row] = await tx
    .select({ id: savedViews.id })
    .from(savedViews)
    .where(and(eq(savedViews.userId, userId), eq(savedViews.list, list), eq(savedViews.name, name), except ? sql`${savedViews.id} <> ${except}` : undefined));
  return row !== undefined;
}

/** Makes the view the asker's default for its list (true), or stops it being so (false). */
async function setDefault(tx: Tx, userId: number, list: string, viewId: number, on: boolean) {
  if (on) {
    await tx
      .insert(savedViewDefaults)
      .values({ userId, list, viewId })
      .onConflictDoUpdate({ target: [savedViewDefaults.userId, savedViewDefaults.list], set: { viewId } });
  } else {
    await tx.delete(savedViewDefaults).where(and(eq(savedViewDefaults.userId, userId), eq(savedViewDefaults.viewId, viewId)));
  }
}

export type ViewRefusal = 'full' | 'taken' | 'not-admin' | 'missing' | 'not-yours';

export async function createView(db: Db, asker: ViewAsker, list: string, input: ViewInput) {
  if (input.shared && !asker.admin) return 'not-admin' as const;
  return db.transaction(async (tx) => {
    await lockUser(tx, asker.id);
    const [{ kept } = { kept: 0 }] = await tx.select({ kept: count() }).from(savedViews).where(eq(savedViews.userId, asker.id));
    if (kept >= viewLimit) return 'full' as const;
    if (await nameTaken(tx, asker.id, list, input.name)) return 'taken' as const;
    const [row] = await tx
      .insert(savedViews)
      .values({ userId: asker.id, list, name: input.name, query: input.query, columns: input.columns ?? null, shared: input.shared ?? false })
      .returning({ id: savedViews.id });
    if (input.default) await setDefault(tx, asker.id, list, row!.id, true);
    return (await readView(tx, asker.id, row!.id))!;
  });
}

/**
 * Replaces a view's name, query, columns (and sharing). The owner may; an admin may change a shared
 * one. Unsharing takes it off the other operators' defaults: they can no longer open it.
 */
export async function changeView(db: Db, asker: ViewAsker, id: number, input: ViewInput) {
  if (input.shared && !asker.admin) return 'not-admin' as const;
  return db.transaction(async (tx) => {
    const [found] = await tx.select({ userId: savedViews.userId }).from(savedViews).where(eq(savedViews.id, id));
    if (!found) return 'missing' as const;
    await lockUser(tx, found.userId);
    const [view] = await tx.select().from(savedViews).where(eq(savedViews.id, id)).for('update');
    if (!view) return 'missing' as const; // deleted while we waited for the lock
    const mine = view.userId === asker.id;
    if (!mine && !(view.shared && asker.admin)) return view.shared ? ('not-yours' as const) : ('missing' as const);
    if (await nameTaken(tx, view.userId, view.list, input.name, id)) return 'taken' as const;
    const shared = input.shared ?? view.shared;
    await tx
      .update(savedViews)
      .set({ name: input.name, query: input.query, columns: input.columns === undefined ? view.columns : input.columns, shared, updateAt: sql`now()` })
      .where(eq(savedViews.id, id));
    if (!shared) await tx.delete(savedViewDefaults).where(and(eq(savedViewDefaults.viewId, id), sql`${savedViewDefaults.userId} <> ${view.userId}`));
    if (input.default !== undefined) await setDefault(tx, asker.id, view.list, id, input.default);
    return (await readView(tx, asker.id, id))!;
  });
}

/** Deletes a view: its owner may, and an admin a shared one. Defaults on it go with it. */
export async function deleteView(db: Db, asker: ViewAsker, id: number) {
  const [view] = await db.select({ userId: savedViews.userId, shared: savedViews.shared }).from(savedViews).where(eq(savedViews.id, id));
  if (!view || (view.userId !== asker.id && !view.shared)) return 'missing' as const;
  if (view.userId !== asker.id && !asker.admin) return 'not-yours' as const;
  const deleted = await db.delete(savedViews).where(eq(savedViews.id, id)).returning({ id: savedViews.id });
  return deleted.length > 0 ? ('deleted' as const) : ('missing' as const);
}

/** Makes any view the operator can open (their own or a shared one) their default, or not. */
export async function chooseDefaultView(db: Db, userId: number, id: number, on: boolean) {
  return db.transaction(async (tx) => {
    // The view's row is locked so an unsharing in parallel cannot leave a default it would remove.
    const [view] = await tx
      .select({ list: savedViews.list, userId: savedViews.userId, shared: savedViews.shared })
      .from(savedViews)
      .where(eq(savedViews.id, id))
      .for('share');
    if (!view || (view.userId !== userId && !view.shared)) return 'missing' as const;
    await setDefault(tx, userId, view.list, id, on);
    return (await readView(tx, userId, id))!;
  });
}
