// Four eyes. An action an admin has put under approval is not done when asked: it waits as a
// request, showing what it will change, until a second person (never its maker) approves it (then
// it is done, to the disputes as they are at that moment, saying how many changed meanwhile) or
// rejects it, with a note either way. Every request and decision is audited.
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../client.ts';
import type { StatusChange } from '../disputes/index.ts';
import { type FourEyesAction, fourEyesActions } from './schema.ts';

export interface FourEyesSetting {
  action: FourEyesAction;
  enabled: boolean;
  threshold: number;
}

export async function listFourEyes(db: Db): Promise<FourEyesSetting[]> {
  return queryRows<FourEyesSetting>(
    db,
    sql`select action, enabled, threshold from four_eyes_settings order by array_position(${sql.param([...fourEyesActions])}::text[], action)`,
  );
}

/** Sets which actions wait for a second person; audited. */
export async function setFourEyesSettings(db: Db, userId: number, settings: FourEyesSetting[]): Promise<FourEyesSetting[]> {
  return db.transaction(async (trx) => {
    const tx = trx as unknown as Db;
    for (const s of settings) {
      await tx.execute(
        sql`update four_eyes_settings set enabled = ${s.enabled}, threshold = ${s.threshold}, update_at = now()
            where action = ${s.action} and (enabled, threshold) is distinct from (${s.enabled}, ${s.threshold})`,
      );
    }
    const now = await listFourEyes(tx);
    await tx.execute(
      sql`insert into audit_log (user_id, action, entity, detail) values (${userId}, 'change', 'four_eyes',
            ${now.map((s) => `${s.action} ${s.enabled ? 'on' : 'off'}${s.action === 'bulk_status' ? ` over ${s.threshold}` : ''}`).join(', ')})`,
    );
    return now;
  });
}

/** Which four-eyes action holds a status change of `count` disputes (`bulk`: asked for many), or null when none does. */
export async function approvalNeeded(db: Db, change: StatusChange, count: number, bulk: boolean): Promise<FourEyesAction | null> {
  const settings = new Map((await listFourEyes(db)).map((s) => [s.action, s]));
  if (change.status === 'resolved' && (change.outcome === 'credited' || change.outcome === 'rejected')) {
    const action: FourEyesAction = change.outcome === 'credited' ? 'resolve_credited' : 'resolve_rejected';
    if (settings.get(action)?.enabled) return action;
  }
  const many = settings.get('bulk_status');
  if (bulk && many?.enabled && count > many.threshold) return 'bulk_status';
  return null;
}

export interface ChangeRequest {
  id: number;
  action: FourEyesAction;
  payload: Record<string, unknown>;
  summary: string;
  matched_then: number;
  maker_id: number | null;
  maker: string;
  made_at: Date;
  status: 'pending' | 'approved' | 'rejected';
  checker: string | null;
  decided_at: Date | null;
  decision_note: string | null;
  result: { updated: number; changed_since: number; matched_now: number } | null;
}

const requestColumns = sql`id::float8 as id, action, payload, summary, matched_then, maker_id, maker, made_at, status, checker, decided_at, decision_note, result`;

/** Makes a request for a change instead of doing it; audited. */
export async function makeRequest(
  db: Db,
  request: { action: FourEyesAction; payload: Record<string, unknown>; summary: string; matchedThen: number; maker: { id: number; email: string } },
): Promise<ChangeRequest> {
  return db.transaction(async (trx) => {
    const tx = trx as unknown as Db;
    const [made] = await queryRows<ChangeRequest>(
      tx,
      sql`insert into change_requests (action, payload, summary, matched_then, maker_id, maker)
          values (${request.action}, ${JSON.stringify(request.payload)}::jsonb, ${request.summary}, ${request.matchedThen}, ${request.maker.id}, ${request.maker.email})
          returning ${requestColumns}`,
    );
    await tx.execute(
      sql`insert into audit_log (user_id, action, entity, entity_id, detail)
          values (${request.maker.id}, 'request', 'change_request', ${String(made!.id)}, ${`${request.action}: ${request.summary}`})`,
    );
    return made!;
  });
}

export async function listRequests(
  db: Db,
  status: string | undefined,
  page: { page: number; pageSize: number },
): Promise<{ count: number; rows: ChangeRequest[] }> {
  const where = status ? sql`where status = ${status}` : sql``;
  const [total] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from change_requests ${where}`);
  const rows = await queryRows<ChangeRequest>(
    db,
    sql`select ${requestColumns} from change_requests ${where} order by id desc limit ${page.pageSize} offset ${(page.page - 1) * page.pageSize}`,
  );
  return { count: total?.n ?? 0, rows };
}

export async function getRequest(db: Db, id: number): Promise<ChangeRequest | null> {
  const [row] = await queryRows<ChangeRequest>(db, sql`select ${requestColumns} from change_requests where id = ${id}`);
  return row ?? null;
}

/** Why a decision was refused: its maker asked (403), or it was decided already (409). */
export class DecisionRefused extends Error {
  constructor(
    message: string,
    readonly status: 403 | 409,
  ) {
    super(message);
  }
}

/**
 * Approves or rejects a pending request, once, by someone other than its maker; approving runs
 * `apply` in the same transaction (the change done to the disputes as they are now). Audited.
 * Null when there is no such request.
 */
export async function decideRequest(
  db: Db,
  id: number,
  checker: { id: number; email: string },
  decision: { approve: boolean; note: string },
  apply: (tx: Db, request: ChangeRequest) => Promise<{ updated: number; changed_since: number; matched_now: number }>,
): Promise<ChangeRequest | null> {
  return db.transaction(async (trx) => {
    const tx = trx as unknown as Db;
    const [request] = await queryRows<ChangeRequest>(tx, sql`select ${requestColumns} from change_requests where id = ${id} for update`);
    if (!request) return null;
    if (request.status !== 'pending') throw new DecisionRefused(`Request ${id} was ${request.status} already, by ${request.checker}.`, 409);
    if (request.maker_id === checker.id) throw new DecisionRefused('You made this request: another person must approve or reject it (four eyes).', 403);
    const result = decision.approve ? await apply(tx, request) : null;
    const [decided] = await queryRows<ChangeRequest>(
      tx,
      sql`update change_requests set status = ${decision.approve ? 'approved' : 'rejected'}, checker_id = ${checker.id}, checker = ${checker.email},
            decided_at = now(), decision_note = ${decision.note}, result = ${result === null ? null : JSON.stringify(result)}::jsonb
          where id = ${id} returning ${requestColumns}`,
    );
    await tx.execute(
      sql`insert into audit_log (user_id, action, entity, entity_id, detail)
          values (${checker.id}, ${decision.approve ? 'approve' : 'reject'}, 'change_request', ${String(id)},
                  ${`${request.action} by ${request.maker}: ${decision.note}${result ? ` (${result.updated} changed, ${result.changed_since} changed since the request)` : ''}`})`,
    );
    return decided!;
  });
}

/** Whether four eyes holds the changes of an admin list (tat_rule, bank_password). */
export async function fourEyesOn(db: Db, action: FourEyesAction): Promise<boolean> {
  const [row] = await queryRows<{ enabled: boolean }>(db, sql`select enabled from four_eyes_settings where action = ${action}`);
  return row?.enabled ?? false;
}

/** Whether four eyes holds any resolution (credited or rejected): then only the status route, which makes requests, may resolve. */
export async function resolutionsHeld(db: Db): Promise<boolean> {
  const [row] = await queryRows<{ held: boolean }>(
    db,
    sql`select coalesce(bool_or(enabled), false) as held from four_eyes_settings where action in ('resolve_credited', 'resolve_rejected')`,
  );
  return row?.held ?? false;
}
