// Single sign-on through the bank's identity provider (OpenID Connect, lib/sso.ts). The browser is
// sent to the provider with state, nonce and PKCE (kept in the database, bound to the browser by a
// cookie); the callback checks them and the ID token, finds or makes the user, and sends the
// browser back to /login with a one-time code that the console exchanges for the same tokens a
// password login gives. Logout ends the provider's session too; the provider's back-channel logout
// ends every session of the user at once. Every sign-in, refusal and logout is audited.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import {
  audit,
  endSsoSession,
  revokeSessionsOfSubject,
  saveSsoHandoff,
  saveSsoRequest,
  ssoSessionOf,
  takeSsoHandoff,
  takeSsoRequest,
  upsertSsoUser,
  findActiveUser,
} from '@ejdesk/db';
import {
  BackchannelLogoutBody,
  Redirect,
  RefreshBody,
  SsoCallbackQuery,
  SsoExchangeBody,
  SsoInfo,
  SsoLogoutAnswer,
  TokenPair,
} from '@ejdesk/contract/schemas/auth.ts';
import { errorResponses } from '@ejdesk/contract/schemas/common.ts';
import { createRelyingParty, randomToken, roleOf, sha256, SsoRefusal, type RelyingParty } from '../../lib/sso.ts';
import { beginSession, endSession, noRefreshToken, presentedRefresh, refreshClaims, tokenNotValid } from './sessions.ts';

const cookieName = 'ejdesk_sso';
const cookiePath = '/api/auth/oidc/';
const notConfigured = { detail: 'Single sign-on is not set up on this server.' };

/** The browser's binding cookie (set when it was sent to the provider), from the Cookie header. */
function bindingOf(request: FastifyRequest): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === cookieName) return value.join('=');
  }
  return undefined;
}

export const singleSignOnRoutes: FastifyPluginAsyncTypebox<{ relyingParty?: RelyingParty }> = async (app, options) => {
  const { db, tokens, config } = app.ctx;
  const oidc = config.oidc;
  const rp = oidc ? (options.relyingParty ?? createRelyingParty(oidc)) : undefined;
  const secure = oidc?.redirectUri.startsWith('https:') ? '; Secure' : '';

  /** Back to the login page, which shows `reason`; the refusal is audited with the client address. */
  const refuse = async (request: FastifyRequest, reply: FastifyReply, reason: string, who?: { userId?: number; subject?: string }) => {
    await audit(db, {
      userId: who?.userId ?? null,
      action: 'sso_refused',
      entity: 'session',
      entityId: who?.subject ? `subject ${who.subject}`.slice(0, 320) : null,
      ip: request.clientIp,
      detail: reason.slice(0, 2000),
    });
    return reply.header('cache-control', 'no-store').redirect(`/login#sso_error=${encodeURIComponent(reason)}`, 302);
  };

  app.get('/', { config: { credential: 'none' }, schema: { response: { 200: SsoInfo } } }, async () => ({
    enabled: Boolean(oidc),
    display_name: oidc?.displayName ?? null,
    local_login: config.localLogin.enabled,
  }));

  // The "Sign in with ..." button: a navigation, so every answer is a redirect.
  app.get('/login/', { config: { credential: 'none' }, schema: { response: { 302: Redirect, 404: errorResponses[404] } } }, async (request, reply) => {
    if (!rp) return reply.code(404).send(notConfigured);
    try {
      const started = await rp.begin();
      const binding = randomToken();
      await saveSsoRequest(db, { stateHash: sha256(started.state), bindingHash: sha256(binding), nonce: started.nonce, codeVerifier: started.codeVerifier });
      return reply
        .header('set-cookie', `${cookieName}=${binding}; Path=${cookiePath}; HttpOnly; SameSite=Lax; Max-Age=600${secure}`)
        .header('cache-control', 'no-store')
        .redirect(started.url, 302);
    } catch (error) {
      if (!(error instanceof SsoRefusal)) throw error;
      return refuse(request, reply, `Single sign-on is unavailable: ${error.message}.`);
    }
  });

  app.get(
    '/callback/',
    {
      config: { credential: 'none' },
      schema: { querystring: SsoCallbackQuery, response: { 302: Redirect, 400: errorResponses[400], 404: errorResponses[404] } },
    },
    async (request, reply) => {
      if (!rp || !oidc) return reply.code(404).send(notConfigured);
      const { state, error, error_description: description } = request.query;
      // The request is taken whatever happens next: a state is good for one callback only.
      const pending = state ? await takeSsoRequest(db, sha256(state)) : undefined;
      reply.header('set-cookie', `${cookieName}=; Path=${cookiePath}; HttpOnly; SameSite=Lax; Max-Age=0${secure}`);
      if (error) return refuse(request, reply, `The identity provider refused the sign-in: ${error}${description ? ` (${description})` : ''}.`);
      if (!pending) return refuse(request, reply, 'The sign-in link is not valid: it was used already, has expired, or was altered. Sign in again.');
      const binding = bindingOf(request);
      if (!binding || sha256(binding) !== pending.bindingHash) {
        return refuse(request, reply, 'The sign-in was started in another browser (or its cookie was lost). Sign in again from this one.');
      }
      let identity;
      let idToken;
      try {
        const callbackUrl = new URL(oidc.redirectUri);
        callbackUrl.search = new URL(request.url, 'http://callback').search;
        ({ identity, idToken } = await rp.finish(callbackUrl, { state: state!, nonce: pending.nonce, codeVerifier: pending.codeVerifier }));
      } catch (err) {
        if (!(err instanceof SsoRefusal)) throw err;
        return refuse(request, reply, `The sign-in could not be completed: ${err.message}.`);
      }
      const role = roleOf(identity.roleValues, oidc);
      if (!role) {
        return refuse(request, reply, `${identity.email} is in neither the admins’ nor the operators’ group for EJ Desk. Ask your administrator for access.`, {
          subject: identity.subject,
        });
      }
      const user = await upsertSsoUser(db, { subject: identity.subject, email: identity.email, emailVerified: identity.emailVerified, role });
      if ('refused' in user) {
        return refuse(request, reply, `${identity.email} cannot sign in: ${user.refused}.`, { userId: user.id, subject: identity.subject });
      }
      const code = randomToken();
      await saveSsoHandoff(db, {
        userId: user.id,
        handoffHash: sha256(code),
        idToken,
        sid: identity.sid ?? null,
        expiresAt: new Date(Date.now() + config.refreshTokenHours * 3600_000),
      });
      const detail = [`subject ${identity.subject}`, user.created ? `account created as ${user.role}` : '', ...user.changes].filter(Boolean).join('; ');
      await audit(db, { userId: user.id, action: 'sso_login', entity: 'session', entityId: user.email, ip: request.clientIp, detail });
      return reply.header('cache-control', 'no-store').redirect(`/login#sso=${code}`, 302);
    },
  );

  // The console's half: the one-time code for the tokens (the same pair as a password login).
  app.post(
    '/session/',
    {
      config: { credential: 'none', secret: true, idempotency: 'repeatable' },
      schema: { body: SsoExchangeBody, response: { 200: TokenPair, ...errorResponses } },
    },
    async (request, reply) => {
      // The refresh token's id is recorded with the session as the code is taken, then the token is made.
      const jti = tokens.newId();
      const taken = await takeSsoHandoff(db, sha256(request.body.code), jti, new Date(Date.now() + config.refreshTokenHours * 3600_000));
      const user = taken && (await findActiveUser(db, taken.userId));
      if (!user) return reply.code(400).send({ detail: 'The sign-in code is not valid (used already, or expired). Sign in again.' });
      return beginSession(app.ctx, reply, user, { session: jti, sso: true });
    },
  );

  // Logout of a session begun at the provider: the refresh token ends here, and the answer says
  // where the browser goes to end the provider's session too.
  app.post(
    '/logout/',
    { config: { credential: 'none', idempotency: 'repeatable' }, schema: { body: RefreshBody, response: { 200: SsoLogoutAnswer, ...errorResponses } } },
    async (request, reply) => {
      const presented = presentedRefresh(request);
      if (!presented) return reply.code(401).send(noRefreshToken);
      const claims = refreshClaims(app.ctx, presented);
      if (!claims) return reply.code(401).send(tokenNotValid);
      const session = await ssoSessionOf(db, claims.jti);
      await endSession(app.ctx, reply, claims, request.clientIp);
      await endSsoSession(db, claims.jti);
      return { redirect: session && rp ? await rp.endSessionUrl(session.idToken) : null };
    },
  );

  // OpenID Connect Back-Channel Logout: the provider posts a signed logout token.
  app.post(
    '/backchannel-logout/',
    { config: { credential: 'none', idempotency: 'repeatable' }, schema: { body: BackchannelLogoutBody, response: { 200: Type.Null(), ...errorResponses } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (!rp) return reply.code(404).send(notConfigured);
      try {
        const { subject, tokenId, expiresAt } = await rp.logoutToken(request.body.logout_token);
        const ended = await revokeSessionsOfSubject(db, { subject, logoutTokenId: tokenId, logoutTokenExpiresAt: expiresAt, ip: request.clientIp });
        // A subject nobody here has is no error (the provider logs out of every client at once), nor
        // is a logout token seen before (it ended those sessions then, and must not end later ones).
        if (ended !== 'ended') request.log.info({ subject, ended }, 'back-channel logout with nothing to end');
        return reply.code(200).send(null);
      } catch (error) {
        if (!(error instanceof SsoRefusal)) throw error;
        await audit(db, { userId: null, action: 'sso_refused', entity: 'session', ip: request.clientIp, detail: error.message.slice(0, 2000) });
        return reply.code(400).send({ detail: error.message, code: 'invalid_request' });
      }
    },
  );
};
