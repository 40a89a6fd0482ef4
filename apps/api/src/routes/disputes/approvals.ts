// Four eyes on the dispute desk. A status change an admin has put under approval (a resolution
// with credit or rejection, a bulk change over the set size) answers 202 with the request made;
// /api/approvals/ lists the requests, shows what each would change now, and lets a second person
// (never its maker) approve it (done to the disputes as they are then, saying how many changed
// since) or reject it. The settings are admins' (/api/admin/four-eyes/).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { sql } from 'drizzle-orm';
import {
  approvalNeeded,
  changeBankPassword,
  checkTatRule,
  createBankPassword,
  dayIn,
  decryptBankPass,
  deleteBankPassword,
  tatRuleList,
  decideRequest,
  DecisionRefused,
  getRequest,
  listFourEyes,
  listRequests,
  makeRequest,
  pickedDisputes,
  queryRows,
  setDisputeStatus,
  setFourEyesSettings,
  type ChangeRequest as Request,
  type Db,
  type StatusChange,
} from '@ejdesk/db';
import { Type } from 'typebox';
import {
  ChangeRequest,
  ChangeRequestDetail,
  DecisionBody,
  FourEyesBody,
  FourEyesSetting,
  RequestParams,
  RequestQuery,
} from '@ejdesk/contract/schemas/approvals.ts';
import { Detail, errorResponses } from '@ejdesk/contract/schemas/common.ts';
import { Paginated } from '@ejdesk/contract/schemas/lists.ts';
import { pageOf, sendPage } from '../../lib/pagination.ts';
import type { ListChange } from '../../lib/four-eyes.ts';
import { targetOf, type TargetBody } from './targets.ts';

interface Payload extends TargetBody {
  change: StatusChange;
}

const statusWords = (c: StatusChange) => (c.status === 'resolved' ? `resolved (${c.outcome})` : c.status === 'awaiting_msp' ? 'awaiting the MSP' : 'open');

/**
 * Holds a status change for a second person when four eyes says so: the request made, answered
 * 202, and true. False when the change may be done at once. `bulk`: asked for many at once.
 */
export async function heldForApproval(
  db: Db,
  reply: FastifyReply,
  body: TargetBody,
  change: StatusChange,
  maker: { id: number; email: string },
  day: string,
  bulk: boolean,
): Promise<boolean> {
  const target = targetOf(body, day, maker.id);
  if ('detail' in target) return false;
  const [matched] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from disputes where id in (${pickedDisputes(target)})`);
  const count = matched?.n ?? 0;
  const action = await approvalNeeded(db, change, count, bulk);
  if (!action || count === 0) return false;
  const payload: Payload = { ...(body.ids ? { ids: body.ids } : { filters: body.filters }), change };
  const request = await makeRequest(db, {
    action,
    payload: payload as unknown as Record<string, unknown>,
    summary: `Set ${count === 1 ? '1 dispute' : `${count} disputes`} to ${statusWords(change)}: ${change.note}`,
    matchedThen: count,
    maker,
  });
  // Sent here, and true said: a reply is a thenable, so an async function cannot hand it back.
  void reply.code(202).send({ request, detail: `Sent for approval: another person must approve it (request ${request.id}).` });
  return true;
}

/** The request's disputes as they are now: how many it matches, how many changed since it was made, the first 50. */
async function nowOf(db: Db, request: Request, day: string) {
  const payload = request.payload as unknown as Payload;
  const target = targetOf(payload, day, request.maker_id ?? 0);
  if ('detail' in target) throw new Error(`request ${request.id} names no disputes`);
  const picked = pickedDisputes(target);
  const [counts] = await queryRows<{ matched: number; changed: number }>(
    db,
    sql`select count(*)::int as matched, count(*) filter (where status_at > ${request.made_at})::int as changed from disputes where id in (${picked})`,
  );
  const disputes = await queryRows<{ id: number; atm_id: string; txt_no: string; status: string; outcome: string | null; changed_since: boolean }>(
    db,
    sql`select id::float8 as id, atm_id, txt_no, status, outcome, status_at > ${request.made_at} as changed_since
        from disputes where id in (${picked}) order by id limit 50`,
  );
  return { target, payload, matched: counts?.matched ?? 0, changed: counts?.changed ?? 0, disputes };
}

/** The admin lists' actions: decided by admins only, shown field by field. */
const listActions = new Set<Request['action']>(['tat_rule', 'bank_password']);
const tatFields = ['name', 'scope', 'scope_value', 'clock_start', 'days', 'day_kind', 'holidays', 'penalty_per_day', 'currency'] as const;
const shown = (value: unknown) => (Array.isArray(value) ? value.join(', ') : value === undefined || value === null ? '' : String(value));

/** An admin list request's fields as they are and as they would be (a password is never shown). */
async function listFields(db: Db, request: Request): Promise<{ field: string; now: string; would_be: string }[]> {
  const c = request.payload as unknown as ListChange;
  const gone = c.op === 'delete';
  if (request.action === 'tat_rule') {
    const [row] = c.id
      ? await queryRows<Record<string, unknown>>(
          db,
          sql`select name, scope, scope_value, clock_start, days, day_kind, holidays::text[] as holidays, penalty_per_day::text as penalty_per_day, currency
              from tat_rules where id = ${c.id}`,
        )
      : [];
    return tatFields.map((field) => ({ field, now: row ? shown(row[field]) : '', would_be: gone ? '(deleted)' : shown(c.body?.[field]) }));
  }
  const [row] = c.id ? await queryRows<{ bank_name: string }>(db, sql`select bank_name from bank_passwords where id = ${c.id}`) : [];
  return [
    { field: 'bank_name', now: row?.bank_name ?? '', would_be: gone ? '(deleted)' : shown(c.body?.bank_name) },
    { field: 'password', now: row ? 'stored (not shown)' : '', would_be: gone ? '(deleted)' : c.body?.bank_pass_sealed ? 'a new one (not shown)' : 'kept' },
  ];
}

/** Does an admin list request, in the maker's name; a change no longer possible is refused (409). */
async function applyListChange(tx: Db, request: Request, ring: Buffer) {
  const c = request.payload as unknown as ListChange;
  const maker = request.maker_id ?? 0;
  const done = { updated: 1, changed_since: 0, matched_now: 1 };
  if (request.action === 'tat_rule') {
    const input = c.op === 'delete' ? null : checkTatRule(c.body ?? {});
    const written =
      c.op === 'create'
        ? await tatRuleList.create(tx, maker, input!)
        : c.op === 'change'
          ? await tatRuleList.change(tx, maker, c.id!, input!)
          : await tatRuleList.remove(tx, maker, c.id!);
    if (written === 'conflict') throw new DecisionRefused('A TAT rule with that name or scope exists now: the request can no longer be done.', 409);
    if (written === 'missing') throw new DecisionRefused(`TAT rule ${c.id} is gone: the request can no longer be done.`, 409);
    return done;
  }
  const bankName = shown(c.body?.bank_name).trim();
  let sealed: string | undefined;
  try {
    sealed = typeof c.body?.bank_pass_sealed === 'string' ? decryptBankPass(ring, Buffer.from(c.body.bank_pass_sealed, 'base64')) : undefined;
  } catch {
    throw new DecisionRefused('No key of BANK_PASS_KEY opens the password this request holds: ask for the change again.', 409);
  }
  if (c.op === 'create') {
    if (!(await createBankPassword(tx, ring, maker, bankName, sealed ?? '')))
      throw new DecisionRefused(`A password for bank '${bankName}' is stored now.`, 409);
  } else if (c.op === 'change') {
    const changed = await changeBankPassword(tx, ring, maker, c.id!, bankName, sealed);
    if (!('row' in changed))
      throw new DecisionRefused(changed.problem === 'taken' ? `A password for bank '${bankName}' is stored now.` : `Bank password ${c.id} is gone.`, 409);
  } else if (!(await deleteBankPassword(tx, maker, c.id!))) throw new DecisionRefused(`Bank password ${c.id} is gone.`, 409);
  return done;
}

export const approvalRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, config, secrets } = app.ctx;
  const today = () => dayIn(config.clockTimeZone);

  app.get(
    '/',
    { config: { credential: 'user' }, schema: { querystring: RequestQuery, response: { 200: Paginated(ChangeRequest), ...errorResponses } } },
    async (request, reply) => {
      const page = pageOf(request.query);
      return sendPage(request, reply, page, await listRequests(db, request.query.status, page));
    },
  );

  app.get(
    '/:id/',
    { config: { credential: 'user' }, schema: { params: RequestParams, response: { 200: ChangeRequestDetail, ...errorResponses } } },
    async (request, reply) => {
      const found = await getRequest(db, request.params.id);
      if (!found) return reply.code(404).send({ detail: 'Not found.' });
      if (listActions.has(found.action)) return { ...found, change: null, fields: await listFields(db, found), matched_now: 0, changed_since: 0, disputes: [] };
      const now = await nowOf(db, found, today());
      return { ...found, change: now.payload.change, fields: [], matched_now: now.matched, changed_since: now.changed, disputes: now.disputes };
    },
  );

  const decide =
    (approve: boolean) =>
    async (request: { params: { id: number }; body: { note: string }; user: { id: number; email: string; role: string } | null }, reply: FastifyReply) => {
      const day = today();
      const checker = request.user!;
      // An admin list's change is decided (approved or rejected) by an admin.
      const asked = await getRequest(db, request.params.id);
      if (asked && listActions.has(asked.action) && checker.role !== 'admin')
        return reply.code(403).send({ detail: 'A change of an admin list is approved or rejected by an admin.' });
      try {
        const decided = await decideRequest(db, request.params.id, checker, { approve, note: request.body.note.trim() }, async (tx, found) => {
          if (listActions.has(found.action)) return applyListChange(tx, found, secrets.bankPassKey);
          const now = await nowOf(tx, found, day);
          const change = { ...now.payload.change, note: `${now.payload.change.note} (approved by ${checker.email}: ${request.body.note.trim()})` };
          const { ids } = await setDisputeStatus(tx, now.target, change, { id: found.maker_id ?? checker.id, email: found.maker }, day);
          return { updated: ids.length, changed_since: now.changed, matched_now: now.matched };
        });
        if (!decided) return reply.code(404).send({ detail: 'Not found.' });
        return decided;
      } catch (error) {
        if (error instanceof DecisionRefused) return reply.code(error.status).send({ detail: error.message });
        throw error;
      }
    };
  const decision = {
    config: { credential: 'user' as const },
    schema: { params: RequestParams, body: DecisionBody, response: { 200: ChangeRequest, ...errorResponses, 409: Detail } },
  };
  app.post('/:id/approve/', decision, (request, reply) => decide(true)(request, reply));
  app.post('/:id/reject/', decision, (request, reply) => decide(false)(request, reply));
};

/** /api/admin/four-eyes/: which actions wait for a second person (admins). */
export const fourEyesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;
  app.get('/four-eyes/', { config: { credential: 'admin' }, schema: { response: { 200: Type.Array(FourEyesSetting), ...errorResponses } } }, async () =>
    listFourEyes(db),
  );
  app.put(
    '/four-eyes/',
    { config: { credential: 'admin' }, schema: { body: FourEyesBody, response: { 200: Type.Array(FourEyesSetting), ...errorResponses } } },
    async (request) => setFourEyesSettings(db, request.user!.id, request.body),
  );
};
