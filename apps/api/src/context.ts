// What route handlers need, decorated once onto the Fastify instance.
import type { Database, Db, UserRole } from '@ejdesk/db';
import type { ApiConfig } from './config.ts';
import type { Secrets } from './lib/secrets.ts';
import type { LiveHub } from './lib/live.ts';
import type { TokenService } from './lib/tokens.ts';
import type { ApiMetrics } from './plugins/metrics.ts';

export interface AppContext {
  db: Db;
  database: Database;
  config: ApiConfig;
  secrets: Secrets;
  tokens: TokenService;
  metrics: ApiMetrics;
  /**
   * migrated: false until the database has been reached and migrated (the API may start before it
   * is up). draining: the instance is shutting down (not ready; every answer closes its connection).
   * passedOn: a proxy's requests answered 503 while draining, for it to resend elsewhere (lib/drain.ts).
   */
  status: { migrated: boolean; draining: boolean; passedOn: number };
  /** Streamed exports running now (at most config.exportConcurrency). */
  exports: { inFlight: number };
  /** Every route with its schema, as registered (for the contract tests and the fuzz test). */
  routes: RouteInfo[];
  /** The live events' fan-out (one LISTEN for this instance). */
  live: LiveHub;
  /** The mail ingester hosted in this process (`pnpm start`), once it runs: processes the queue now. */
  ingest: { processQueued?: (() => Promise<void>) | undefined };
}

export interface RouteInfo {
  method: string;
  url: string;
  schema: { querystring?: unknown; body?: unknown; params?: unknown } | undefined;
}

interface AuthenticatedUser {
  id: number;
  email: string;
  role: UserRole;
  mustChangePassword: boolean;
  /** The session the access token belongs to (its refresh token's id), when the token names one. */
  sessionId?: string | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    user: AuthenticatedUser | null;
    /** The client's address: the socket's, or X-Forwarded-For from the trusted shell proxy. */
    clientIp: string;
    /** The deploy token a registry write came with (plugins/credentials.ts, 'deployer'): its name and its remote, null for every remote. */
    deployToken: { name: string; remote: string | null } | null;
  }
}
