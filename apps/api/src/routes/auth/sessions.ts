// What the password and the single sign-on logouts share: a session ended by its refresh token.
import { audit, revokeToken } from '@ejdesk/db';
import type { AppContext } from '../../context.ts';
import type { TokenClaims } from '../../lib/tokens.ts';

/** SimpleJWT's answer to a token that is not (or no longer) valid. */
export const tokenNotValid = { detail: 'Token is invalid or expired', code: 'token_not_valid' };

/** A valid refresh token's claims, or null (answer tokenNotValid). */
export function refreshClaims(ctx: AppContext, refresh: string): TokenClaims | null {
  const claims = ctx.tokens.verify(refresh);
  return claims && claims.token_type === 'refresh' && claims.jti ? claims : null;
}

/** The session is refused from now on (its refresh token, and with it its access tokens), and audited. */
export async function endSession(ctx: AppContext, claims: TokenClaims, ip: string): Promise<void> {
  await revokeToken(ctx.db, claims.jti, new Date(claims.exp * 1000));
  await audit(ctx.db, { userId: claims.user_id, action: 'logout', entity: 'session', ip });
}
