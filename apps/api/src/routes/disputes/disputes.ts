// /api/disputes/: the dispute desk (any signed-in user). A dispute's story with its journal
// evidence, its status set by an operator (one, or many by ids or by the EJ table's filters: "all N
// matching" is the server's reading of the filters, never the rows a browser loaded), the status
// its journal's verdict suggests (never over an operator's), its evidence pack (a PDF, or a ZIP of
// many), and the dashboard's ageing card. The clock's day is today in TAT_TIME_ZONE.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  applySuggestion,
  checkStageChange,
  checkStatusChange,
  dayIn,
  disputeAgeing,
  disputeEvidence,
  disputeOwners,
  disputesWithEvidence,
  disputeStory,
  resolutionsHeld,
  RuleProblem,
  setDisputeNetwork,
  setDisputeStage,
  setDisputeStatus,
  setFollowUp,
  undoMinutes,
  undoStatusChange,
  UndoRefused,
  type StatusChange,
  type SuggestionResult,
} from '@ejdesk/db';
import { monthProblem, monthRange } from '../../lib/months.ts';
import { Detail, errorResponses, FileAnswer } from '@ejdesk/contract/schemas/common.ts';
import { RequestMade } from '@ejdesk/contract/schemas/approvals.ts';
import {
  ApplySuggestionAnswer,
  ApplySuggestionBody,
  BulkStatusAnswer,
  BulkStatusBody,
  DisputeAgeing,
  DisputeIdParams,
  DisputeOwner,
  DisputeStory,
  EvidenceZipBody,
  FollowUpAnswer,
  FollowUpBody,
  NetworkBody,
  StageBody,
  StatusBody,
  StatusChangeParams,
  UndoAnswer,
} from '@ejdesk/contract/schemas/disputes.ts';
import { DashboardQuery } from '@ejdesk/contract/schemas/emails.ts';
import { evidenceOf, evidencePack, evidenceZip } from './evidence.ts';
import { heldForApproval } from './approvals.ts';
import { targetOf } from './targets.ts';

/** The checked change, or the 400's detail. */
function changeOf(body: { status?: unknown; outcome?: unknown; note?: unknown }): StatusChange | { detail: string } {
  try {
    return checkStatusChange(body);
  } catch (err) {
    if (err instanceof RuleProblem) return { detail: `body: ${err.message}.` };
    throw err;
  }
}

/** How many changed, and why the others did not. */
const countsOf = (result: SuggestionResult) => ({
  updated: result.applied.length,
  skipped_operator: result.skipped.filter((s) => s.why === 'operator').length,
  skipped_no_suggestion: result.skipped.filter((s) => s.why === 'no_suggestion').length,
  skipped_unchanged: result.skipped.filter((s) => s.why === 'unchanged').length,
});

export const disputeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, config } = app.ctx;
  const today = () => dayIn(config.clockTimeZone);
  /** The story as the contract sends it: with its journal evidence. */
  const storyOf = async (id: number, day: string) => {
    const [story, evidence] = await Promise.all([disputeStory(db, id, day), disputeEvidence(db, id)]);
    return story && { ...story, evidence: evidenceOf(evidence) };
  };

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
      const story = await storyOf(request.params.id, today());
      if (!story) return reply.code(404).send({ detail: 'Not found.' });
      return story;
    },
  );

  app.post(
    '/:id/status/',
    {
      config: { credential: 'user' },
      schema: { params: DisputeIdParams, body: StatusBody, response: { 200: DisputeStory, 202: RequestMade, ...errorResponses } },
    },
    async (request, reply) => {
      const change = changeOf(request.body);
      if ('detail' in change) return reply.code(400).send(change);
      const day = today();
      if (await heldForApproval(db, reply, { ids: [request.params.id] }, change, request.user!, day, false)) return reply;
      const { ids } = await setDisputeStatus(db, { ids: [request.params.id] }, change, request.user!, day);
      const story = ids.length ? await storyOf(request.params.id, day) : null;
      if (!story) return reply.code(404).send({ detail: 'Not found.' });
      return story;
    },
  );

  // Its stage (closed resolves it, with the outcome and who bears the cost) and its network (whose
  // rule sets' clocks it runs), by an operator.
  app.post(
    '/:id/stage/',
    { config: { credential: 'user' }, schema: { params: DisputeIdParams, body: StageBody, response: { 200: DisputeStory, ...errorResponses, 409: Detail } } },
    async (request, reply) => {
      let change;
      try {
        change = checkStageChange(request.body);
      } catch (error) {
        if (error instanceof RuleProblem) return reply.code(400).send({ detail: `body: ${error.message}.` });
        throw error;
      }
      const day = today();
      // Closing resolves: under four eyes it goes through the status, which makes the request.
      if (change.stage === 'closed' && change.outcome !== 'other' && (await resolutionsHeld(db)))
        return reply.code(409).send({ detail: 'Four eyes holds resolutions: set the status instead, and a second person approves it.' });
      const found = await setDisputeStage(db, request.params.id, change, request.user!, day);
      const story = found ? await storyOf(request.params.id, day) : null;
      if (!story) return reply.code(404).send({ detail: 'Not found.' });
      return story;
    },
  );

  app.post(
    '/:id/network/',
    { config: { credential: 'user' }, schema: { params: DisputeIdParams, body: NetworkBody, response: { 200: DisputeStory, ...errorResponses } } },
    async (request, reply) => {
      const found = await setDisputeNetwork(db, request.params.id, request.body.network.trim(), request.user!);
      const story = found ? await storyOf(request.params.id, today()) : null;
      if (!story) return reply.code(404).send({ detail: 'Not found.' });
      return story;
    },
  );

  app.post(
    '/bulk-status/',
    { config: { credential: 'user' }, schema: { body: BulkStatusBody, response: { 200: BulkStatusAnswer, 202: RequestMade, ...errorResponses } } },
    async (request, reply) => {
      const day = today();
      const target = targetOf(request.body, day, request.user!.id);
      if ('detail' in target) return reply.code(400).send(target);
      const change = changeOf(request.body);
      if ('detail' in change) return reply.code(400).send(change);
      if (await heldForApproval(db, reply, request.body, change, request.user!, day, true)) return reply;
      const { ids, changeId } = await setDisputeStatus(db, target, change, request.user!, day);
      return { updated: ids.length, change_id: changeId };
    },
  );

  // Who works the disputes and when they look again: one, or many by ids or the table's filters.
  app.post(
    '/follow-up/',
    { config: { credential: 'user' }, schema: { body: FollowUpBody, response: { 200: FollowUpAnswer, ...errorResponses } } },
    async (request, reply) => {
      const target = targetOf(request.body, today(), request.user!.id);
      if ('detail' in target) return reply.code(400).send(target);
      try {
        const ids = await setFollowUp(db, target, { ownerId: request.body.owner_id, followUpOn: request.body.follow_up_on }, request.user!);
        return { updated: ids.length };
      } catch (error) {
        if (error instanceof RuleProblem) return reply.code(400).send({ detail: `${error.message}.` });
        throw error;
      }
    },
  );

  app.get('/owners/', { config: { credential: 'user' }, schema: { response: { 200: Type.Array(DisputeOwner), ...errorResponses } } }, async () =>
    disputeOwners(db),
  );

  // Its maker may undo a status change for a while (the console offers it for ten seconds): every
  // dispute gets back its status, unless one was changed since, when nothing is undone (409).
  app.post(
    '/status-changes/:id/undo/',
    { config: { credential: 'user' }, schema: { params: StatusChangeParams, response: { 200: UndoAnswer, ...errorResponses, 409: Detail } } },
    async (request, reply) => {
      try {
        const restored = await undoStatusChange(db, request.params.id, request.user!);
        if (restored === null)
          return reply.code(404).send({ detail: `No status change ${request.params.id} to undo: none was made, or it is over ${undoMinutes} minutes old.` });
        return { restored };
      } catch (error) {
        if (error instanceof UndoRefused) return reply.code(error.status).send({ detail: error.message });
        throw error;
      }
    },
  );

  app.post(
    '/:id/apply-suggestion/',
    { config: { credential: 'user' }, schema: { params: DisputeIdParams, response: { 200: ApplySuggestionAnswer, ...errorResponses, 409: Detail } } },
    async (request, reply) => {
      // A suggestion resolves (credited or rejected): under four eyes, a person asks through the status.
      if (await resolutionsHeld(db))
        return reply.code(409).send({ detail: 'Four eyes holds resolutions: set the status instead, and a second person approves it.' });
      const result = await applySuggestion(db, { ids: [request.params.id] }, request.user!, today());
      if (result.applied.length + result.skipped.length === 0) return reply.code(404).send({ detail: 'Not found.' });
      return countsOf(result);
    },
  );

  app.post(
    '/apply-suggestion/',
    { config: { credential: 'user' }, schema: { body: ApplySuggestionBody, response: { 200: ApplySuggestionAnswer, ...errorResponses, 409: Detail } } },
    async (request, reply) => {
      const day = today();
      const target = targetOf(request.body, day, request.user!.id);
      if ('detail' in target) return reply.code(400).send(target);
      if (await resolutionsHeld(db))
        return reply.code(409).send({ detail: 'Four eyes holds resolutions: set the status instead, and a second person approves it.' });
      return countsOf(await applySuggestion(db, target, request.user!, day));
    },
  );

  app.get(
    '/:id/evidence.pdf',
    { config: { credential: 'user' }, schema: { params: DisputeIdParams, response: { 200: FileAnswer('application/pdf'), ...errorResponses } } },
    async (request, reply) => {
      const pack = await evidencePack(db, request.params.id, today(), request.user!.email);
      if (!pack) return reply.code(404).send({ detail: 'No evidence: the dispute does not exist, or no journal has spoken of it yet.' });
      return reply.type('application/pdf').header('content-disposition', `attachment; filename="${pack.fileName}"`).send(pack.pdf);
    },
  );

  // A read, though a POST (the filters are a body, as bulk-status takes them): nothing to keep or repeat.
  // 499 (nginx's "client closed request") is only ever logged: nobody is left to read it.
  app.post(
    '/evidence.zip',
    {
      config: { credential: 'user', idempotency: 'repeatable' },
      schema: { body: EvidenceZipBody, response: { 200: FileAnswer('application/zip'), ...errorResponses, 499: Detail } },
    },
    async (request, reply) => {
      const day = today();
      const target = targetOf(request.body, day, request.user!.id);
      if ('detail' in target) return reply.code(400).send(target);
      // A slot of the streamed exports (EXPORT_CONCURRENCY): each holds a core while it runs.
      const { exports, metrics } = app.ctx;
      if (exports.inFlight >= config.exportConcurrency) {
        metrics.exportsRefused.inc();
        return reply.code(429).header('retry-after', '10').send({ detail: 'Too many exports are running; try again in a moment.' });
      }
      const ids = await disputesWithEvidence(db, target);
      if (ids.length === 0) return reply.code(404).send({ detail: 'None of these disputes has journal evidence yet.' });
      // Gone while the ids were read (a POST's own body stream ends once read: its socket tells).
      if (request.raw.socket?.destroyed) return reply.code(499).send({ detail: 'The client closed the request.' });
      exports.inFlight++;
      reply.raw.once('close', () => exports.inFlight--);
      const madeAt = new Date();
      const { stream } = evidenceZip(
        (async function* () {
          for (let at = 0; at < ids.length; at += 50) yield ids.slice(at, at + 50);
        })(),
        (id) => evidencePack(db, id, day, request.user!.email, madeAt),
        () => metrics.evidencePacks.inc(),
      );
      const name = `evidence-${madeAt.toISOString().slice(0, 10)}-${ids.length}-disputes.zip`;
      return reply
        .type('application/zip')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(stream as never);
    },
  );
};
