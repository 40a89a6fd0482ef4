// What route handlers need, decorated once onto the Fastify instance.
import type { Db } from '@ejdesk/db';
import type { ApiConfig } from './config.ts';
import type { Secrets } from './lib/secrets.ts';
import type { TokenService } from './lib/tokens.ts';

export interface AppContext {
  db: Db;
  config: ApiConfig;
  secrets: Secrets;
  tokens: TokenService;
}

export interface AuthenticatedUser {
  id: number;
  email: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    user: AuthenticatedUser | null;
  }
}
