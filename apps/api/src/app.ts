// Builds the API: plugins, then routes whose folders mirror the URL. Used by the server and by tests.
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Db } from '@ejdesk/db';
import type { ApiConfig } from './config.ts';
import type { AppContext } from './context.ts';
import { createTokenService } from './lib/tokens.ts';
import type { Secrets } from './lib/secrets.ts';
import { bodyLimit, registerBodies } from './plugins/bodies.ts';
import { registerErrorHandling } from './plugins/errors.ts';
import { registerSecurity } from './plugins/security.ts';
import { registerValidation } from './plugins/validation.ts';
import { jwtRoutes } from './routes/auth/jwt.ts';
import { scrapeRoutes } from './routes/scrape/index.ts';

export interface BuildOptions {
  db: Db;
  config: ApiConfig;
  secrets: Secrets;
  logger?: FastifyServerOptions['logger'];
}

export async function buildApp({ db, config, secrets, logger = false }: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    bodyLimit,
    // Behind the shell's proxy (or an ingress) the client address is in X-Forwarded-For.
    trustProxy: process.env.TRUST_PROXY ?? 'loopback',
    return503OnClosing: true,
  }).withTypeProvider<TypeBoxTypeProvider>();

  const ctx: AppContext = {
    db,
    config,
    secrets,
    tokens: createTokenService(secrets.jwtSecret, {
      access: config.accessTokenMinutes * 60,
      refresh: config.refreshTokenHours * 3600,
    }),
  };
  app.decorate('ctx', ctx);

  registerValidation(app);
  registerErrorHandling(app);
  await registerSecurity(app, config.corsOrigins);
  await registerBodies(app);

  app.get(
    '/api/health/',
    { logLevel: 'warn', schema: { response: { 200: Type.Object({ status: Type.Literal('ok') }) } } },
    async () => ({ status: 'ok' as const }),
  );
  await app.register(jwtRoutes, { prefix: '/api/auth/jwt' });
  await app.register(scrapeRoutes, { prefix: '/api/scrape' });
  return app;
}
