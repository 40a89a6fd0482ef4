// Djoser / SimpleJWT-compatible token endpoints: create (login), verify and refresh; and logout,
// which revokes the refresh token. Every login, failed or not, is in the audit log with its IP.
// The refresh token travels in the body (API clients) or in the console's HttpOnly cookie.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { verifyPassword } from '../../lib/passwords.ts';
import { audit, beginLoginAttempt, findUserByEmail, finishLoginAttempt, passwordHashOf, recordLogin, setOwnPassword } from '@ejdesk/db';
import { hashPassword } from '../../lib/passwords.ts';
import { AccessOnly, ChangePasswordBody, LoginBody, RefreshBody, TokenPair, VerifyBody } from '@ejdesk/contract/schemas/auth.ts';
import { errorResponses } from '@ejdesk/contract/schemas/common.ts';
import { beginSession, endSession, noRefreshToken, liveUserOf, presentedRefresh, refreshClaims, tokenNotValid } from './sessions.ts';

export const passwordSignInRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, tokens, config } = app.ctx;

  app.post(
    '/create/',
    { config: { credential: 'none', secret: true, idempotency: 'repeatable' }, schema: { body: LoginBody, response: { 200: TokenPair, ...errorResponses } } },
    async (request, reply) => {
      const { email, password } = request.body;
      // LOCAL_LOGIN=off: the identity provider is the way in; only the break-glass accounts keep a password.
      if (!config.localLogin.enabled && !config.localLogin.breakGlass.includes(email.trim().toLowerCase())) {
        await audit(db, {
          userId: null,
          action: 'login_failed',
          entity: 'session',
          entityId: email.slice(0, 320),
          ip: request.clientIp,
          detail: 'password sign-in is off',
        });
        const via = config.oidc ? ` Use “Sign in with ${config.oidc.displayName}”.` : '';
        return reply.code(403).send({ detail: `Sign-in with a password is turned off on this server.${via}`, code: 'local_login_off' });
      }
      const attempt = await beginLoginAttempt(db, email, request.clientIp, {
        perAccountIp: config.loginMaxFailures,
        perIp: config.loginMaxFailuresPerIp,
        windowMinutes: config.loginWindowMinutes,
      });
      if (!attempt.allowed) {
        // Counted by the metric, not audited: a flood of refused attempts must not grow the log.
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
      if (!user || !ok) {
        // The address tried is kept as typed (an unknown one too): the log is admins' only.
        await audit(db, { userId: user?.id ?? null, action: 'login_failed', entity: 'session', entityId: email.slice(0, 320), ip: request.clientIp });
        return reply.code(401).send({ detail: 'No active account found with the given credentials' });
      }
      await recordLogin(db, user.id);
      await audit(db, { userId: user.id, action: 'login', entity: 'session', entityId: user.email, ip: request.clientIp });
      // The refresh token's jti names the session; its access tokens carry it, so logout ends them too.
      return beginSession(app.ctx, reply, user);
    },
  );

  // A token is valid as every route finds it: signed, unexpired, its user active and its session
  // not ended (logout, a password change or reset, the provider's logout).
  app.post(
    '/verify/',
    { config: { credential: 'none', idempotency: 'repeatable' }, schema: { body: VerifyBody, response: { 200: Type.Object({}), ...errorResponses } } },
    async (request, reply) => {
      const claims = tokens.verify(request.body.token);
      if (!claims || !(await liveUserOf(app.ctx, claims))) return reply.code(401).send(tokenNotValid);
      return {};
    },
  );

  app.post(
    '/refresh/',
    {
      config: { credential: 'none', secret: true, idempotency: 'repeatable' },
      schema: { body: RefreshBody, response: { 200: AccessOnly, ...errorResponses } },
    },
    async (request, reply) => {
      const presented = presentedRefresh(request);
      if (!presented) return reply.code(401).send(noRefreshToken);
      const claims = refreshClaims(app.ctx, presented);
      if (!claims) return reply.code(401).send(tokenNotValid);
      // A deactivated account loses its session at the next refresh; a changed role shows from it.
      const user = await liveUserOf(app.ctx, claims);
      if (!user) return reply.code(401).send(tokenNotValid);
      return {
        access: tokens.issue(user.id, 'access', {
          role: user.role,
          passwordChangeRequired: user.mustChangePassword,
          sessionId: claims.jti,
          sso: claims.sso === true,
        }),
      };
    },
  );

  // Logout: the refresh token is refused from now on, and with it the session's access tokens.
  // Ending a session twice is fine; a token that is not a valid refresh token is refused.
  app.post(
    '/logout/',
    { config: { credential: 'none', idempotency: 'repeatable' }, schema: { body: RefreshBody, response: { 204: Type.Null(), ...errorResponses } } },
    async (request, reply) => {
      const presented = presentedRefresh(request);
      if (!presented) return reply.code(401).send(noRefreshToken);
      const claims = refreshClaims(app.ctx, presented);
      if (!claims) return reply.code(401).send(tokenNotValid);
      await endSession(app.ctx, reply, claims, request.clientIp);
      return reply.code(204).send(null);
    },
  );

  // One's own password, any role; after an admin's reset the only thing a user can do.
  app.post(
    '/password/',
    { config: { credential: 'password-change' }, schema: { body: ChangePasswordBody, response: { 204: Type.Null(), ...errorResponses } } },
    async (request, reply) => {
      const { old_password, new_password } = request.body;
      const user = request.user!;
      if (!(await verifyPassword(await passwordHashOf(db, user.id), old_password))) {
        return reply.code(400).send({ detail: 'The current password is not right.' });
      }
      if (new_password === old_password) return reply.code(400).send({ detail: 'The new password must differ from the current one.' });
      // Every other session of the user ends: whoever knew the old password may have one.
      await setOwnPassword(db, user.id, await hashPassword(new_password), user.sessionId ?? null);
      return reply.code(204).send(null);
    },
  );
};
