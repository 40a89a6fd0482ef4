// An admin list whose every write is audited (the ingester's rules, the turnaround rules): list,
// add, change, delete, all answering alike. Each list's domain declares its own and registers it.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { RuleProblem, type AuditedList, type Written } from '@ejdesk/db';
import { Type, type TSchema } from 'typebox';
import { IdParams } from '@ejdesk/contract/schemas/admin.ts';
import { errorResponses } from '@ejdesk/contract/schemas/common.ts';
import { RequestMade } from '@ejdesk/contract/schemas/approvals.ts';
import { heldListChange, type ListChange } from './four-eyes.ts';

interface RuleList<Input> {
  path: string;
  row: TSchema;
  body: TSchema;
  /** The meaning beyond the shape (packages/db): the same checks as the rules file's. */
  check: (body: Record<string, unknown>) => Input;
  store: AuditedList<Input, unknown>;
  /** The 400 for an entry that is there already. */
  duplicate: (input: Input) => string;
  /** Held for a second admin when four eyes says so (lib/four-eyes.ts): the action, and the request's words. */
  fourEyes?: { action: 'tat_rule'; describe: (change: ListChange) => string };
}
export const auditedList = <Input>(list: RuleList<Input>) => list as unknown as RuleList<unknown>;

/** The list's four routes, admins' only. */
export const auditedListRoutes =
  (list: RuleList<unknown>): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { db } = app.ctx;
    /** The checked entry, or the 400's detail. */
    const checked = (body: unknown): { input: unknown; problem?: undefined } | { problem: string } => {
      try {
        return { input: list.check(body as Record<string, unknown>) };
      } catch (err) {
        if (err instanceof RuleProblem) return { problem: `body: ${err.message}.` };
        throw err;
      }
    };
    /** A write the store refuses by a rule of its own (a webhook rule left without its key): the 400's detail. */
    const refused = async <T>(write: () => Promise<T>): Promise<T | { problem: string }> => {
      try {
        return await write();
      } catch (err) {
        if (err instanceof RuleProblem) return { problem: `body: ${err.message}.` };
        throw err;
      }
    };
    /** True when four eyes holds the change (answered 202 with the request made). */
    const held = async (change: ListChange, maker: { id: number; email: string }, reply: Parameters<typeof heldListChange>[1]) =>
      list.fourEyes !== undefined && heldListChange(db, reply, list.fourEyes.action, change, list.fourEyes.describe(change), maker);
    const answer = (written: Written<unknown>, input: unknown, status = 200) =>
      written === 'conflict'
        ? { status: 400, body: { detail: list.duplicate(input) } }
        : written === 'missing'
          ? { status: 404, body: { detail: 'Not found.' } }
          : { status, body: written };

    app.get(list.path, { config: { credential: 'admin' }, schema: { response: { 200: Type.Array(list.row), ...errorResponses } } }, async () =>
      list.store.list(db),
    );

    app.post(
      list.path,
      { config: { credential: 'admin' }, schema: { body: list.body, response: { 201: list.row, 202: RequestMade, ...errorResponses } } },
      async (request, reply) => {
        const entry = checked(request.body);
        if (entry.problem !== undefined) return reply.code(400).send({ detail: entry.problem });
        if (await held({ op: 'create', body: request.body as Record<string, unknown> }, request.user!, reply)) return reply;
        const created = await refused(() => list.store.create(db, request.user!.id, entry.input));
        if (typeof created === 'object' && created !== null && 'problem' in created) return reply.code(400).send({ detail: created.problem });
        const { status, body } = answer(created, entry.input, 201);
        return reply.code(status).send(body);
      },
    );

    app.put(
      `${list.path}:id/`,
      { config: { credential: 'admin' }, schema: { params: IdParams, body: list.body, response: { 200: list.row, 202: RequestMade, ...errorResponses } } },
      async (request, reply) => {
        const entry = checked(request.body);
        if (entry.problem !== undefined) return reply.code(400).send({ detail: entry.problem });
        if (await held({ op: 'change', id: request.params.id, body: request.body as Record<string, unknown> }, request.user!, reply)) return reply;
        const changed = await refused(() => list.store.change(db, request.user!.id, request.params.id, entry.input));
        if (typeof changed === 'object' && changed !== null && 'problem' in changed) return reply.code(400).send({ detail: changed.problem });
        const { status, body } = answer(changed, entry.input);
        return reply.code(status).send(body);
      },
    );

    app.delete(
      `${list.path}:id/`,
      { config: { credential: 'admin' }, schema: { params: IdParams, response: { 204: Type.Null(), 202: RequestMade, ...errorResponses } } },
      async (request, reply) => {
        if (await held({ op: 'delete', id: request.params.id }, request.user!, reply)) return reply;
        const removed = await list.store.remove(db, request.user!.id, request.params.id);
        if (removed === 'missing' || removed === 'conflict') return reply.code(404).send({ detail: 'Not found.' });
        return reply.code(204).send(null);
      },
    );
  };
