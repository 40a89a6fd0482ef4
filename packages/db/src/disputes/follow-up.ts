// Who works a dispute and when they look at it again: an owner (an active account) and a
// follow-up day, set on one dispute or many at once, each change audited. The lists' "Mine" and
// "Follow up" filters read them (ej-records/filters.ts).
import { sql } from 'drizzle-orm';
import { auditLog } from '../audit/schema.ts';
import { type Db, queryRows } from '../client.ts';
import { RuleProblem } from '../refusals.ts';
import { type DisputeTarget, type Operator, pickedDisputes } from './status.ts';

/** What to set: an owner's account id or null (nobody), a day or null (none); what is left out stays. */
export interface FollowUpChange {
  ownerId?: number | null | undefined;
  followUpOn?: string | null | undefined;
}

/** The accounts a dispute can be given to: the active ones, by email. */
export async function disputeOwners(db: Db): Promise<{ id: number; email: string }[]> {
  return queryRows(db, sql`select id, email from users where is_active order by lower(email)`);
}

/**
 * Sets the owner and/or follow-up day of the target's disputes, in one statement and one audit
 * entry; the ids changed, in id order. A RuleProblem (nothing changed) when the owner is no
 * active account or nothing is asked.
 */
export async function setFollowUp(db: Db, target: DisputeTarget, change: FollowUpChange, by: Operator): Promise<number[]> {
  const setOwner = change.ownerId !== undefined;
  const setDay = change.followUpOn !== undefined;
  if (!setOwner && !setDay) throw new RuleProblem('body: give owner_id, follow_up_on, or both');
  return db.transaction(async (trx) => {
    const tx = trx as unknown as Db;
    let owner: string | null = null;
    if (change.ownerId !== undefined && change.ownerId !== null) {
      // Locked, so the account cannot be switched off between this check and the update.
      const [account] = await queryRows<{ email: string }>(tx, sql`select email from users where id = ${change.ownerId} and is_active for share`);
      if (!account) throw new RuleProblem(`owner_id: no active account has the id ${change.ownerId}`);
      owner = account.email;
    }
    const changed = await queryRows<{ id: string | number }>(
      tx,
      sql`update disputes set
            owner_id = ${setOwner ? sql`${change.ownerId ?? null}::int` : sql`owner_id`},
            follow_up_on = ${setDay ? sql`${change.followUpOn ?? null}::date` : sql`follow_up_on`},
            update_at = now()
          where id in (${pickedDisputes(target)}) returning id`,
    );
    const ids = changed.map((r) => Number(r.id)).sort((a, b) => a - b);
    if (ids.length === 0) return ids;
    const said = [
      setOwner ? `owner ${owner ?? 'nobody'}` : null,
      setDay ? `follow up ${change.followUpOn ? `on ${change.followUpOn}` : 'on no day'}` : null,
    ].filter(Boolean);
    await tx.insert(auditLog).values({
      userId: by.id,
      action: 'follow_up',
      entity: 'dispute',
      entityId: ids.length === 1 ? String(ids[0]) : null,
      detail: `${ids.length === 1 ? `dispute ${ids[0]}` : `${ids.length} disputes`}: ${said.join(', ')}`,
    });
    return ids;
  });
}
