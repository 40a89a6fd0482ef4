// /api/views/: saved views of the lists. An operator keeps their own; an admin may share one with
// everyone. Each operator may make one view per list their default (opened when the list is opened
// without a query). Views the asker may not open answer 404, as if they did not exist.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { changeView, chooseDefaultView, createView, deleteView, listViews, viewLimit, type ViewRefusal } from '@ejdesk/db';
import { errorResponses } from '@ejdesk/contract/schemas/common.ts';
import { isViewList, viewLists } from './lists.ts';
import { View, ViewChange, ViewInput, ViewListQuery, ViewParams, Views } from '@ejdesk/contract/schemas/views.ts';

/** At most this many parameters: every filter of the widest list, its order and its page size. */
const maxParams = 40;

/**
 * The query as the list will read it: each part must decode, and the page is left out (a view
 * opens on page 1). Returns a sentence for the 400 when the query cannot be a list's URL.
 */
function viewQuery(query: string): { query: string } | { detail: string } {
  const parts = query === '' ? [] : query.split('&');
  if (parts.length > maxParams) return { detail: `A view keeps at most ${maxParams} query parameters.` };
  const kept: string[] = [];
  for (const part of parts) {
    const [key = '', value = ''] = part.split(/=(.*)/s);
    let name: string;
    try {
      name = decodeURIComponent(key.replace(/\+/g, ' '));
      decodeURIComponent(value.replace(/\+/g, ' '));
    } catch {
      return { detail: `The query part "${part.slice(0, 60)}" is not URL-encoded text.` };
    }
    if (!/^[a-z][a-z0-9_]{0,39}$/.test(name)) return { detail: `"${name.slice(0, 60)}" is not a list's query parameter.` };
    if (name !== 'page') kept.push(part);
  }
  return { query: kept.join('&') };
}

const refusals: Record<ViewRefusal, [number, string]> = {
  full: [400, `At most ${viewLimit} views are kept per operator.`],
  taken: [409, 'You already have a view of that name on this list.'],
  'not-admin': [403, 'Only an admin may share a view.'],
  missing: [404, 'Not found.'],
  'not-yours': [403, 'Only its owner or an admin may change a shared view.'],
};
const refuse = (reply: FastifyReply, refusal: ViewRefusal) => {
  const [code, detail] = refusals[refusal];
  return reply.code(code).send({ detail });
};
const isRefusal = (result: unknown): result is ViewRefusal => typeof result === 'string';

export const viewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;
  const asker = (user: { id: number; role: string }) => ({ id: user.id, admin: user.role === 'admin' });
  const withErrors = { ...errorResponses, 409: errorResponses[400] };

  app.get('/', { config: { credential: 'user' }, schema: { querystring: ViewListQuery, response: { 200: Views, ...errorResponses } } }, async (request) => {
    return listViews(db, request.user!.id, request.query.list) as never;
  });

  app.post('/', { config: { credential: 'user' }, schema: { body: ViewInput, response: { 201: View, ...withErrors } } }, async (request, reply) => {
    if (!isViewList(request.body.list)) {
      return reply.code(400).send({ detail: `body 'list': '${request.body.list}' is not one of the console's lists (${viewLists.join(', ')}).` });
    }
    const query = viewQuery(request.body.query);
    if ('detail' in query) return reply.code(400).send(query);
    const result = await createView(db, asker(request.user!), request.body.list, { ...request.body, ...query });
    if (isRefusal(result)) return refuse(reply, result);
    return reply.code(201).send(result as never);
  });

  app.put(
    '/:id/',
    { config: { credential: 'user' }, schema: { params: ViewParams, body: ViewChange, response: { 200: View, ...withErrors } } },
    async (request, reply) => {
      const query = viewQuery(request.body.query);
      if ('detail' in query) return reply.code(400).send(query);
      const result = await changeView(db, asker(request.user!), request.params.id, { ...request.body, ...query });
      if (isRefusal(result)) return refuse(reply, result);
      return result as never;
    },
  );

  app.delete(
    '/:id/',
    { config: { credential: 'user' }, schema: { params: ViewParams, response: { 204: Type.Null(), ...errorResponses } } },
    async (request, reply) => {
      const result = await deleteView(db, asker(request.user!), request.params.id);
      if (result !== 'deleted') return refuse(reply, result);
      return reply.code(204).send(null);
    },
  );

  // Any view the operator can open, a shared one too, can be their default for its list.
  for (const [method, on] of [
    ['put', true],
    ['delete', false],
  ] as const) {
    app[method](
      '/:id/default/',
      { config: { credential: 'user' }, schema: { params: ViewParams, response: { 200: View, ...errorResponses } } },
      async (request, reply) => {
        const result = await chooseDefaultView(db, request.user!.id, request.params.id, on);
        if (isRefusal(result)) return refuse(reply, result);
        return result as never;
      },
    );
  }
};
