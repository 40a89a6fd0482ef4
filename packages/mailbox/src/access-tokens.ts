// OAuth2 access tokens for signing in to IMAP, from the bank's identity provider through
// openid-client: client credentials (Microsoft 365) or a refresh token (Google Workspace).
// A token is reused until shortly before it expires, the margin a tenth of its lifetime (so a
// provider's five-minute tokens and its hour-long ones both work), and renewed early on demand
// when the IMAP server refuses it.
import { request as httpsRequest } from 'node:https';
import * as oauth from 'openid-client';
import type { MailboxAuth } from './settings.ts';
import { lookupOf, type Pinned } from './targets.ts';

type OAuthMailbox = Exclude<MailboxAuth, { method: 'password' }>;

interface AccessToken {
  value: string;
  /** When it was issued and when it stops being good (ms since the epoch; an hour unless the provider says). */
  issuedAt: number;
  expiresAt: number;
  /** Whether this token had been used before (an IMAP refusal then earns one retry with a new one). */
  reused: boolean;
}

/** A provider's refusal or an unreachable provider, in the words Mail Flow shows. */
export class SignInError extends Error {
  override name = 'SignInError';
}

/**
 * A network-level failure of Test connection, in the same words however it failed (refused, timed
 * out, not the expected protocol), so an answer never tells an open port from a closed one. The
 * cause keeps the real reason for the API's log.
 */
export class Unreachable extends SignInError {
  override name = 'Unreachable';
}

/** Where a Test connection may go: the checked addresses, and the time a network-level failure takes. */
export interface Reach {
  imap: Pinned;
  /** The OAuth2 token endpoint's host, checked (OAuth2 only). */
  tokenEndpoint?: Pinned | undefined;
  /** Every network-level failure is answered this long after its attempt began, never sooner. */
  failureMs: number;
}

/** Waits until `ms` after `since`, then throws `err`. */
export async function failAfter(since: number, ms: number, err: Error): Promise<never> {
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, since + ms - Date.now())));
  throw err;
}

const largestAnswer = 1024 * 1024;

/**
 * fetch for openid-client that connects to the token endpoint's checked addresses only (the name
 * stays for SNI and the certificate check), gives up after `timeoutMs`, and reads at most 1 MiB.
 */
function pinnedFetch(pinned: Pinned, timeoutMs: number) {
  return (url: string, options: oauth.CustomFetchOptions) =>
    new Promise<Response>((resolve, reject) => {
      const signal = options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
      const request = httpsRequest(url, { method: options.method, headers: options.headers, lookup: lookupOf(pinned), signal }, (answer) => {
        const chunks: Buffer[] = [];
        let size = 0;
        answer.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > largestAnswer) return request.destroy(new Error('the token endpoint answered more than 1 MiB'));
          chunks.push(chunk);
        });
        answer.on('error', reject);
        answer.on('end', () => {
          const status = answer.statusCode ?? 0;
          const headers = new Headers();
          for (const [name, value] of Object.entries(answer.headers)) for (const one of [value ?? []].flat()) headers.append(name, one);
          const empty = [204, 205, 304].includes(status);
          try {
            resolve(new Response(empty ? null : Buffer.concat(chunks), { status, statusText: answer.statusMessage ?? '', headers }));
          } catch (err) {
            reject(err);
          }
        });
      });
      request.on('error', (err) => reject(new TypeError('fetch failed', { cause: err })));
      request.end(options.body instanceof URLSearchParams ? options.body.toString() : (options.body as string | undefined));
    });
}

const DEFAULT_LIFETIME_SECONDS = 3600;

/** Node's network error codes, in words (the code stays for whoever searches for it). */
const networkWords: Record<string, string> = {
  ECONNREFUSED: 'connection refused, ECONNREFUSED',
  ECONNRESET: 'the connection was closed, ECONNRESET',
  UND_ERR_SOCKET: 'the connection was closed, UND_ERR_SOCKET',
  ENOTFOUND: 'no such host, ENOTFOUND',
  EAI_AGAIN: 'the host name could not be looked up, EAI_AGAIN',
  ETIMEDOUT: 'timed out, ETIMEDOUT',
  UND_ERR_CONNECT_TIMEOUT: 'timed out, UND_ERR_CONNECT_TIMEOUT',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its certificate is not trusted (see NODE_EXTRA_CA_CERTS), UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  SELF_SIGNED_CERT_IN_CHAIN: 'its certificate is not trusted (see NODE_EXTRA_CA_CERTS), SELF_SIGNED_CERT_IN_CHAIN',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its certificate is not trusted (see NODE_EXTRA_CA_CERTS), DEPTH_ZERO_SELF_SIGNED_CERT',
};

/** What went wrong with a token request, for an operator: the provider's error, never a secret. */
function describe(err: unknown, tokenUrl: string): string {
  if (err instanceof oauth.ResponseBodyError) return `${err.error}${err.error_description ? ` (${err.error_description})` : ''}`;
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  if (err instanceof TypeError && cause)
    return `the token endpoint ${tokenUrl} could not be reached (${networkWords[cause.code ?? ''] ?? cause.code ?? cause.message})`;
  if (err instanceof oauth.ClientError) return `the token endpoint answered in a way that is not OAuth2 (${err.message})`;
  return (err as Error).message;
}

export class AccessTokens {
  private current: AccessToken | null = null;
  private pending: Promise<AccessToken> | null = null;
  private readonly config: oauth.Configuration;
  private refreshToken: string | undefined;

  /**
   * `onRotated` keeps a refresh token the provider replaced (the old one may stop working). With
   * `reach` (Test connection) only the checked token endpoint is reached, and any failure short of
   * the provider's OAuth2 answer is an Unreachable.
   */
  constructor(
    private readonly auth: OAuthMailbox,
    private readonly onRotated: (refreshToken: string) => Promise<void> = async () => undefined,
    private readonly now: () => number = Date.now,
    private readonly reach?: Reach,
  ) {
    const secret = auth.clientSecret;
    // The token endpoint is all EJ Desk needs of the provider: no discovery, so Microsoft's
    // tenant-specific endpoint and Google's shared one are given the same way.
    this.config = new oauth.Configuration(
      { issuer: new URL(auth.tokenUrl).origin, token_endpoint: auth.tokenUrl },
      auth.clientId,
      undefined,
      secret ? oauth.ClientSecretPost(secret) : oauth.None(),
    );
    if (reach?.tokenEndpoint) this.config[oauth.customFetch] = pinnedFetch(reach.tokenEndpoint, reach.failureMs);
    if (auth.method === 'oauth2-refresh-token') this.refreshToken = auth.refreshToken;
  }

  /** A token good for a while yet: the cached one, else a new one. */
  async get(): Promise<AccessToken> {
    const token = this.current;
    if (token && this.now() < token.expiresAt - (token.expiresAt - token.issuedAt) / 10) return { ...token, reused: true };
    return this.renew();
  }

  /** A new token, whatever the cache holds (one request at a time; callers meanwhile share it). */
  renew(): Promise<AccessToken> {
    this.pending ??= this.request().finally(() => (this.pending = null));
    return this.pending;
  }

  private async request(): Promise<AccessToken> {
    const auth = this.auth;
    let answer: oauth.TokenEndpointResponse & oauth.TokenEndpointResponseHelpers;
    const began = Date.now();
    try {
      answer =
        auth.method === 'oauth2-client-credentials'
          ? await oauth.clientCredentialsGrant(this.config, { scope: auth.scope })
          : await oauth.refreshTokenGrant(this.config, this.refreshToken!, auth.scope ? { scope: auth.scope } : undefined);
    } catch (err) {
      this.current = null;
      // Only a provider's OAuth2 refusal keeps its words in a Test connection: anything short of it
      // (no answer, not HTTPS, not OAuth2) reads and takes the same.
      if (this.reach && !(err instanceof oauth.ResponseBodyError)) {
        const url = new URL(auth.tokenUrl);
        return failAfter(
          began,
          this.reach.failureMs,
          new Unreachable(`Could not get an access token from the token endpoint at ${url.hostname}:${url.port || 443}.`, { cause: err }),
        );
      }
      throw new SignInError(`authentication failed: ${describe(err, auth.tokenUrl)}`, { cause: err });
    }
    if (answer.refresh_token && answer.refresh_token !== this.refreshToken) {
      this.refreshToken = answer.refresh_token;
      await this.onRotated(answer.refresh_token);
    }
    const issuedAt = this.now();
    this.current = { value: answer.access_token, issuedAt, expiresAt: issuedAt + (answer.expiresIn() ?? DEFAULT_LIFETIME_SECONDS) * 1000, reused: false };
    return this.current;
  }
}
