// POST /api/backup/: the embedded database's consistent dump, for `pnpm backup` while the product
// runs (the database is the API process's alone then). Answered on the API's own port only (the
// edge never forwards it), to a token only the data folder's keys can make; a real server's
// backup is pg_dump's (see docs/operations.md), so it answers 404 there.
import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Detail, FileAnswer } from '@ejdesk/contract/schemas/common.ts';
import { sameSecret } from '../../lib/secrets.ts';

/** The token `pnpm backup` presents: derived from the token signing key, which only the data folder (or JWT_SECRET) holds. */
export const backupToken = (jwtSecret: string) => createHash('sha256').update(`ejdesk-backup\n${jwtSecret}`).digest('hex');

export const backupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { database, secrets } = app.ctx;
  app.post(
    '/',
    { config: { secret: true, idempotency: 'repeatable' }, schema: { response: { 200: FileAnswer('application/gzip'), 401: Detail, 404: Detail } } },
    async (request, reply) => {
      if (!database.dump || request.headers['x-ejdesk-proxy']) return reply.code(404).send({ detail: 'Not found.' });
      const bearer = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
      if (!bearer || !sameSecret(bearer, backupToken(secrets.jwtSecret))) return reply.code(401).send({ detail: 'A valid backup token is required.' });
      return reply.type('application/gzip').send(await database.dump());
    },
  );
};
