// A real OpenID provider for people's sign-in in the tests: panva's oidc-provider serving https on
// 127.0.0.1 (a certificate from the tests' CA), with discovery, JWKS, the authorization code flow
// with PKCE (required), its own login page (oidc-provider's development interactions), userinfo,
// RP-initiated logout and back-channel logout. Its people and their groups are the test's to
// change; claims are released through userinfo, as most providers do by default.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import Provider, { type AdapterPayload } from 'oidc-provider';
import { serverCertificate } from './tls.ts';

export interface Person {
  email: string;
  name?: string;
  groups?: string[];
  email_verified?: boolean;
}

export interface SignInClient {
  id: string;
  secret: string;
  redirectUri: string;
  postLogoutRedirectUri?: string;
  backchannelLogoutUri?: string;
}

export interface SignInProvider {
  issuer: string;
  /** People who can sign in, by their login (the subject); change one to change their claims. */
  people: Map<string, Person>;
  addClient(client: SignInClient): Promise<void>;
  /** Seconds an ID token is valid for, from now on. */
  setIdTokenSeconds(seconds: number): void;
  /** The provider's own back-channel logout of `subject` at the client (its logout token, posted; shown to `seen`). */
  backchannelLogout(clientId: string, subject: string, seen?: (logoutToken: string) => void): Promise<void>;
  /** Back-channel logouts the provider sent, and how each ended. */
  backchannelResults: { clientId: string; subject: string; ok: boolean; error?: string }[];
  stop(): Promise<void>;
}

export async function startSignInProvider(options: {
  caDir: string;
  port?: number;
  /** How the provider reaches the clients' back-channel logout URIs (its default refuses loopback). */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
}): Promise<SignInProvider> {
  const tls = serverCertificate(options.caDir);
  const people = new Map<string, Person>();
  let idTokenSeconds = 3600;
  let watchLogoutTokens: ((token: string) => void) | undefined;
  const backchannelResults: SignInProvider['backchannelResults'] = [];
  // The issuer names the port, so the provider is made once the server listens (before any request).
  const handler = { provider: undefined as Provider | undefined };
  const server: Server = createServer({ key: readFileSync(tls.key), cert: readFileSync(tls.cert) }, (req, res) => void handler.provider!.callback()(req, res));
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
  const issuer = `https://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [],
    features: {
      devInteractions: { enabled: true },
      backchannelLogout: { enabled: true },
      rpInitiatedLogout: { enabled: true },
    },
    pkce: { required: () => true },
    claims: { openid: ['sub', 'sid'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
    scopes: ['openid', 'email', 'profile', 'groups'],
    // No consent page: the bank's own app is consented for every employee, as an admin does once.
    loadExistingGrant: async (ctx) => {
      const accountId = ctx.oidc.session?.accountId;
      const clientId = ctx.oidc.client?.clientId;
      if (!accountId || !clientId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ accountId, clientId });
      grant.addOIDCScope('openid email profile groups');
      await grant.save();
      return grant;
    },
    findAccount: async (_ctx, id) => {
      const person = people.get(id);
      return person ? { accountId: id, claims: async () => ({ sub: id, email_verified: true, ...person }) } : undefined;
    },
    ttl: { IdToken: () => idTokenSeconds, AccessToken: 600, Session: 3600, Interaction: 600, Grant: 3600 },
    cookies: { keys: ['ejdesk-test-provider-cookie-key'] },
    // The provider posts logout tokens through this (its own fetch refuses loopback addresses).
    fetch: (input: string | URL | Request, init: RequestInit & { dispatcher?: unknown } = {}) => {
      delete init.dispatcher;
      const url = input instanceof Request ? input.url : String(input);
      if (init.body instanceof URLSearchParams && init.body.has('logout_token')) watchLogoutTokens?.(init.body.get('logout_token')!);
      return options.fetch ? options.fetch(url, init) : fetch(url, init);
    },
  });
  handler.provider = provider;
  provider.on('backchannel.success', (_ctx, client, accountId) => backchannelResults.push({ clientId: client.clientId, subject: accountId, ok: true }));
  provider.on('backchannel.error', (_ctx, error, client, accountId) =>
    backchannelResults.push({ clientId: client.clientId, subject: accountId, ok: false, error: String(error) }),
  );
  const clients = () => (provider.Client as unknown as { adapter: { upsert(id: string, data: AdapterPayload): Promise<void> } }).adapter;
  return {
    issuer,
    people,
    backchannelResults,
    setIdTokenSeconds: (seconds) => void (idTokenSeconds = seconds),
    async addClient(c) {
      await clients().upsert(c.id, {
        client_id: c.id,
        client_secret: c.secret,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: [c.redirectUri],
        post_logout_redirect_uris: c.postLogoutRedirectUri ? [c.postLogoutRedirectUri] : [],
        token_endpoint_auth_method: 'client_secret_basic',
        ...(c.backchannelLogoutUri && { backchannel_logout_uri: c.backchannelLogoutUri, backchannel_logout_session_required: false }),
      } as AdapterPayload);
    },
    async backchannelLogout(clientId, subject, seen) {
      const client = await provider.Client.find(clientId);
      if (!client) throw new Error(`no client ${clientId}`);
      watchLogoutTokens = seen;
      try {
        await (client as unknown as { backchannelLogout(sub: string, sid?: string): Promise<void> }).backchannelLogout(subject);
        backchannelResults.push({ clientId, subject, ok: true });
      } catch (error) {
        backchannelResults.push({ clientId, subject, ok: false, error: String(error) });
      } finally {
        watchLogoutTokens = undefined;
      }
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/** Cookies as a browser keeps them: by name and path, sent where their path applies. */
class CookieJar {
  private readonly cookies = new Map<string, { value: string; path: string }>();
  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, ...value] = pair!.trim().split('=');
      const path =
        attributes
          .map((a) => a.trim())
          .find((a) => a.toLowerCase().startsWith('path='))
          ?.slice(5) ?? '/';
      const expired = attributes.some((a) => /^\s*max-age=0/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired) this.cookies.delete(`${name}\n${path}`);
      else this.cookies.set(`${name}\n${path}`, { value: value.join('='), path });
    }
  }
  header(url: URL): string {
    return [...this.cookies]
      .filter(([, c]) => url.pathname.startsWith(c.path))
      .map(([key, c]) => `${key.split('\n')[0]}=${c.value}`)
      .join('; ');
  }
}

/**
 * A person signing in at the provider's own login page, as a browser would (its cookies, its
 * redirects), from the authorization URL to the redirect back to the client: that URL, with the
 * code and state (or the provider's error). `abort` is the person choosing to cancel.
 */
export async function signInAtProvider(authorizationUrl: string, login: string, options: { abort?: boolean } = {}): Promise<URL> {
  const jar = new CookieJar();
  const go = async (url: URL, init: RequestInit = {}) => {
    const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...init.headers, cookie: jar.header(url) } });
    jar.take(response);
    return response;
  };
  let url = new URL(authorizationUrl);
  const origin = url.origin;
  for (let hop = 0; hop < 10; hop++) {
    if (url.origin !== origin) return url; // back at the client
    const response = await go(url);
    if (response.status >= 300 && response.status < 400) {
      url = new URL(response.headers.get('location')!, url);
      continue;
    }
    const page = await response.text();
    const action = /action="([^"]+)"/.exec(page)?.[1];
    if (!action || !page.includes('name="login"')) throw new Error(`the provider showed no login form (${response.status}): ${page.slice(0, 300)}`);
    if (options.abort) {
      const abort = /href="([^"]+\/abort)"/.exec(page)?.[1];
      url = new URL(abort!, url);
      continue;
    }
    const submitted = await go(new URL(action, url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ prompt: 'login', login, password: 'any' }),
    });
    if (submitted.status < 300 || submitted.status >= 400) throw new Error(`the provider refused the login form: ${submitted.status}`);
    url = new URL(submitted.headers.get('location')!, url);
  }
  throw new Error('too many redirects at the provider');
}
