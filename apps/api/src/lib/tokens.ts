// SimpleJWT-compatible tokens: HS256 only (alg:none and other algorithms are refused), with the claims
// token_type, exp, iat, jti and user_id that the operators' client reads.
import { randomUUID } from 'node:crypto';
import { createSigner, createVerifier } from 'fast-jwt';
import type { UserRole } from '@ejdesk/db';

export type TokenType = 'access' | 'refresh';

export interface TokenClaims {
  token_type: TokenType;
  exp: number;
  iat: number;
  jti: string;
  user_id: number;
  /** On access tokens: what the console shows the user (the API checks the account on every request). */
  role?: UserRole;
  /** On access tokens after an admin's reset: the console asks for a new password first. */
  password_change_required?: true;
  /** On refresh tokens of a single sign-on: the console's logout ends the provider's session too. */
  sso?: true;
  /** On access tokens: the session (its refresh token's jti), so that ending it refuses them at once. */
  sid?: string;
}

interface IssueOptions {
  role?: UserRole | undefined;
  passwordChangeRequired?: boolean;
  /** A refresh token's id chosen by the caller (recorded with its session before it is issued). */
  jti?: string;
  sso?: boolean;
  /** An access token's session: its refresh token's jti. */
  sessionId?: string;
}

export interface TokenService {
  issue(userId: number, type: TokenType, options?: IssueOptions): string;
  /** The claims of a valid, unexpired token of any type, or null. */
  verify(token: string): TokenClaims | null;
  /** A new token id (for a session recorded before its token is issued). */
  newId(): string;
}

/**
 * Whether the user's sessions were all ended (the provider's back-channel logout) after the token was
 * issued: its whole issue second (iat has no finer grain) lies before that moment.
 */
export const revokedForUser = (claims: Pick<TokenClaims, 'iat'>, user: { sessionsRevokedAt: Date | null }) =>
  user.sessionsRevokedAt !== null && (claims.iat + 1) * 1000 <= user.sessionsRevokedAt.getTime();

export function createTokenService(secret: string, lifetimes: Record<TokenType, number>): TokenService {
  const sign = createSigner({ key: secret, algorithm: 'HS256' });
  const check = createVerifier({ key: secret, algorithms: ['HS256'], requiredClaims: ['exp', 'token_type', 'user_id'] });
  return {
    issue(userId, type, { role, passwordChangeRequired, jti, sso, sessionId } = {}) {
      const iat = Math.floor(Date.now() / 1000);
      const claims: TokenClaims = {
        token_type: type,
        exp: iat + lifetimes[type],
        iat,
        jti: jti ?? this.newId(),
        user_id: userId,
        ...(role ? { role } : {}),
        ...(passwordChangeRequired ? { password_change_required: true as const } : {}),
        ...(sso ? { sso: true as const } : {}),
        ...(sessionId ? { sid: sessionId } : {}),
      };
      return sign(claims);
    },
    newId: () => randomUUID().replaceAll('-', ''),
    verify(token) {
      try {
        const claims = check(token) as Partial<TokenClaims>;
        if (claims.token_type !== 'access' && claims.token_type !== 'refresh') return null;
        // A user id the database can hold (a serial): a forged huge id must not reach a query.
        const id = claims.user_id;
        if (typeof id !== 'number' || !Number.isInteger(id) || id < 1 || id > 2_147_483_647) return null;
        return claims as TokenClaims;
      } catch {
        return null;
      }
    },
  };
}
