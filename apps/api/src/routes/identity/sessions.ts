// What the password and the single sign-on routes share: a session begun (its tokens, the refresh
// token also in an HttpOnly cookie), checked (ended by logout, a password change, the provider) and
// ended by its refresh token.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { audit, findActiveUser, revokeToken, type UserRole } from '@ejdesk/db';
import type { AppContext } from '../../context.ts';
import { revokedForUser, sessionOf, type TokenClaims } from '../../lib/tokens.ts';

/** SimpleJWT's answer to a token that is not (or no longer) valid. */
export const tokenNotValid = { detail: 'Token is invalid or expired', code: 'token_not_valid' };

/**
 * The console's refresh token: HttpOnly (no script on the page reads it, a remote's included),
 * Secure, SameSite=Strict (no other site's request carries it) and sent to the auth routes only.
 */
const refreshCookie = 'ejdesk_refresh';
const refreshCookiePath = '/api/auth/';

/**
 * A new session's token pair. The refresh token goes in the answer too: API clients that are not
 * browsers keep it themselves; the console keeps only the cookie.
 */
export function beginSession(
  ctx: AppContext,
  reply: FastifyReply,
  user: { id: number; role: UserRole; mustChangePassword?: boolean },
  { session = ctx.tokens.newId(), sso = false } = {},
): { refresh: string; access: string } {
  const refresh = ctx.tokens.issue(user.id, 'refresh', { jti: session, sso });
  const access = ctx.tokens.issue(user.id, 'access', { role: user.role, passwordChangeRequired: user.mustChangePassword ?? false, sessionId: session, sso });
  void reply.setCookie(refreshCookie, refresh, {
    httpOnly: true,
    secure: true,
    sameSite: 'strict',
    path: refreshCookiePath,
    maxAge: ctx.config.refreshTokenHours * 3600,
  });
  return { refresh, access };
}

function clearRefreshCookie(reply: FastifyReply): void {
  void reply.clearCookie(refreshCookie, { httpOnly: true, secure: true, sameSite: 'strict', path: refreshCookiePath });
}

/** The refresh token a request presents: in its body (API clients), else in the console's cookie. */
export function presentedRefresh(request: FastifyRequest & { body: { refresh?: string | undefined } }): string | undefined {
  return request.body.refresh ?? request.cookies[refreshCookie];
}

/** The answer to a refresh or logout that presents no refresh token at all. */
export const noRefreshToken = { detail: 'No refresh token was sent: the body’s refresh, or the console’s session cookie.', code: 'token_not_valid' };

/** A valid refresh token's claims, or null (answer tokenNotValid). */
export function refreshClaims(ctx: AppContext, refresh: string): TokenClaims | null {
  const claims = ctx.tokens.verify(refresh);
  return claims && claims.token_type === 'refresh' && claims.jti ? claims : null;
}

/**
 * The active user of a token whose session still stands (not logged out, not ended by a password
 * change or reset or by the provider), or undefined.
 */
export async function liveUserOf(ctx: AppContext, claims: TokenClaims) {
  const user = await findActiveUser(ctx.db, claims.user_id, sessionOf(claims));
  return user && !user.sessionEnded && !revokedForUser(claims, user) ? user : undefined;
}

/** The session is refused from now on (its refresh token, and with it its access tokens), and audited. */
export async function endSession(ctx: AppContext, reply: FastifyReply, claims: TokenClaims, ip: string): Promise<void> {
  await revokeToken(ctx.db, claims.jti, new Date(claims.exp * 1000));
  await audit(ctx.db, { userId: claims.user_id, action: 'logout', entity: 'session', ip });
  clearRefreshCookie(reply);
}
