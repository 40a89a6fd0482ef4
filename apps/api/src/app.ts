// Builds the API: plugins, then the routes, whose folders are the data domains (routes/index.ts).
// Used by the server and by tests.
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Database } from '@ejdesk/db';
import type { ApiConfig } from './config.ts';
import type { AppContext, RouteInfo } from './context.ts';
import { createLiveHub } from './lib/live.ts';
import { createTokenService } from './lib/tokens.ts';
import { sameSecret, type Secrets } from './lib/secrets.ts';
import { answerClientError, bodyLimit, discardUnreadBody } from '@ejdesk/http';
import { registerBodies } from './plugins/bodies.ts';
import { databaseUnavailable, registerErrorHandling } from './plugins/errors.ts';
import { createMetrics, registerMetrics } from './plugins/metrics.ts';
import { registerSecurity } from './plugins/security.ts';
import { registerValidation } from './plugins/validation.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { guardRoutes, requireDeclaredCredentials } from './plugins/credentials.ts';
import { registerIdempotency, requestScopedDb } from './plugins/idempotency.ts';
import { createRelyingParty, type RelyingPartyOptions } from './lib/sso.ts';
import { registerRoutes } from './routes/index.ts';

interface BuildOptions {
  database: Database;
  config: ApiConfig;
  secrets: Secrets;
  logger?: FastifyServerOptions['logger'];
  /** Whether migrations have been applied; the server starts with false when the database is down. */
  migrated?: boolean;
  /** How single sign-on reaches the identity provider (tests watch or alter its answers). */
  sso?: RelyingPartyOptions;
}

/** Paths that answer whatever the database's state: the probes and the metrics. */
const opsPath = /^\/api\/(health|ready|metrics)\/?(\?|$)/;
const livenessPath = /^\/api\/health\/?(\?|$)/;

export async function buildApp({ database, config, secrets, logger = false, migrated = true, sso }: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    bodyLimit,
    // An explicit TRUST_PROXY (an ingress in front) is honoured as is; by default only the shell's
    // proxy is believed, by its shared secret (see clientIp below).
    trustProxy: config.trustProxy,
    return503OnClosing: true,
    // Malformed HTTP that never reaches a route (unknown method, headers or URL too long).
    clientErrorHandler: answerClientError,
    // A path parameter is the route's to judge, however long (its schema bounds it): a long id is
    // answered 400 like any malformed one, after the route's credential. The HTTP layer's limit on
    // a request's head (16 KB) comes first.
    routerOptions: { maxParamLength: 16_384 },
    // The router's own refusals (a malformed URL, a parameter past even that length): 400 too.
    frameworkErrors: (error, _request, reply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      void (reply as FastifyReply).code(400).send({ detail: tooLong ? 'path: a parameter is too long.' : 'The URL is malformed.' });
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const ctx: AppContext = {
    db: requestScopedDb(database.db),
    database,
    config,
    secrets,
    tokens: createTokenService(
      secrets.jwtSecret,
      {
        access: config.accessTokenMinutes * 60,
        refresh: config.refreshTokenHours * 3600,
      },
      secrets.jwtPreviousSecret,
    ),
    metrics: createMetrics(database, () => ctx.exports.inFlight),
    status: { migrated, draining: false, passedOn: 0 },
    exports: { inFlight: 0 },
    routes: [],
    ingest: {},
    live: createLiveHub(database, { stallAfterSeconds: config.stallAfterSeconds }),
  };
  app.decorate('ctx', ctx);
  // Before any route: each must declare its credential (plugins/credentials.ts).
  requireDeclaredCredentials(app);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) ctx.routes.push({ method, url: route.url, schema: route.schema as RouteInfo['schema'] });
  });

  app.decorateRequest('clientIp', '');
  app.addHook('onRequest', async (request) => {
    const proxied =
      config.proxySecret && typeof request.headers['x-ejdesk-proxy'] === 'string' && sameSecret(request.headers['x-ejdesk-proxy'], config.proxySecret);
    const forwarded = proxied
      ? String(request.headers['x-forwarded-for'] ?? '')
          .split(',')[0]
          ?.trim()
      : '';
    request.clientIp = (forwarded || request.ip).slice(0, 64);
  });
  // Until the database has been reached and migrated, everything but the probes answers 503.
  app.addHook('onRequest', async (request, reply) => {
    if (!ctx.status.migrated && !opsPath.test(request.url)) return databaseUnavailable(reply);
  });
  // Shutting down (lib/drain.ts): a request a proxy may resend answers 503, which takes the
  // instance out of the proxy's rotation: any but POST and PATCH, and those too when they carry an
  // Idempotency-Key (nginx resends a write with its key: plugins/idempotency.ts). A POST or PATCH
  // without a key, which no proxy may resend, is served. Liveness still answers: the process is up.
  app.addHook('onRequest', async (request, reply) => {
    const resendable = (request.method !== 'POST' && request.method !== 'PATCH') || request.headers['idempotency-key'] !== undefined;
    if (!ctx.status.draining || !resendable || livenessPath.test(request.url)) return;
    // Only a proxy's request (it says whom it forwards) tells the proxy: a probe's does not.
    if (request.headers['x-forwarded-for'] !== undefined) ctx.status.passedOn++;
    return reply.code(503).header('retry-after', '1').send({ detail: 'This instance is shutting down.' });
  });
  // Shutting down (lib/drain.ts): each connection ends after its answer, so no client writes
  // another request to it while the instance goes away.
  app.addHook('onSend', async (request, reply) => {
    if (ctx.status.draining) reply.header('connection', 'close');
    // An answer given before the body was read (a refusal by a hook, a body too large) waits for it.
    await discardUnreadBody(request.raw);
  });

  // Bodies first: multipart attaches its fields in a preValidation hook, and the NUL check that
  // registerValidation adds must run after it, or a multipart field would reach SQL unchecked.
  await registerBodies(app);
  await registerOpenApi(app);
  registerValidation(app);
  registerErrorHandling(app);
  registerMetrics(app, ctx.metrics);
  await registerSecurity(app, config.corsOrigins);
  // After the error handling and security hooks: its onSend stores the answer as it leaves.
  registerIdempotency(app, database, {
    retryMs: config.writeRetrySeconds * 1000,
    hashSecrets: [secrets.jwtSecret, ...(secrets.jwtPreviousSecret ? [secrets.jwtPreviousSecret] : [])],
  });
  // The console's refresh token arrives in a cookie (routes/identity/sessions.ts); nothing else reads one.
  await app.register(cookie);
  // After the hooks that answer whatever the credential (the database down, the instance draining).
  guardRoutes(app);

  // Every route, by domain (routes/index.ts).
  await registerRoutes(app, { relyingParty: config.oidc && sso ? createRelyingParty(config.oidc, sso) : undefined });
  // The event streams end first when the API shuts down (close() would otherwise wait for them).
  app.addHook('preClose', async () => ctx.live.close());
  return app;
}
