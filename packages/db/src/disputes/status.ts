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

/** How long its maker may undo a status change (the console offers it for ten seconds). */
export const undoMinutes = 10;

export interface StatusChanged {
  /** The disputes whose status was set, in id order. */
  ids: number[];
  /** The change, to undo it; null when no dispute matched. */
  changeId: number | null;
}

/**
 * Set the status of disputes (the ids, or those `where` picks, in one statement), as an operator:
 * each changed row gets a history event, the change one audit entry, and a dispute opened again
 * gets its clock back from the rules. Rows are locked in id order, so parallel changes of one
 * dispute queue one behind the other and the history stays in the order they were made. What each
 * status was before is kept (dispute_status_previous) for its maker to undo the change.
 */
export async function setDisputeStatus(db: Db, target: DisputeTarget, change: StatusChange, by: Operator, today: string): Promise<StatusChanged> {
  return db.transaction(async (trx) => {
    const tx = trx as unknown as Db;
    const picked = pickedDisputes(target);
    // Changes past the undo window restore nothing any more: each new change clears them away,
    // skipping any another change still holds (it waits for nobody's bulk change to commit).
    await tx.execute(
      sql`delete from dispute_status_changes where id in (
            select id from dispute_status_changes where at < now() - make_interval(mins => ${undoMinutes}) for update skip locked)`,
    );
    const [made] = await queryRows<{ id: number }>(
      tx,
      sql`insert into dispute_status_changes (user_id, actor, status, outcome, note, disputes)
          values (${by.id}::int, ${by.email}, ${change.status}, ${change.outcome}::text, ${change.note}, 0) returning id::float8 as id`,
    );
    const changeId = made!.id;
    const changed = await queryRows<{ id: string | number }>(
      tx,
      sql`with locked as (
            select id, status, outcome, stopped_on, status_source, status_reason, status_by, status_at,
                   rule_id, clock_started_on, due_date, penalty_per_day, currency
            from disputes where id in (${picked}) order by id for update
          ),
          changed as (
            update disputes d set status = ${change.status}, outcome = ${change.outcome}::text,
              stopped_on = ${change.status === 'resolved' ? sql`coalesce(case when d.status = 'resolved' then d.stopped_on end, ${today}::date)` : sql`null::date`},
              status_source = 'operator', status_reason = ${change.note}, status_by = ${by.email}, status_at = now(), update_at = now()
            from locked where d.id = locked.id
            returning d.id
          ),
          previous as (
            insert into dispute_status_previous (change_id, dispute_id, status, outcome, stopped_on, status_source, status_reason, status_by, status_at,
                                                 rule_id, clock_started_on, due_date, penalty_per_day, currency)
            select ${changeId}::bigint, id, status, outcome, stopped_on, status_source, status_reason, status_by, status_at,
                   rule_id, clock_started_on, due_date, penalty_per_day, currency from locked
          ),
          events as (
            insert into dispute_events (dispute_id, source, user_id, actor, status, outcome, note)
            select id, 'operator', ${by.id}::int, ${by.email}, ${change.status}, ${change.outcome}::text, ${change.note} from changed
          )
          select id from changed order by id`,
    );
    const ids = changed.map((r) => Number(r.id));
    if (ids.length === 0) {
      await tx.execute(sql`delete from dispute_status_changes where id = ${changeId}`);
      return { ids, changeId: null };
    }
    await tx.execute(sql`update dispute_status_changes set disputes = ${ids.length} where id = ${changeId}`);
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
    return { ids, changeId };
  });
}

/** Why an undo is refused, in the operator's words; `status` is the HTTP answer it makes. */
export class UndoRefused extends Error {
  constructor(
    message: string,
    readonly status: 403 | 409,
  ) {
    super(message);
  }
}

/**
 * Undo a status change: every dispute it set gets back the status it had, with a history event
 * and one audit entry. Only its maker may, within undoMinutes, and only while none of its disputes
 * has been changed since (by anyone, or by mail): then nothing is undone and the refusal says how
 * many were. The count restored; null when there is no such change (or it is past the window).
 */
export async function undoStatusChange(db: Db, changeId: number, by: Operator): Promise<number | null> {
  return db.transaction(async (trx) => {
    const tx = trx as unknown as Db;
    const [made] = await queryRows<{ user_id: number | null; disputes: number; undone: boolean; note: string }>(
      tx,
      sql`select user_id, disputes, undone_at is not null as undone, note from dispute_status_changes
          where id = ${changeId} and at >= now() - make_interval(mins => ${undoMinutes}) for update`,
    );
    if (!made) return null;
    if (made.user_id !== by.id) throw new UndoRefused('Only the operator who made a change may undo it.', 403);
    if (made.undone) throw new UndoRefused('This change has been undone already.', 409);
    const [since] = await queryRows<{ changed: number; by: string | null }>(
      tx,
      sql`with locked as (
            select d.id, d.status_at, d.status_source, d.status_by from disputes d
            join dispute_status_previous p on p.dispute_id = d.id and p.change_id = ${changeId}
            order by d.id for update of d
          )
          select count(*)::int as changed, min(nullif(status_by, '')) as by from locked
          where status_at <> (select at from dispute_status_changes where id = ${changeId}) or status_source <> 'operator' or status_by <> ${by.email}`,
    );
    if (since!.changed > 0) {
      const who = since!.by ? ` (by ${since!.by})` : ' (by mail)';
      throw new UndoRefused(
        `${since!.changed.toLocaleString('en-US')} of these ${made.disputes.toLocaleString('en-US')} disputes changed since${who}: nothing was undone.`,
        409,
      );
    }
    const restored = await queryRows<{ id: number; status: string; outcome: string | null }>(
      tx,
      sql`with restored as (
            update disputes d set status = p.status, outcome = p.outcome, stopped_on = p.stopped_on, status_source = p.status_source,
              status_reason = p.status_reason, status_by = p.status_by, status_at = p.status_at, update_at = now(),
              -- The clock it had (a rule deleted since is no rule): an open one follows today's rules below.
              rule_id = (select r.id from tat_rules r where r.id = p.rule_id), clock_started_on = p.clock_started_on,
              due_date = p.due_date, penalty_per_day = p.penalty_per_day, currency = p.currency
            from dispute_status_previous p where p.change_id = ${changeId} and p.dispute_id = d.id
            returning d.id, d.status, d.outcome
          ),
          events as (
            insert into dispute_events (dispute_id, source, user_id, actor, status, outcome, note)
            select id, 'operator', ${by.id}::int, ${by.email}, status, outcome, ${`Undone: ${made.note}`} from restored
          )
          select id::float8 as id, status, outcome from restored order by id`,
    );
    await tx.execute(sql`update dispute_status_changes set undone_at = now() where id = ${changeId}`);
    const ids = restored.map((r) => r.id);
    await tx.insert(auditLog).values({
      userId: by.id,
      action: 'status_undo',
      entity: 'dispute',
      entityId: ids.length === 1 ? String(ids[0]) : null,
      detail: `${ids.length === 1 ? `dispute ${ids[0]}` : `${ids.length} disputes`}: status change undone (${made.note})`,
    });
    const reopened = restored.filter((r) => r.status !== 'resolved').map((r) => r.id);
    if (reopened.length) await refreshDisputeClocks(tx, reopened);
    await tx.execute(notifySql(mailChannel));
    return ids.length;
  });
}
