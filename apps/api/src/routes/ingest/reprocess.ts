// /api/admin/emails/{id}/reprocess/: an admin sends one email through the ingester again.
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { emailProcessing, requeueEmail } from '@ejdesk/db';
import { IdParams } from '@ejdesk/contract/schemas/admin.ts';
import { Detail, errorResponses } from '@ejdesk/contract/schemas/common.ts';
import { Reprocessed } from '@ejdesk/contract/schemas/mail-flow.ts';

export const reprocessRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;

  // Reprocess one email: back on the queue (its rows and files removed, audited), then processed at
  // once by the ingester hosted in this process; without one, it waits for a running ingester.
  app.post(
    '/emails/:id/reprocess/',
    {
      config: { credential: 'admin', idempotency: 'repeatable' },
      schema: { params: IdParams, response: { 200: Reprocessed, 202: Reprocessed, 409: Detail, ...errorResponses } },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (!(await requeueEmail(db, request.user!.id, id, request.clientIp))) {
        const known = await emailProcessing(db, id);
        if (!known) return reply.code(404).send({ detail: 'Not found.' });
        return reply.code(409).send({ detail: 'This email has no stored message to process again (it was not read from a mailbox or a mail file).' });
      }
      // The hosted ingester works through the queue; a long backlog answers 202 after 30 s (the
      // email is then processed in its turn, and Mail Flow shows it).
      const processQueued = app.ctx.ingest.processQueued;
      if (processQueued) {
        const done = new AbortController();
        await Promise.race([processQueued().finally(() => done.abort()), sleep(30_000, undefined, { signal: done.signal }).catch(() => undefined)]);
      }
      const { waiting, ...now } = (await emailProcessing(db, id))!;
      const processed = !waiting;
      return reply.code(processed ? 200 : 202).send({
        id,
        processed,
        ...now,
        detail: processed ? `Processed again: ${now.category}.` : 'Queued: the mail ingester processes it in its turn.',
      });
    },
  );
};
