// Everything the API reads from its environment, in one place, with the demo defaults.
import { dataDirFrom } from '@ejdesk/db';

export interface ApiConfig {
  /** postgres:// URL of a real server; absent means the embedded PGlite under dataDir. */
  databaseUrl: string | undefined;
  /** Folder for the embedded database and generated secrets (git-ignored). */
  dataDir: string;
  host: string;
  port: number;
  /** Browser origins allowed by CORS (the shell in production is same-origin and needs none). */
  corsOrigins: string[];
  jwtSecret: string | undefined;
  bankPassKey: string | undefined;
  accessTokenMinutes: number;
  refreshTokenHours: number;
  /** Failed logins allowed per account from one IP within loginWindowMinutes (the lock-out). */
  loginMaxFailures: number;
  /** Failed logins allowed per IP, whatever the accounts (catches password spraying). */
  loginMaxFailuresPerIp: number;
  loginWindowMinutes: number;
  logLevel: string;
  /** The server cancels an API statement running longer (ms). */
  statementTimeoutMs: number;
  /** Streamed exports running at once; more are answered 429. */
  exportConcurrency: number;
  /**
   * Shared with the shell's proxy, which sends it in X-EJDesk-Proxy: X-Forwarded-For is believed
   * only from a request that carries it (any other local process could forge the header).
   */
  proxySecret: string | undefined;
  /** Bearer token for GET /api/metrics; without one, metrics answer only on the API's own port. */
  metricsToken: string | undefined;
  /** Ingestion has stalled when no mailbox synced, or a queued message waited, longer than this (s). */
  stallAfterSeconds: number;
  /**
   * Bearer token of `pnpm remote deploy/rollback` (the remote registry's writes); without one,
   * the registry can be read but not changed.
   */
  deployToken: string | undefined;
}

const int = (value: string | undefined, fallback: number): number => {
  const n = Number.parseInt(value ?? '', 10);
  return Number.isFinite(n) && n > 0 ? n : fallback;
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  return {
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: dataDirFrom(env),
    host: env.API_HOST || '127.0.0.1',
    port: int(env.API_PORT, 8000),
    corsOrigins: (env.CORS_ORIGINS ?? 'http://localhost:3000')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    jwtSecret: env.JWT_SECRET || undefined,
    bankPassKey: env.BANK_PASS_KEY || undefined,
    accessTokenMinutes: int(env.ACCESS_TOKEN_MINUTES, 30),
    refreshTokenHours: int(env.REFRESH_TOKEN_HOURS, 24),
    loginMaxFailures: int(env.LOGIN_MAX_FAILURES, 10),
    loginMaxFailuresPerIp: int(env.LOGIN_MAX_FAILURES_PER_IP, 50),
    loginWindowMinutes: int(env.LOGIN_WINDOW_MINUTES, 15),
    logLevel: env.LOG_LEVEL || 'info',
    statementTimeoutMs: int(env.DB_STATEMENT_TIMEOUT_MS, 30_000),
    exportConcurrency: int(env.EXPORT_CONCURRENCY, 2),
    proxySecret: env.EJDESK_PROXY_SECRET || undefined,
    metricsToken: env.METRICS_TOKEN || undefined,
    stallAfterSeconds: int(env.INGEST_STALLED_AFTER_SECONDS, 15 * 60),
    deployToken: env.REMOTE_DEPLOY_TOKEN || undefined,
  };
}
