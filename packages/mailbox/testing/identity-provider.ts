// A real OAuth2 provider for the tests: panva's oidc-provider, serving https on 127.0.0.1 with a
// certificate from the tests' CA. It issues client-credentials tokens (Microsoft 365's app-only
// access) and refreshes delegated grants (Google Workspace's), rotating refresh tokens; Dovecot
// checks every access token by introspection here, with a client of its own. Tokens are opaque,
// so only the provider can say whether one is good.
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import Provider from 'oidc-provider';
import { serverCertificate } from './tls.ts';

/** The scope a mailbox client asks for, as Microsoft's https://outlook.office365.com/.default. */
export const imapScope = 'https://imap.test/.default';

export interface IdentityProvider {
  issuer: string;
  tokenUrl: string;
  introspectionUrl: string;
  /** Dovecot's own client, allowed to introspect the mailbox clients' tokens. */
  introspector: { id: string; secret: string };
  /** Register a client that signs in to `mailbox` with client credentials (app-only access). */
  addAppClient(id: string, secret: string, mailbox: string): Promise<void>;
  /** Register a client and a user's consent to it: the refresh token a person would have obtained. */
  addDelegatedClient(id: string, secret: string, mailbox: string): Promise<string>;
  /** Delete a client and the tokens it holds, as an administrator revoking an app registration does. */
  revokeClient(id: string): Promise<void>;
  /** Revoke every access token issued so far, as an administrator ending all sessions does. */
  revokeIssuedTokens(): Promise<void>;
  /** How many token requests each client made (renewals are counted here, not guessed). */
  tokenRequests: Map<string, number>;
  /** Stop answering (an outage); resume() serves again on the same port with the same state. */
  halt(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
}

export async function startIdentityProvider(options: { caDir: string; accessTokenSeconds?: number; port?: number }): Promise<IdentityProvider> {
  const tls = serverCertificate(options.caDir);
  const ttl = options.accessTokenSeconds ?? 3600;
  const mailboxOf = new Map<string, string>();
  const tokenRequests = new Map<string, number>();
  const introspector = { id: 'dovecot', secret: `introspect-${Math.random().toString(36).slice(2)}` };
  // The issuer names the port, so the provider is made once the server listens (before any request).
  const handler = (req: IncomingMessage, res: ServerResponse) => void provider.callback()(req, res);
  let server: Server = createServer({ key: readFileSync(tls.key), cert: readFileSync(tls.cert) }, handler);
  const sockets = new Set<Socket>();
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      // Node ends an idle keep-alive connection after 5 s; Dovecot's HTTP client keeps one open and
      // does not resend a POST that met the close, which refused good tokens at random.
      server.keepAliveTimeout = 10 * 60_000;
      server.on('connection', (socket: Socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
  const port = await listen(options.port ?? 0);
  const issuer = `https://127.0.0.1:${port}`;
  const provider: Provider = new Provider(issuer, {
    clients: [{ client_id: introspector.id, client_secret: introspector.secret, grant_types: [], redirect_uris: [], response_types: [] }],
    features: {
      clientCredentials: { enabled: true },
      introspection: { enabled: true, allowedPolicy: async (_ctx, client) => client.clientId === introspector.id },
      devInteractions: { enabled: false },
    },
    scopes: ['openid', 'offline_access', imapScope],
    // The mailbox a token may open, in the claim Dovecot reads (username_attribute): app-only
    // tokens name no user, so the client's registration says which mailbox it was granted.
    extraTokenClaims: async (_ctx, token) => ({
      username: 'accountId' in token && token.accountId ? token.accountId : mailboxOf.get(token.clientId ?? ''),
    }),
    ttl: { AccessToken: ttl, ClientCredentials: ttl, RefreshToken: 86400, Grant: 86400 },
    rotateRefreshToken: true,
    findAccount: async (_ctx, id) => ({ accountId: id, claims: async () => ({ sub: id }) }),
  });
  const issued: { clientId?: string | undefined; destroy(): Promise<void> }[] = [];
  provider.on('access_token.saved', (token) => issued.push(token));
  provider.on('client_credentials.saved', (token) => issued.push(token));
  provider.on('grant.success', (ctx) => {
    const id = ctx.oidc.client?.clientId ?? '';
    tokenRequests.set(id, (tokenRequests.get(id) ?? 0) + 1);
  });
  // Clients kept in the provider's storage (its adapter), not its configuration, so that one can be
  // added or deleted while it runs; the typings leave the adapter out.
  const clients = () =>
    (provider.Client as unknown as { adapter: { upsert(id: string, data: object): Promise<void>; destroy(id: string): Promise<void> } }).adapter;
  const register = async (id: string, secret: string, mailbox: string, grants: string[], scope: string) => {
    mailboxOf.set(id, mailbox);
    await clients().upsert(id, {
      client_id: id,
      client_secret: secret,
      grant_types: grants,
      redirect_uris: grants.includes('authorization_code') ? ['https://127.0.0.1/signed-in'] : [],
      response_types: grants.includes('authorization_code') ? ['code'] : [],
      token_endpoint_auth_method: 'client_secret_post',
      scope,
    });
  };
  const halt = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
  return {
    issuer,
    tokenUrl: `${issuer}/token`,
    introspectionUrl: `${issuer}/token/introspection`,
    introspector,
    tokenRequests,
    addAppClient: (id, secret, mailbox) => register(id, secret, mailbox, ['client_credentials'], imapScope),
    async addDelegatedClient(id, secret, mailbox) {
      await register(id, secret, mailbox, ['authorization_code', 'refresh_token'], `openid offline_access ${imapScope}`);
      const client = await provider.Client.find(id);
      const grant = new provider.Grant({ accountId: mailbox, clientId: id });
      grant.addOIDCScope(`openid offline_access ${imapScope}`);
      const grantId = await grant.save();
      const refreshToken = new provider.RefreshToken({
        accountId: mailbox,
        client: client!,
        grantId,
        scope: `openid offline_access ${imapScope}`,
        gty: 'authorization_code',
      });
      return refreshToken.save();
    },
    async revokeIssuedTokens() {
      for (const token of issued.splice(0)) await token.destroy();
    },
    async revokeClient(id) {
      for (const token of issued.filter((t) => t.clientId === id)) await token.destroy();
      await clients().destroy(id);
    },
    halt,
    async resume() {
      server = createServer({ key: readFileSync(tls.key), cert: readFileSync(tls.cert) }, handler);
      await listen(port);
    },
    stop: halt,
  };
}
