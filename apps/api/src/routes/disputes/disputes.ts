// /api/disputes/: the dispute desk (any signed-in user). A dispute's story, its status set by an
// operator (one, or many by ids or by the EJ table's filters: "all N matching" is the server's
// reading of the filters, never the rows a browser loaded), and the dashboard's ageing card.
// The clock's day is today in TAT_TIME_ZONE.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { checkStatusChange, dayIn, disputeAgeing, disputesMatching, disputeStory, RuleProblem, setDisputeStatus, type StatusChange } from '@ejdesk/db';
import { monthProblem, monthRange } from '../../lib/months.ts';
import { errorResponses } from '@ejdesk/contract/schemas/common.ts';
import { BulkStatusAnswer, BulkStatusBody, DisputeAgeing, DisputeIdParams, DisputeStory, StatusBody } from '@ejdesk/contract/schemas/disputes.ts';
import { DashboardQuery } from '@ejdesk/contract/schemas/emails.ts';
import { ejFiltersOf } from '../../lib/ej-filters.ts';

/** The checked change, or the 400's detail. */
function changeOf(body: { status?: unknown; outcome?: unknown; note?: unknown }): StatusChange | { detail: string } {
  try {
    return checkStatusChange(body);
  } catch (err) {
    if (err instanceof RuleProblem) return { detail: `body: ${err.message}.` };
    throw err;
  }
}

export const disputeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, config } = app.ctx;
  const today = () => dayIn(config.clockTimeZone);

  app.get(
    '/ageing/',
    { config: { credential: 'user' }, schema: { querystring: DashboardQuery, response: { 200: DisputeAgeing, ...errorResponses } } },
    async (request, reply) => {
      const range = monthRange(request.query.date);
      if (!range) return reply.code(400).send({ detail: monthProblem('date') });
      const last = new Date(range.to.getTime() - 86_400_000);
      return disputeAgeing(db, range.from.toISOString().slice(0, 10), last.toISOString().slice(0, 10), today());
    },
  );

  app.get(
    '/:id/',
    { config: { credential: 'user' }, schema: { params: DisputeIdParams, response: { 200: DisputeStory, ...errorResponses } } },
    async (request, reply) => {
      const story = await disputeStory(db, request.params.id, today());
      if (!story) return reply.code(404).send({ detail: 'Not found.' });
      return { ...story, evidence: null };
    },
  );

  app.post(
    '/:id/status/',
    { config: { credential: 'user' }, schema: { params: DisputeIdParams, body: StatusBody, response: { 200: DisputeStory, ...errorResponses } } },
    async (request, reply) => {
      const change = changeOf(request.body);
      if ('detail' in change) return reply.code(400).send(change);
      const day = today();
      const changed = await setDisputeStatus(db, { ids: [request.params.id] }, change, request.user!, day);
      const story = changed.length ? await disputeStory(db, request.params.id, day) : null;
      if (!story) return reply.code(404).send({ detail: 'Not found.' });
      return { ...story, evidence: null };
    },
  );

  app.post(
    '/bulk-status/',
    { config: { credential: 'user' }, schema: { body: BulkStatusBody, response: { 200: BulkStatusAnswer, ...errorResponses } } },
    async (request, reply) => {
      const { ids, filters } = request.body;
      if ((ids === undefined) === (filters === undefined)) return reply.code(400).send({ detail: 'body: give either ids or filters, not both.' });
      const change = changeOf(request.body);
      if ('detail' in change) return reply.code(400).send(change);
      const day = today();
      const target = ids ? { ids } : { where: disputesMatching(ejFiltersOf('dispute', filters!, day)) };
      const changed = await setDisputeStatus(db, target, change, request.user!, day);
      return { updated: changed.length };
    },
  );
};
