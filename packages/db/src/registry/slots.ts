// What the registry serves: each remote's current release and canary (remotes.json), and the
// operators a release failed to load for.
import { and, type AnyColumn, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { asRelease, endCanary, inCanaryShare, lockedCurrent, markRolledBack, releaseColumns, type RemoteRelease } from './releases.ts';
import { remoteCurrent, remoteLoadFailures, remoteReleases } from './schema.ts';

export interface RemoteSlot {
  name: string;
  /** failures: 0 unless asked for. */
  current: RemoteRelease & { failures: number };
  canary: (RemoteRelease & { failures: number; percent: number; since: Date }) | null;
}

/**
 * Every remote's current release and its canary; with `failures`, each with how many operators it
 * failed to load for (the Releases page: the shell's every page load asks without).
 */
export async function remoteSlots(db: Db, { failures: counted = false } = {}): Promise<RemoteSlot[]> {
  const failures = (id: AnyColumn) =>
    counted ? sql<number>`(select count(*)::int from ${remoteLoadFailures} where ${remoteLoadFailures.releaseId} = ${id})` : sql<number>`0`;
  const slots = await db
    .select({
      name: remoteCurrent.name,
      currentId: remoteCurrent.releaseId,
      canaryId: remoteCurrent.canaryReleaseId,
      percent: remoteCurrent.canaryPercent,
      since: remoteCurrent.canaryAt,
    })
    .from(remoteCurrent)
    .orderBy(remoteCurrent.name);
  const ids = slots.flatMap((s) => (s.canaryId ? [s.currentId, s.canaryId] : [s.currentId]));
  if (!ids.length) return [];
  const releases = new Map(
    (
      await db
        .select({ ...releaseColumns, failures: failures(remoteReleases.id) })
        .from(remoteReleases)
        .where(inArray(remoteReleases.id, ids))
    ).map(({ failures: n, ...row }) => [row.id, { ...asRelease(row), failures: n }]),
  );
  return slots.map((s) => ({
    name: s.name,
    current: releases.get(s.currentId)!,
    canary: s.canaryId ? { ...releases.get(s.canaryId)!, percent: s.percent!, since: s.since! } : null,
  }));
}

/**
 * An operator's report that a release failed to load (or threw at render), counted once per
 * operator, and only for the release the registry serves that operator now: a canary's from the
 * operators in its share, the current one's from the rest. Any other report is answered and not
 * counted (an operator outside a canary's share never loads it, so cannot say it fails). A canary
 * that as many operators as the threshold could not load rolls back by itself (audited): the next
 * page load of everyone in its share gets the current release again.
 */
export async function reportLoadFailure(
  db: Db,
  report: { name: string; version: string; userId: number },
  threshold: number,
): Promise<{ failures: number; rolledBack: boolean; counted: boolean } | undefined> {
  return db.transaction(async (tx) => {
    // The remote's row first, as every switch takes it: a report and a deploy never deadlock.
    const now = await lockedCurrent(tx, report.name);
    const [release] = await tx
      .select({ id: remoteReleases.id })
      .from(remoteReleases)
      .where(and(eq(remoteReleases.name, report.name), eq(remoteReleases.version, report.version)));
    if (!release) return undefined;
    const served = now && (now.canary && inCanaryShare(report.name, report.userId, now.canary.percent) ? now.canary.releaseId : now.releaseId);
    const counted = served === release.id;
    if (counted) await tx.insert(remoteLoadFailures).values({ releaseId: release.id, userId: report.userId }).onConflictDoNothing();
    const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(remoteLoadFailures).where(eq(remoteLoadFailures.releaseId, release.id));
    if (!counted || now?.canary?.releaseId !== release.id || n < threshold) return { failures: n, rolledBack: false, counted };
    await markRolledBack(tx, release.id);
    await endCanary(
      tx,
      report.name,
      `canary ${report.version} rolled back by itself: ${n} operators could not load it (threshold ${threshold}); ${now.version} for every operator`,
    );
    return { failures: n, rolledBack: true, counted };
  });
}
