// The remote registry: which release of each remote the shell loads, and every release
// deployed. Deploy and rollback each switch remote_current in one transaction with its audit row,
// so every shell server reading the registry sees the old release or the new, never a mix.
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { auditLog, remoteCurrent, remoteReleases } from '../schema.ts';
import { isUniqueViolation } from './rules.ts';

export interface RemoteRelease {
  name: string;
  version: string;
  manifest: string;
  descriptor: Record<string, unknown>;
  deployedBy: string;
  deployedAt: Date;
}

const releaseColumns = {
  id: remoteReleases.id,
  name: remoteReleases.name,
  version: remoteReleases.version,
  manifest: remoteReleases.manifest,
  descriptor: remoteReleases.descriptor,
  deployedBy: remoteReleases.deployedBy,
  deployedAt: remoteReleases.deployedAt,
};

const asRelease = ({ id: _id, descriptor, ...row }: { id: number; descriptor: unknown } & Omit<RemoteRelease, 'descriptor'>): RemoteRelease => ({
  ...row,
  descriptor: descriptor as Record<string, unknown>,
});

/** The release the shell loads now, for every remote that has one. */
export async function currentRemotes(db: Db): Promise<RemoteRelease[]> {
  const rows = await db
    .select(releaseColumns)
    .from(remoteCurrent)
    .innerJoin(remoteReleases, eq(remoteReleases.id, remoteCurrent.releaseId))
    .orderBy(remoteReleases.name);
  return rows.map(asRelease);
}

/** Every release, newest first (of one remote, or of all), marking the current ones. */
export async function remoteHistory(db: Db, name?: string): Promise<(RemoteRelease & { current: boolean })[]> {
  const rows = await db
    .select({ ...releaseColumns, current: sql<boolean>`${remoteCurrent.releaseId} is not null` })
    .from(remoteReleases)
    .leftJoin(remoteCurrent, eq(remoteCurrent.releaseId, remoteReleases.id))
    .where(name ? eq(remoteReleases.name, name) : undefined)
    .orderBy(remoteReleases.name, desc(remoteReleases.id));
  return rows.map(({ current, ...row }) => ({ ...asRelease(row), current }));
}

export type Switched = { ok: true; from: string | null; to: string } | { ok: false; detail: string };

/**
 * The current release of a remote, its row locked until the transaction ends (one switch at a
 * time). Locked alone, then read: a locking read joined to the releases would, after waiting for
 * another switch, re-check the join against the old release and find nothing.
 */
async function lockedCurrent(tx: Db, name: string) {
  const [locked] = await tx.select({ releaseId: remoteCurrent.releaseId }).from(remoteCurrent).where(eq(remoteCurrent.name, name)).for('update');
  if (!locked) return undefined;
  const [release] = await tx.select({ version: remoteReleases.version }).from(remoteReleases).where(eq(remoteReleases.id, locked.releaseId));
  return { releaseId: locked.releaseId, version: release!.version };
}

async function point(tx: Db, name: string, releaseId: number, action: 'deploy' | 'rollback', detail: string): Promise<void> {
  await tx
    .insert(remoteCurrent)
    .values({ name, releaseId })
    .onConflictDoUpdate({ target: remoteCurrent.name, set: { releaseId, updateAt: sql`now()` } });
  await tx.insert(auditLog).values({ userId: null, action, entity: 'remote', entityId: name, detail });
}

/**
 * Records a release already checked by the deployer and makes it current; the audit row names the
 * deploy token that asked. A version is deployed
 * once: the same name and version again is refused (a release never changes under open pages).
 */
export async function deployRemote(db: Db, release: Omit<RemoteRelease, 'deployedAt'>, token: string): Promise<Switched> {
  try {
    return await db.transaction(async (tx) => {
      const before = await lockedCurrent(tx, release.name);
      const [row] = await tx.insert(remoteReleases).values(release).returning({ id: remoteReleases.id });
      await point(tx, release.name, row!.id, 'deploy', `${before?.version ?? 'none'} -> ${release.version} by ${release.deployedBy} with the token ${token}`);
      return { ok: true as const, from: before?.version ?? null, to: release.version };
    });
  } catch (err) {
    if (isUniqueViolation(err)) return { ok: false, detail: `${release.name} ${release.version} is already deployed: give the new build a new version` };
    throw err;
  }
}

/** Makes the release deployed before the current one current again. */
export async function rollbackRemote(db: Db, name: string, by: string, token: string): Promise<Switched> {
  return db.transaction(async (tx) => {
    const now = await lockedCurrent(tx, name);
    if (!now) return { ok: false as const, detail: `${name} has no release deployed` };
    const [previous] = await tx
      .select({ id: remoteReleases.id, version: remoteReleases.version })
      .from(remoteReleases)
      .where(and(eq(remoteReleases.name, name), lt(remoteReleases.id, now.releaseId)))
      .orderBy(desc(remoteReleases.id))
      .limit(1);
    if (!previous) return { ok: false as const, detail: `${name} ${now.version} is its first release: there is nothing to roll back to` };
    await point(tx, name, previous.id, 'rollback', `${now.version} -> ${previous.version} by ${by} with the token ${token}`);
    return { ok: true as const, from: now.version, to: previous.version };
  });
}
