// /api/mail-flow/: whether the mail is flowing (any signed-in user): each mailbox's state, the
// queue, what was processed lately, the recent failures, and whether ingestion has stalled (the
// shell's banner). Reprocessing an email is an admin's: /api/admin/emails/{id}/reprocess/.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { mailFlow, mailStall } from '@ejdesk/db';
import { errorResponses } from '@ejdesk/contract/schemas/common.ts';
import { MailFlow, Stall } from '@ejdesk/contract/schemas/mail-flow.ts';

export const mailFlowRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, config } = app.ctx;

  app.get('/', { config: { credential: 'user' }, schema: { response: { 200: MailFlow, ...errorResponses } } }, async () =>
    mailFlow(db, config.stallAfterSeconds),
  );
  app.get('/stalled/', { config: { credential: 'user' }, schema: { response: { 200: Stall, ...errorResponses } } }, async () =>
    mailStall(db, config.stallAfterSeconds),
  );
};
