// Each route declares the credential it takes, once, in its options (`config: { credential }`):
// the guard below enforces that declaration before the route runs, and the OpenAPI document
// (plugins/openapi.ts) describes the same declaration. A route that declares none stops the API
// at start-up, so no route can forget its check.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { anyDeployToken, deployTokenOf } from '@ejdesk/db';
import { backupToken } from '../lib/backup-token.ts';
import { configuredDeployTokenRecorded } from '../lib/deploy-tokens.ts';
import { sameSecret } from '../lib/secrets.ts';
import { authenticate, authenticateForPasswordChange, requireAdmin } from './authenticate.ts';

/**
 * none: anyone (sign-in, the probes, the registry as remotes.json reads it).
 * user: an operator's or an admin's access token. admin: an admin's access token.
 * password-change: a user's access token, also while they must choose a new password first.
 * deployer: a deploy token (`pnpm remote`). metrics: METRICS_TOKEN, or none on the API's own port.
 * backup: `pnpm backup`'s token, on the API's own port only.
 */
export const credentials = ['none', 'user', 'admin', 'password-change', 'deployer', 'metrics', 'backup'] as const;
export type Credential = (typeof credentials)[number];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route: checked before it runs, and shown as its security in the OpenAPI document. */
    credential?: Credential;
  }
}

type Check = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

const bearerOf = (request: FastifyRequest) => /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '')?.[1];

/** A deploy token, the team's or the configured one; its name and remote go on the request. */
const deployer: Check = async (request, reply) => {
  const { ctx } = request.server;
  await configuredDeployTokenRecorded(ctx);
  const [scheme, token] = String(request.headers.authorization ?? '').split(' ');
  const found = scheme === 'Bearer' && token ? await deployTokenOf(ctx.db, token) : undefined;
  if (found) {
    request.deployToken = found;
    return;
  }
  if (!(await anyDeployToken(ctx.db)))
    return reply.code(403).send({ detail: 'Deploys are not enabled on this API: set REMOTE_DEPLOY_TOKEN, or have an admin create a deploy token.' });
  return reply.code(401).send({ detail: 'A deploy needs a deploy token (Authorization: Bearer TOKEN): its team\u2019s, or REMOTE_DEPLOY_TOKEN.' });
};

/** METRICS_TOKEN as a Bearer token; without one configured, only on the API's own port (never through the shell's proxy). */
const metrics: Check = async (request, reply) => {
  const token = request.server.ctx.config.metricsToken;
  const bearer = bearerOf(request);
  const allowed = token ? bearer !== undefined && sameSecret(bearer, token) : !request.headers['x-ejdesk-proxy'];
  if (!allowed) return reply.code(token ? 401 : 404).send({ detail: token ? 'A valid metrics token is required.' : 'Not found.' });
};

/** On the API's own port only (the edge never forwards it), to a token only the data folder's keys can make. */
const backup: Check = async (request, reply) => {
  const { database, secrets } = request.server.ctx;
  // A real server's backup is pg_dump's: there is nothing here to ask for.
  if (!database.dump || request.headers['x-ejdesk-proxy']) return reply.code(404).send({ detail: 'Not found.' });
  const bearer = bearerOf(request);
  if (!bearer || !sameSecret(bearer, backupToken(secrets.jwtSecret))) return reply.code(401).send({ detail: 'A valid backup token is required.' });
};

/** What each credential asks of a request; each sends its own refusal. */
const checkOf: Record<Credential, Check> = {
  none: async () => undefined,
  user: authenticate,
  admin: async (request, reply) => (await authenticate(request, reply)) ?? requireAdmin(request, reply),
  'password-change': authenticateForPasswordChange,
  deployer,
  metrics,
  backup,
};

/** For a prefix's not-found handler: its unknown paths ask for the prefix's credential (no route declares one). */
export const unknownPathsNeed =
  (credential: Credential): Check =>
  async (request, reply) =>
    request.is404 ? checkOf[credential](request, reply) : undefined;

/** At start-up: every route declares a credential (CORS's answer to a browser's preflight excepted). */
export function requireDeclaredCredentials(app: FastifyInstance): void {
  app.decorateRequest('user', null);
  app.decorateRequest('deployToken', null);
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (route.url === '*' && methods.every((m) => m === 'OPTIONS')) return;
    const declared = route.config?.credential;
    if (declared === undefined || !credentials.includes(declared)) {
      throw new Error(
        `${methods.join(',')} ${route.url} declares no credential: give it config: { credential: ${credentials.map((c) => `'${c}'`).join(' | ')} }.`,
      );
    }
  });
}

/**
 * The guard: each request is checked against its route's declared credential. Registered after the
 * hooks that answer before any credential matters (the database down, the instance draining).
 * An unknown path is checked by the credential of the prefix it is under (routes/index.ts).
 */
export function guardRoutes(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (request.is404) return;
    return checkOf[request.routeOptions.config.credential!](request, reply);
  });
}
