// HTTP hardening: helmet with a CSP for a JSON-only API, CORS for the configured origins only, and
// no caching of an answer that carries a secret.
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { permissionsPolicy } from '@ejdesk/http';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's answer carries a secret (a token, a clear password, a dump): answered with
     * Cache-Control: no-store, refusals too, so no browser cache, back button or proxy keeps it.
     */
    secret?: boolean;
  }
}

export async function registerSecurity(app: FastifyInstance, corsOrigins: string[]): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
    },
    crossOriginResourcePolicy: { policy: 'same-site' },
  });
  await app.register(cors, { origin: corsOrigins, credentials: false, methods: ['GET', 'POST'] });
  app.addHook('onSend', async (request, reply) => {
    reply.header('permissions-policy', permissionsPolicy);
    if (request.routeOptions.config.secret) reply.header('cache-control', 'no-store');
  });
}
