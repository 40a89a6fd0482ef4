// The status from an operator: checked, applied to one dispute or many, audited and told.
import { sql, type SQL } from 'drizzle-orm';
import { auditLog } from '../audit/schema.ts';
import { type Db, mailChannel, notifySql, queryRows } from '../client.ts';
import { RuleProblem } from '../refusals.ts';
import { type DisputeOutcome, disputeOutcomes, type DisputeStatus, disputeStatuses } from './schema.ts';
import { refreshDisputeClocks } from './tat-rules.ts';

export interface StatusChange {
  status: DisputeStatus;
  outcome: DisputeOutcome | null;
  note: string;
}

/** The checked status change, or a RuleProblem: an outcome with resolved (only), a note. */
export function checkStatusChange(value: { status?: unknown; outcome?: unknown; note?: unknown }): StatusChange {
  const status = value.status as DisputeStatus;
  if (!disputeStatuses.includes(status)) throw new RuleProblem(`status must be one of ${disputeStatuses.join(', ')}`);
  const outcome = (value.outcome ?? null) as DisputeOutcome | null;
  if (status === 'resolved' && !disputeOutcomes.includes(outcome as DisputeOutcome))
    throw new RuleProblem(`outcome must be one of ${disputeOutcomes.join(', ')} when the status is resolved`);
  if (status !== 'resolved' && outcome !== null) throw new RuleProblem('outcome is given only when the status is resolved');
  const note = typeof value.note === 'string' ? value.note.trim() : '';
  if (!note || note.length > 2000) throw new RuleProblem('note must say why, in 1 to 2000 characters');
  return { status, outcome, note };
}

export interface Operator {
  id: number;
  email: string;
}

/** Disputes picked by their ids, or by a filter's `where` (a select of dispute ids). */
export type DisputeTarget = { ids: number[] } | { where: SQL };

/** The target as a select of dispute ids, for `id in (...)`. */
export const pickedDisputes = (target: DisputeTarget): SQL => ('ids' in target ? sql`select unnest(${sql.param(target.ids)}::bigint[])` : target.where);

/**
 * Set the status of disputes (the ids, or those `where` picks, in one statement), as an operator:
 * each changed row gets a history event, the change one audit entry, and a dispute opened again
 * gets its clock back from the rules. Rows are locked in id order, so parallel changes of one
 * dispute queue one behind the other and the history stays in the order they were made.
 */
export async function setDisputeStatus(db: Db, target: DisputeTarget, change: StatusChange, by: Operator, today: string): Promise<number[]> {
  return db.transaction(async (trx) => {
    const tx = trx as unknown as Db;
    const picked = pickedDisputes(target);
    const changed = await queryRows<{ id: string | number }>(
      tx,
      sql`with locked as (select id from disputes where id in (${picked}) order by id for update),
          changed as (
            update disputes d set status = ${change.status}, outcome = ${change.outcome}::text,
              stopped_on = ${change.status === 'resolved' ? sql`coalesce(case when d.status = 'resolved' then d.stopped_on end, ${today}::date)` : sql`null::date`},
              status_source = 'operator', status_reason = ${change.note}, status_by = ${by.email}, status_at = now(), update_at = now()
            from locked where d.id = locked.id
            returning d.id
          ),
          events as (
            insert into dispute_events (dispute_id, source, user_id, actor, status, outcome, note)
            select id, 'operator', ${by.id}::int, ${by.email}, ${change.status}, ${change.outcome}::text, ${change.note} from changed
          )
          select id from changed order by id`,
    );
    const ids = changed.map((r) => Number(r.id));
    if (ids.length === 0) return ids;
    await tx.insert(auditLog).values({
      userId: by.id,
      action: 'status',
      entity: 'dispute',
      entityId: ids.length === 1 ? String(ids[0]) : null,
      detail: `${ids.length === 1 ? `dispute ${ids[0]}` : `${ids.length} disputes`} set to ${change.status}${change.outcome ? ` (${change.outcome})` : ''}: ${change.note}`,
    });
    if (change.status !== 'resolved') await refreshDisputeClocks(tx, ids);
    // The open dashboards count again (the ageing card, the breached count), as after new mail.
    await tx.execute(notifySql(mailChannel));
    return ids;
  });
}
