// The remote registry: which release of each remote the shell loads, and every release
// deployed. Deploy and rollback each switch remote_current in one transaction with its audit row,
// so every shell server reading the registry sees the old release or the new, never a mix.
import { and, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import { auditLog } from '../audit/schema.ts';
import { type Db, notifySql, releaseChannel } from '../client.ts';
import { isUniqueViolation } from '../refusals.ts';
import { remoteCurrent, remoteReleases } from './schema.ts';

export interface RemoteRelease {
  name: string;
  version: string;
  manifest: string;
  descriptor: Record<string, unknown>;
  deployedBy: string;
  deployedAt: Date;
  /** The entry script and the SHA-384 (SRI form) of it and of the manifest; null before the API pinned them. */
  entry: string | null;
  entryIntegrity: string | null;
  manifestIntegrity: string | null;
}
/** A release as a deploy records it: what the API fetched and checked. */
export type NewRelease = Omit<RemoteRelease, 'deployedAt' | 'entry' | 'entryIntegrity' | 'manifestIntegrity'> &
  Partial<Pick<RemoteRelease, 'entry' | 'entryIntegrity' | 'manifestIntegrity'>>;

export const releaseColumns = {
  id: remoteReleases.id,
  name: remoteReleases.name,
  version: remoteReleases.version,
  manifest: remoteReleases.manifest,
  descriptor: remoteReleases.descriptor,
  deployedBy: remoteReleases.deployedBy,
  deployedAt: remoteReleases.deployedAt,
  entry: remoteReleases.entry,
  entryIntegrity: remoteReleases.entryIntegrity,
  manifestIntegrity: remoteReleases.manifestIntegrity,
};

export const asRelease = ({ id: _id, descriptor, ...row }: { id: number; descriptor: unknown } & Omit<RemoteRelease, 'descriptor'>): RemoteRelease => ({
  ...row,
  descriptor: descriptor as Record<string, unknown>,
});

/**
 * Every release, newest first (of one remote, or of all), marking the current ones and the
 * canaries, the withdrawn ones and those rolled back from.
 */
export async function remoteHistory(
  db: Db,
  name?: string,
): Promise<(RemoteRelease & { current: boolean; canary: boolean; withdrawn: boolean; rolledBack: boolean })[]> {
  const rows = await db
    .select({
      ...releaseColumns,
      current: sql<boolean>`${remoteCurrent.releaseId} is not null`,
      canary: sql<boolean>`exists (select 1 from remote_current c where c.canary_release_id = ${remoteReleases.id})`,
      withdrawn: sql<boolean>`${remoteReleases.withdrawnAt} is not null`,
      rolledBack: sql<boolean>`${remoteReleases.rolledBackAt} is not null`,
    })
    .from(remoteReleases)
    .leftJoin(remoteCurrent, eq(remoteCurrent.releaseId, remoteReleases.id))
    .where(name ? eq(remoteReleases.name, name) : undefined)
    .orderBy(remoteReleases.name, desc(remoteReleases.id));
  return rows.map(({ current, canary, withdrawn, rolledBack, ...row }) => ({ ...asRelease(row), current, canary, withdrawn, rolledBack }));
}

/** Whether the registry may serve a release at this manifest URL (its remote's allowed origins); every one by default. */
export type Servable = (name: string, manifest: string, entry: string | null) => boolean;
const anyRelease: Servable = () => true;

export type Switched = { ok: true; from: string | null; to: string } | { ok: false; detail: string };

/**
 * The current release of a remote, its row locked until the transaction ends (one switch at a
 * time). Locked alone, then read: a locking read joined to the releases would, after waiting for
 * another switch, re-check the join against the old release and find nothing.
 */
export async function lockedCurrent(tx: Db, name: string) {
  const [locked] = await tx
    .select({ releaseId: remoteCurrent.releaseId, canaryReleaseId: remoteCurrent.canaryReleaseId, canaryPercent: remoteCurrent.canaryPercent })
    .from(remoteCurrent)
    .where(eq(remoteCurrent.name, name))
    .for('update');
  if (!locked) return undefined;
  const versionOf = async (id: number) =>
    (await tx.select({ version: remoteReleases.version }).from(remoteReleases).where(eq(remoteReleases.id, id)))[0]!.version;
  return {
    releaseId: locked.releaseId,
    version: await versionOf(locked.releaseId),
    canary: locked.canaryReleaseId
      ? { releaseId: locked.canaryReleaseId, version: await versionOf(locked.canaryReleaseId), percent: locked.canaryPercent! }
      : null,
  };
}

const noCanary = { canaryReleaseId: null, canaryPercent: null, canaryAt: null };
const canaryRunning = (name: string, version: string) =>
  ({ ok: false, detail: `${name} ${version} is a canary now: promote it or roll it back first` }) as const;

async function point(tx: Db, name: string, releaseId: number, action: 'deploy' | 'rollback' | 'promote' | 'withdraw', detail: string): Promise<void> {
  await tx
    .insert(remoteCurrent)
    .values({ name, releaseId })
    .onConflictDoUpdate({ target: remoteCurrent.name, set: { releaseId, updateAt: sql`now()`, ...noCanary } });
  await tx.insert(auditLog).values({ userId: null, action, entity: 'remote', entityId: name, detail });
  await tx.execute(notifySql(releaseChannel, name));
}

/**
 * Records a release the API checked and makes it current (or a canary); the audit row names the
 * deploy token that asked, the manifest and the hashes pinned. A version is deployed once: the
 * same name and version again is refused (a release never changes under open pages).
 */
export async function deployRemote(db: Db, release: NewRelease, token: string, canaryPercent?: number): Promise<Switched> {
  try {
    return await db.transaction(async (tx): Promise<Switched> => {
      const before = await lockedCurrent(tx, release.name);
      if (before?.canary) return canaryRunning(release.name, before.canary.version);
      if (canaryPercent !== undefined && !before)
        return { ok: false, detail: `${release.name} has no release yet: its first one goes to every operator (deploy it without --canary)` };
      const [row] = await tx.insert(remoteReleases).values(release).returning({ id: remoteReleases.id });
      // What was deployed, as the API fetched it: the audit line alone says which files were pinned.
      const pinned = release.entry
        ? `; manifest ${release.manifest} ${release.manifestIntegrity}, entry ${release.entry} ${release.entryIntegrity}`
        : `; manifest ${release.manifest}`;
      const by = `by ${release.deployedBy} with the token ${token}${pinned}`;
      if (canaryPercent !== undefined && before) {
        await tx
          .update(remoteCurrent)
          .set({ canaryReleaseId: row!.id, canaryPercent, canaryAt: sql`now()` })
          .where(eq(remoteCurrent.name, release.name));
        await tx.insert(auditLog).values({
          action: 'deploy',
          entity: 'remote',
          entityId: release.name,
          detail: `${before.version} -> ${release.version} for ${canaryPercent}% of operators (canary) ${by}`,
        });
        await tx.execute(notifySql(releaseChannel, release.name));
      } else await point(tx, release.name, row!.id, 'deploy', `${before?.version ?? 'none'} -> ${release.version} ${by}`);
      return { ok: true, from: before?.version ?? null, to: release.version };
    });
  } catch (err) {
    if (isUniqueViolation(err)) return { ok: false, detail: `${release.name} ${release.version} is already deployed: give the new build a new version` };
    throw err;
  }
}

/**
 * The newest release of a remote deployed before `beforeId` that a rollback may return to: not
 * withdrawn, never rolled back from, and servable (on its remote's allowed origins).
 */
async function previousGood(tx: Db, name: string, beforeId: number, servable: Servable) {
  const earlier = await tx
    .select({ id: remoteReleases.id, version: remoteReleases.version, manifest: remoteReleases.manifest, entry: remoteReleases.entry })
    .from(remoteReleases)
    .where(and(eq(remoteReleases.name, name), lt(remoteReleases.id, beforeId), isNull(remoteReleases.withdrawnAt), isNull(remoteReleases.rolledBackAt)))
    .orderBy(desc(remoteReleases.id));
  return { any: earlier.length > 0, good: earlier.find((r) => servable(name, r.manifest, r.entry)) };
}

export const markRolledBack = (tx: Db, id: number) =>
  tx
    .update(remoteReleases)
    .set({ rolledBackAt: sql`now()` })
    .where(eq(remoteReleases.id, id));

/**
 * Makes the release deployed before the current one current again, passing over the withdrawn
 * ones, the ones rolled back from and those off the remote's allowed origins; the current one is
 * marked rolled back from, so a later rollback never returns to it (v1, v2 rolled back to v1, v3
 * rolled back: v1 again, not v2). During a canary, it ends the canary instead.
 */
export async function rollbackRemote(db: Db, name: string, by: string, token: string, servable: Servable = anyRelease): Promise<Switched> {
  return db.transaction(async (tx) => {
    const now = await lockedCurrent(tx, name);
    if (!now) return { ok: false as const, detail: `${name} has no release deployed` };
    // During a canary, a rollback ends it: every operator is on the current release again.
    if (now.canary) {
      await markRolledBack(tx, now.canary.releaseId);
      await endCanary(tx, name, `canary ${now.canary.version} ended, ${now.version} for every operator, by ${by} with the token ${token}`);
      return { ok: true as const, from: now.canary.version, to: now.version };
    }
    const previous = await previousGood(tx, name, now.releaseId, servable);
    if (!previous.good) {
      const earlier = await tx
        .select({ id: remoteReleases.id })
        .from(remoteReleases)
        .where(and(eq(remoteReleases.name, name), lt(remoteReleases.id, now.releaseId)))
        .limit(1);
      return {
        ok: false as const,
        detail: earlier.length
          ? `${name} ${now.version} has no earlier release to roll back to: each was withdrawn, rolled back from, or is off the remote's allowed origins`
          : `${name} ${now.version} is its first release: there is nothing to roll back to`,
      };
    }
    await markRolledBack(tx, now.releaseId);
    await point(tx, name, previous.good.id, 'rollback', `${now.version} -> ${previous.good.version} by ${by} with the token ${token}`);
    return { ok: true as const, from: now.version, to: previous.good.version };
  });
}

export async function endCanary(tx: Db, name: string, detail: string, userId: number | null = null, action = 'rollback'): Promise<void> {
  await tx.update(remoteCurrent).set(noCanary).where(eq(remoteCurrent.name, name));
  await tx.insert(auditLog).values({ userId, action, entity: 'remote', entityId: name, detail });
  await tx.execute(notifySql(releaseChannel, name));
}

export type Withdrawn = { ok: true; version: string; current: string | null } | { ok: false; status: 404 | 409; detail: string };

/**
 * Withdraws a release: it is never served or returned to again. The current one is replaced by the
 * newest good release before it (none: the remote is left out of remotes.json until its next
 * deploy); a canary ends. Published files stay, for pages that have it open.
 */
export async function withdrawRelease(
  db: Db,
  release: { name: string; version: string },
  by: string,
  token: string,
  servable: Servable = anyRelease,
): Promise<Withdrawn> {
  const { name, version } = release;
  return db.transaction(async (tx): Promise<Withdrawn> => {
    const now = await lockedCurrent(tx, name);
    const [row] = await tx
      .select({ id: remoteReleases.id, withdrawnAt: remoteReleases.withdrawnAt })
      .from(remoteReleases)
      .where(and(eq(remoteReleases.name, name), eq(remoteReleases.version, version)));
    if (!row) return { ok: false, status: 404, detail: `${name} has no release ${version}` };
    if (row.withdrawnAt) return { ok: false, status: 409, detail: `${name} ${version} is withdrawn already` };
    await tx
      .update(remoteReleases)
      .set({ withdrawnAt: sql`now()` })
      .where(eq(remoteReleases.id, row.id));
    const who = `by ${by} with the token ${token}`;
    if (now?.canary?.releaseId === row.id) {
      await endCanary(tx, name, `${version} withdrawn: the canary ended, ${now.version} for every operator, ${who}`, null, 'withdraw');
      return { ok: true, version, current: now.version };
    }
    if (now?.releaseId === row.id) {
      const previous = await previousGood(tx, name, row.id, servable);
      if (previous.good) {
        await point(tx, name, previous.good.id, 'withdraw', `${version} withdrawn: ${version} -> ${previous.good.version} ${who}`);
        return { ok: true, version, current: previous.good.version };
      }
      // Nothing earlier to serve: the remote leaves remotes.json (its canary too) until its next deploy.
      await tx.delete(remoteCurrent).where(eq(remoteCurrent.name, name));
      await tx
        .insert(auditLog)
        .values({ action: 'withdraw', entity: 'remote', entityId: name, detail: `${version} withdrawn: no release of ${name} is served now ${who}` });
      await tx.execute(notifySql(releaseChannel, name));
      return { ok: true, version, current: null };
    }
    await tx.insert(auditLog).values({ action: 'withdraw', entity: 'remote', entityId: name, detail: `${version} withdrawn ${who}` });
    return { ok: true, version, current: now?.version ?? null };
  });
}

/** Makes a remote's canary the current release for every operator. */
export async function promoteRemote(db: Db, name: string, by: string, token: string, servable: Servable = anyRelease): Promise<Switched> {
  return db.transaction(async (tx) => {
    const now = await lockedCurrent(tx, name);
    if (!now?.canary) return { ok: false as const, detail: `${name} has no canary to promote` };
    const [canary] = await tx
      .select({ manifest: remoteReleases.manifest, entry: remoteReleases.entry })
      .from(remoteReleases)
      .where(eq(remoteReleases.id, now.canary.releaseId));
    if (!servable(name, canary!.manifest, canary!.entry))
      return { ok: false as const, detail: `${name} ${now.canary.version} is off the remote's allowed origins: it cannot be promoted` };
    await point(
      tx,
      name,
      now.canary.releaseId,
      'promote',
      `${now.version} -> ${now.canary.version} for every operator (was ${now.canary.percent}%) by ${by} with the token ${token}`,
    );
    return { ok: true as const, from: now.version, to: now.canary.version };
  });
}

/**
 * Whether an operator is in a remote's canary share: a hash of the remote and the operator, so the
 * same operators get each canary of that remote (an operator never flips between releases on
 * reloads) and the shares of different remotes are independent.
 */
export function inCanaryShare(name: string, userId: number, percent: number): boolean {
  return createHash('sha256').update(`${name}:${userId}`).digest().readUInt32BE(0) % 100 < percent;
}
