// SimpleJWT-compatible tokens: HS256 only (alg:none and other algorithms are refused), with the claims
// token_type, exp, iat, jti and user_id that the operators' client reads.
import { randomUUID } from 'node:crypto';
import { createSigner, createVerifier, TokenError } from 'fast-jwt';
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
  /** On the tokens of a single sign-on session: the console's logout ends the provider's session too. */
  sso?: true;
  /** On access tokens: the session (its refresh token's jti), so that ending it refuses them at once. */
  sid?: string;
  /** When the token was made, to the millisecond: iat's whole seconds cannot order it against a revocation. */
  iat_ms?: number;
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

/** The session a token belongs to: a refresh token's own id, an access token's sid. */
export const sessionOf = (claims: Pick<TokenClaims, 'token_type' | 'jti' | 'sid'>): string | undefined =>
  claims.token_type === 'refresh' ? claims.jti : claims.sid;

/**
 * Whether the user's sessions were ended (a password change or reset, the provider's back-channel
 * logout) after the token was made, unless it belongs to the one session kept (the one the user
 * changed their password in). A token without iat_ms (made before it existed) counts as made at
 * the end of its issue second.
 */
export function revokedForUser(
  claims: Pick<TokenClaims, 'iat' | 'iat_ms' | 'token_type' | 'jti' | 'sid'>,
  user: { sessionsRevokedAt: Date | null; sessionsKeptId: string | null },
): boolean {
  if (user.sessionsRevokedAt === null) return false;
  if (user.sessionsKeptId !== null && sessionOf(claims) === user.sessionsKeptId) return false;
  const madeAt = typeof claims.iat_ms === 'number' ? claims.iat_ms : (claims.iat + 1) * 1000 - 1;
  return madeAt < user.sessionsRevokedAt.getTime();
}

/**
 * Tokens signed with `secret`; those `previousSecret` signed verify too (JWT_PREVIOUS_SECRET, while
 * JWT_SECRET is rotated), so a rolling restart onto a new secret keeps every session.
 */
export function createTokenService(secret: string, lifetimes: Record<TokenType, number>, previousSecret?: string): TokenService {
  const sign = createSigner({ key: secret, algorithm: 'HS256' });
  const checks = [secret, ...(previousSecret ? [previousSecret] : [])].map((key) =>
    createVerifier({ key, algorithms: ['HS256'], requiredClaims: ['exp', 'token_type', 'user_id'] }),
  );
  /** The claims by the first secret whose signature matches (the current one first); throws when none does. */
  const check = (token: string): unknown => {
    let refusal: unknown;
    for (const verify of checks) {
      try {
        return verify(token);
      } catch (error) {
        refusal = error;
        // Only a signature by another secret is worth the next try: expired or malformed is final.
        if ((error as { code?: unknown }).code !== TokenError.codes.invalidSignature) break;
      }
    }
    throw refusal;
  };
  return {
    issue(userId, type, { role, passwordChangeRequired, jti, sso, sessionId } = {}) {
      const now = Date.now();
      const iat = Math.floor(now / 1000);
      const claims: TokenClaims = {
        token_type: type,
        exp: iat + lifetimes[type],
        iat,
        iat_ms: now,
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
