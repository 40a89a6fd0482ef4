// Access-token check for /api/scrape/*: `Authorization: JWT <token>` (the original client) or Bearer.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { findActiveUser } from '@ejdesk/db';

const notProvided = { detail: 'Authentication credentials were not provided.' };
const notValid = { detail: 'Given token not valid for any token type', code: 'token_not_valid' };

export async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const header = request.headers.authorization;
  if (!header) return reply.code(401).send(notProvided);
  const match = /^(?:JWT|Bearer) +(\S+)$/i.exec(header);
  if (!match) return reply.code(401).send(notValid);
  const claims = request.server.ctx.tokens.verify(match[1]!);
  if (!claims || claims.token_type !== 'access') return reply.code(401).send(notValid);
  const user = await findActiveUser(request.server.ctx.db, claims.user_id);
  if (!user) return reply.code(401).send({ detail: 'User not found', code: 'user_not_found' });
  request.user = user;
}

/** Admin-only routes: an operator's token is valid but not enough (403, as DRF words it). */
export async function requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.user?.role !== 'admin') return reply.code(403).send({ detail: 'You do not have permission to perform this action.' });
}
