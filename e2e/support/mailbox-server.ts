// Runs the e2e mailbox: Debian's Dovecot through @ejdesk/mailbox's test helper, an OAuth2 provider
// (oidc-provider) whose tokens that Dovecot accepts for the OAuth2 mailbox, the OpenID provider
// people sign in at (single sign-on), and a control server: POST /append (the raw message as the
// body; ?user= for another mailbox than the password one), POST /halt (an outage: the server
// stops, its mail stays), POST /resume, GET /oauth (the provider's token endpoint and scope),
// POST /person?login= (a JSON body: that person's claims, groups included). Started by
// playwright.config.ts before `pnpm start`.
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { createServer } from 'node:http';
import { createTestCa } from '@ejdesk/mailbox/testing/tls';
import { imapScope, startDovecot, startIdentityProvider, startSignInProvider, type Person } from '@ejdesk/mailbox/testing';
import { caFile, mailbox, oauthMailbox, signInProvider } from './mailbox.ts';

const ca = createTestCa();
mkdirSync(dirname(caFile), { recursive: true });
copyFileSync(ca.certFile, caFile);
const idp = await startIdentityProvider({ caDir: ca.dir });
await idp.addAppClient(oauthMailbox.clientId, oauthMailbox.clientSecret, oauthMailbox.user);
const sso = await startSignInProvider({ caDir: ca.dir, port: signInProvider.port });
await sso.addClient({
  id: signInProvider.clientId,
  secret: signInProvider.clientSecret,
  redirectUri: `${signInProvider.consoleOrigin}/api/auth/oidc/callback/`,
  postLogoutRedirectUri: `${signInProvider.consoleOrigin}/login`,
  backchannelLogoutUri: `${signInProvider.consoleOrigin}/api/auth/oidc/backchannel-logout/`,
});
const dovecot = await startDovecot({
  port: mailbox.imapPort,
  password: mailbox.password,
  oauth2: { introspectionUrl: idp.introspectionUrl, client: idp.introspector, caFile: ca.certFile },
});
const actions: Record<string, (body: Buffer, query: URLSearchParams) => Promise<object | void>> = {
  'GET /health': async () => undefined,
  'GET /oauth': async () => ({ tokenUrl: idp.tokenUrl, scope: imapScope }),
  'POST /append': (body, query) => dovecot.append([body], 'INBOX', query.get('user') ?? undefined),
  'POST /halt': () => dovecot.halt(),
  'POST /resume': () => dovecot.resume(),
  'POST /person': async (body, query) => void sso.people.set(query.get('login') ?? '', JSON.parse(body.toString()) as Person),
};
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  const url = new URL(request.url ?? '/', 'http://control');
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const action = actions[`${request.method} ${url.pathname}`];
    if (!action) return void response.writeHead(404, { 'content-type': 'text/plain' }).end(`No ${request.method} ${url.pathname}`);
    action(Buffer.concat(chunks), url.searchParams).then(
      (answer) => (answer ? response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer)) : response.writeHead(204).end()),
      (err: unknown) => response.writeHead(500, { 'content-type': 'text/plain' }).end(String(err)),
    );
  });
});
server.listen(mailbox.controlPort, '127.0.0.1');
const stop = () => {
  server.close();
  void Promise.all([dovecot.stop(), idp.stop(), sso.stop()]).finally(() => {
    rmSync(ca.dir, { recursive: true, force: true });
    process.exit(0);
  });
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
