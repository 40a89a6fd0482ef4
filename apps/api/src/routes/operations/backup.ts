// POST /api/backup/: the embedded database's consistent dump, for `pnpm backup` while the product
// runs (the database is the API process's alone then). Answered on the API's own port only (the
// edge never forwards it), to a token only the data folder's keys can make (the 'backup'
// credential, plugins/credentials.ts); a real server's backup is pg_dump's (see
// docs/operations.md), so it answers 404 there.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Detail, FileAnswer } from '@ejdesk/contract/schemas/common.ts';

export const backupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { database } = app.ctx;
  app.post(
    '/',
    {
      config: { credential: 'backup', secret: true, idempotency: 'repeatable' },
      schema: { response: { 200: FileAnswer('application/gzip'), 401: Detail, 404: Detail } },
    },
    async (_request, reply) => reply.type('application/gzip').send(await database.dump!()),
  );
};
