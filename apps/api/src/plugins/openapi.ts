// The API described as OpenAPI 3.1 from the same schemas that validate its requests and answers
// (the contract's), served at GET /api/openapi.json: what another team integrates against, and
// what the schema-driven fuzzer in the tests reads. Registered before the routes, which it collects,
// each with the credential it declares (plugins/credentials.ts).
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { apiContractVersion } from '@ejdesk/contract';
import type { Credential } from './credentials.ts';

/** Each credential as the document states it: the security scheme it takes. */
const securityOf: Record<Credential, Record<string, string[]>[]> = {
  none: [],
  user: [{ jwt: [] }],
  'password-change': [{ jwt: [] }],
  admin: [{ jwt: [] }],
  deployer: [{ deployToken: [] }],
  metrics: [{ metricsToken: [] }],
  backup: [{ backupToken: [] }],
};

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'EJ Desk API',
        version: String(apiContractVersion),
        description:
          'The API of EJ Desk, the operators’ console for ATM dispute mail. Every error answer is `{"detail": "..."}`. ' +
          'Request bodies are accepted as JSON, application/x-www-form-urlencoded and multipart/form-data alike. ' +
          'Every POST, PUT, PATCH and DELETE accepts an `Idempotency-Key` header (1 to 200 visible ASCII characters): a repeat is answered ' +
          'with the first answer (`Idempotent-Replayed: true`) and writes nothing; the same key with another request is refused 422; keys are kept a day.',
      },
      components: {
        securitySchemes: {
          jwt: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'An access token from POST /api/auth/jwt/create/, sent as `Authorization: JWT <token>` or `Bearer <token>`.',
          },
          deployToken: { type: 'http', scheme: 'bearer', description: 'The deployers’ token (REMOTE_DEPLOY_TOKEN).' },
          metricsToken: { type: 'http', scheme: 'bearer', description: 'The metrics token (METRICS_TOKEN).' },
          backupToken: { type: 'http', scheme: 'bearer', description: '`pnpm backup`’s token, derived from the data folder’s token signing key.' },
        },
      },
    },
    transform: ({ schema, url, route }) => {
      const method = [route.method].flat()[0] ?? 'GET';
      const hidden = url === '*' || method === 'HEAD' || method === 'OPTIONS' || url === '/api/openapi.json';
      const tag = /^\/api\/([^/]+)/.exec(url)?.[1] ?? 'api';
      const credential = route.config?.credential;
      return {
        url,
        schema: {
          ...schema,
          hide: hidden || schema?.hide,
          tags: [tag],
          security: credential ? securityOf[credential] : undefined,
          // The admins' routes: an operator's valid token is refused there (403).
          ...(credential === 'admin' && { 'x-required-role': 'admin' }),
        } as never,
      };
    },
  });
  app.get('/api/openapi.json', { config: { credential: 'none' }, schema: { hide: true } }, async () => app.swagger());
}
