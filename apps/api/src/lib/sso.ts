// EJ Desk as an OpenID Connect relying party (openid-client): the authorization code flow with
// PKCE, state and nonce; the ID token's signature, issuer, audience, expiry and nonce checked by the
// library; the role read from a claim; RP-initiated logout; and the provider's back-channel logout
// tokens checked by jose against the provider's own keys. The provider is discovered at the first
// sign-in (and again after a failure), so the API starts whether or not the provider answers.
import { createHash, randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import { createRemoteJWKSet, customFetch as joseFetch, jwtVerify, type JWTPayload } from 'jose';
import type { UserRole } from '@ejdesk/db';
import type { OidcConfig } from '../config.ts';

/** A refusal to show on the login page and keep in the audit log, in words. */
export class SsoRefusal extends Error {}

export const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');
export const randomToken = () => randomBytes(32).toString('base64url');

export interface SsoIdentityClaims {
  subject: string;
  email: string;
  emailVerified: boolean;
  /** The provider's session id (kept with the session, for a logout token that names only it). */
  sid: string | undefined;
  /** The values found at the role claim (a string becomes one value). */
  roleValues: string[];
}

export interface RelyingParty {
  /** Where to send the browser, and what the callback must find again. */
  begin(): Promise<{ url: string; state: string; nonce: string; codeVerifier: string }>;
  /** The callback's URL checked and redeemed: the identity it proves, and the ID token. */
  finish(callbackUrl: URL, expected: { state: string; nonce: string; codeVerifier: string }): Promise<{ identity: SsoIdentityClaims; idToken: string }>;
  /** The provider's logout page for this session, or null when the provider offers none. */
  endSessionUrl(idToken: string): Promise<string | null>;
  /** A logout token checked: the subject it logs out, its id, and until when it could be replayed. */
  logoutToken(token: string): Promise<{ subject: string; tokenId: string; expiresAt: Date }>;
}

/** The role a user's claim values give: admin first, then operator; null when neither list names one. */
export function roleOf(values: string[], oidc: Pick<OidcConfig, 'adminValues' | 'operatorValues'>): UserRole | null {
  if (values.some((v) => oidc.adminValues.includes(v))) return 'admin';
  if (values.some((v) => oidc.operatorValues.includes(v))) return 'operator';
  return null;
}

/** The value at a dotted path of the claims, as a list of strings. */
function claimValues(claims: Record<string, unknown>, path: string[]): string[] {
  let value: unknown = claims;
  for (const key of path) value = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** openid-client's and the provider's errors, as a person reads them. */
function reasonOf(error: unknown): string {
  if (error instanceof SsoRefusal) return error.message;
  // openid-client's own error says what failed; the check's own words are in its cause.
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error && (error as { code?: string }).code?.startsWith('OAUTH_'))
    return `the ID token or the provider's answer failed a check: ${cause.message}`;
  const e = error as { error?: string; error_description?: string; message?: string; cause?: { message?: string; code?: string } };
  if (e.error) return `the identity provider answered ${e.error}${e.error_description ? ` (${e.error_description})` : ''}`;
  if (e.cause?.code === 'ECONNREFUSED' || e.message === 'fetch failed')
    return `the identity provider could not be reached (${e.cause?.code ?? e.cause?.message ?? 'no answer'})`;
  return `the identity provider's answer was refused: ${e.message ?? String(error)}`;
}

/** A fetch for the library's requests to the provider (tests watch or alter the answers). */
export type SsoFetch = (url: string, options: client.CustomFetchOptions) => Promise<Response>;

export interface RelyingPartyOptions {
  fetch?: SsoFetch;
  /** How far the provider's clock may be off when expiry is checked (the library's default: 30 s). */
  clockToleranceSeconds?: number;
}

export function createRelyingParty(oidc: OidcConfig, options: RelyingPartyOptions = {}): RelyingParty {
  let discovered: Promise<client.Configuration> | undefined;
  let keys: ReturnType<typeof createRemoteJWKSet> | undefined;
  const configuration = () => {
    discovered ??= client
      .discovery(
        new URL(oidc.issuer),
        oidc.clientId,
        options.clockToleranceSeconds === undefined ? undefined : { [client.clockTolerance]: options.clockToleranceSeconds },
        client.ClientSecretBasic(oidc.clientSecret),
        {
          ...(options.fetch && { [client.customFetch]: options.fetch as client.CustomFetch }),
        },
      )
      .then((config) => {
        if (options.fetch) config[client.customFetch] = options.fetch as client.CustomFetch;
        return config;
      });
    // A failed discovery is not kept: the next sign-in asks again.
    return discovered.catch((error: unknown) => {
      discovered = undefined;
      throw new SsoRefusal(reasonOf(error));
    });
  };

  return {
    async begin() {
      const config = await configuration();
      const codeVerifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: oidc.redirectUri,
        scope: oidc.scopes,
        state,
        nonce,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      });
      return { url: url.href, state, nonce, codeVerifier };
    },

    async finish(callbackUrl, expected) {
      const config = await configuration();
      try {
        const tokens = await client.authorizationCodeGrant(
          config,
          callbackUrl,
          { pkceCodeVerifier: expected.codeVerifier, expectedState: expected.state, expectedNonce: expected.nonce, idTokenExpected: true },
          { redirect_uri: oidc.redirectUri },
        );
        const idClaims = tokens.claims()!;
        let claims: Record<string, unknown> = { ...idClaims };
        // Providers put groups and e-mail in the ID token or only behind userinfo: both are read.
        if (config.serverMetadata().userinfo_endpoint) {
          const info = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub);
          // The ID token's claims win where both have one.
          claims = { ...info, ...idClaims };
        }
        const email = typeof claims.email === 'string' ? claims.email : typeof claims.preferred_username === 'string' ? claims.preferred_username : '';
        if (!/^[^@\s]+@[^@\s]+$/.test(email) || email.length > 320) throw new SsoRefusal('the identity provider gave no e-mail address for this user');
        return {
          identity: {
            subject: idClaims.sub,
            email,
            emailVerified: claims.email_verified !== false,
            sid: typeof idClaims.sid === 'string' ? idClaims.sid : undefined,
            roleValues: claimValues(claims, oidc.roleClaim),
          },
          idToken: tokens.id_token!,
        };
      } catch (error) {
        throw new SsoRefusal(reasonOf(error));
      }
    },

    async endSessionUrl(idToken) {
      const config = await configuration().catch(() => null);
      if (!config?.serverMetadata().end_session_endpoint) return null;
      return client.buildEndSessionUrl(config, { id_token_hint: idToken, post_logout_redirect_uri: oidc.postLogoutRedirectUri }).href;
    },

    async logoutToken(token) {
      const config = await configuration();
      const metadata = config.serverMetadata();
      if (!metadata.jwks_uri) throw new SsoRefusal('the identity provider publishes no keys');
      keys ??= createRemoteJWKSet(new URL(metadata.jwks_uri), options.fetch ? { [joseFetch]: options.fetch as never } : {});
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, keys, { issuer: metadata.issuer, audience: oidc.clientId, maxTokenAge: '10 minutes', clockTolerance: 30 }));
      } catch (error) {
        throw new SsoRefusal(`the logout token was refused: ${(error as Error).message}`);
      }
      // OpenID Connect Back-Channel Logout 1.0, section 2.6: the event, no nonce, a subject.
      const events = payload.events as Record<string, unknown> | undefined;
      if (!events || typeof events !== 'object' || !('http://schemas.openid.net/event/backchannel-logout' in events)) {
        throw new SsoRefusal('the logout token names no back-channel logout event');
      }
      if ('nonce' in payload) throw new SsoRefusal('a logout token must not carry a nonce');
      if (typeof payload.sub !== 'string' || !payload.sub) throw new SsoRefusal('the logout token names no subject');
      if (typeof payload.jti !== 'string' || !payload.jti) throw new SsoRefusal('the logout token has no id (jti)');
      // Accepted up to 10 minutes after it was issued (maxTokenAge), and remembered that long.
      return { subject: payload.sub, tokenId: payload.jti.slice(0, 200), expiresAt: new Date(((payload.iat ?? 0) + 600 + 30) * 1000) };
    },
  };
}
