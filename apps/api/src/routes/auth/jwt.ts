// Djoser / SimpleJWT-compatible token endpoints: create (login), verify and refresh.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { verifyPassword } from '../../lib/passwords.ts';
import { beginLoginAttempt, findActiveUser, findUserByEmail, finishLoginAttempt, recordLogin } from '@ejdesk/db';
import { AccessOnly, LoginBody, RefreshBody, TokenPair, VerifyBody } from '../../schemas/auth.ts';
import { errorResponses } from '../../schemas/common.ts';

const tokenNotValid = { detail: 'Token is invalid or expired', code: 'token_not_valid' };

export const jwtRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, tokens, config } = app.ctx;

  app.post(
    '/create/',
    { schema: { body: LoginBody, response: { 200: TokenPair, ...errorResponses } } },
    async (request, reply) => {
      const { email, password } = request.body;
      const attempt = await beginLoginAttempt(db, email, request.clientIp, {
        perAccountIp: config.loginMaxFailures,
        perIp: config.loginMaxFailuresPerIp,
        windowMinutes: config.loginWindowMinutes,
      });
      if (!attempt.allowed) {
        app.ctx.metrics.throttled.inc({ scope: attempt.scope });
        const minutes = Math.ceil(attempt.retryAfter / 60);
        return reply
          .code(429)
          .header('retry-after', String(attempt.retryAfter))
          .send({ detail: `Too many failed login attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.` });
      }
      const user = await findUserByEmail(db, email);
      const ok = (await verifyPassword(user?.passwordHash, password)) && !!user?.isActive;
      await finishLoginAttempt(db, attempt.attemptId, ok);
      if (!user || !ok) return reply.code(401).send({ detail: 'No active account found with the given credentials' });
      await recordLogin(db, user.id);
      return { refresh: tokens.issue(user.id, 'refresh'), access: tokens.issue(user.id, 'access', user.role) };
    },
  );

  app.post(
    '/verify/',
    { schema: { body: VerifyBody, response: { 200: Type.Object({}), ...errorResponses } } },
    async (request, reply) => {
      if (!tokens.verify(request.body.token)) return reply.code(401).send(tokenNotValid);
      return {};
    },
  );

  app.post(
    '/refresh/',
    { schema: { body: RefreshBody, response: { 200: AccessOnly, ...errorResponses } } },
    async (request, reply) => {
      const claims = tokens.verify(request.body.refresh);
      if (!claims || claims.token_type !== 'refresh') return reply.code(401).send(tokenNotValid);
      // A deactivated account loses its session at the next refresh; a changed role shows from it.
      const user = await findActiveUser(db, claims.user_id);
      if (!user) return reply.code(401).send(tokenNotValid);
      return { access: tokens.issue(user.id, 'access', user.role) };
    },
  );
};
