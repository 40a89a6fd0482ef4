// The access-token checks behind the 'user', 'admin' and 'password-change' credentials
// (plugins/credentials.ts): `Authorization: JWT <token>` (the original client) or Bearer.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { findActiveUser } from '@ejdesk/db';
import { revokedForUser } from '../lib/tokens.ts';
import { retriedForWrite } from './idempotency.ts';

const notProvided = { detail: 'Authentication credentials were not provided.' };
const notValid = { detail: 'Given token not valid for any token type', code: 'token_not_valid' };

/** Puts the token's active user on the request; otherwise sends the 401 and returns the reply. */
async function signIn(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  const header = request.headers.authorization;
  if (!header) return reply.code(401).send(notProvided);
  const match = /^(?:JWT|Bearer) +(\S+)$/i.exec(header);
  if (!match) return reply.code(401).send(notValid);
  const claims = request.server.ctx.tokens.verify(match[1]!);
  if (!claims || claims.token_type !== 'access') return reply.code(401).send(notValid);
  const { db } = request.server.ctx;
  const user = await retriedForWrite(request, db, () => findActiveUser(db, claims.user_id, claims.sid));
  if (!user) return reply.code(401).send({ detail: 'User not found', code: 'user_not_found' });
  // A session ended by logout or by the identity provider: at once, not when the token lapses.
  if (user.sessionEnded || revokedForUser(claims, user)) return reply.code(401).send(notValid);
  request.user = { ...user, sessionId: claims.sid };
  return undefined;
}

/** Every route's check: a valid token of an active user who has no password to choose first. */
export async function authenticate(request: FastifyRequest, reply: FastifyReply) {
  const refused = await signIn(request, reply);
  if (refused) return refused;
  // After an admin's reset the user's one way on is choosing their own password (POST /api/auth/jwt/password/).
  if (request.user!.mustChangePassword) return reply.code(403).send({ detail: 'Choose a new password first.', code: 'password_change_required' });
}

/** The password change itself: allowed while a new password is due. */
export const authenticateForPasswordChange = signIn;

/** Admin-only routes: an operator's token is valid but not enough (403, as DRF words it). */
export async function requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.user?.role !== 'admin') return reply.code(403).send({ detail: 'You do not have permission to perform this action.' });
}
