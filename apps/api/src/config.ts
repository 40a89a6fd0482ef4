// Everything the API process reads from its environment: one schema (the docs' settings table is
// written from it), read once at start. A bad value stops the process, naming the variable.
import { dataDirOf, storageSettings } from '@ejdesk/db';
import { integer, list, oneOf, readSettings, text } from '@ejdesk/settings';

export const logLevels = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

export const apiSettings = {
  ...storageSettings,
  API_HOST: text({ default: '127.0.0.1', description: 'Address the API listens on.' }),
  API_PORT: integer({ minimum: 1, maximum: 65535, default: 8000, description: 'Port the API listens on.' }),
  CORS_ORIGINS: list({
    default: ['http://localhost:3000'],
    description: 'Browser origins allowed by CORS (the console behind the edge is same-origin and needs none).',
  }),
  JWT_SECRET: text({
    secret: true,
    pattern: '^.{32,}$',
    accepts: 'at least 32 characters',
    description: 'Signs the access and refresh tokens. Required with DATABASE_URL (every API process needs the same); the embedded demo generates one.',
  }),
  ACCESS_TOKEN_MINUTES: integer({ minimum: 1, maximum: 1440, default: 30, description: 'Lifetime of an access token.' }),
  REFRESH_TOKEN_HOURS: integer({ minimum: 1, maximum: 8760, default: 24, description: 'Lifetime of a refresh token: how long a session lasts unused.' }),
  LOGIN_MAX_FAILURES: integer({ minimum: 1, maximum: 1000, default: 10, description: 'Failed logins allowed per account from one address within the window.' }),
  LOGIN_MAX_FAILURES_PER_IP: integer({
    minimum: 1,
    maximum: 100000,
    default: 50,
    description: 'Failed logins allowed per address, whatever the accounts (password spraying).',
  }),
  LOGIN_WINDOW_MINUTES: integer({ minimum: 1, maximum: 1440, default: 15, description: 'The window failed logins are counted in.' }),
  LOG_LEVEL: oneOf(logLevels, { default: 'info', description: 'Least severe log line written.' }),
  DB_STATEMENT_TIMEOUT_MS: integer({ minimum: 100, maximum: 3600000, default: 30000, description: 'The database cancels an API statement running longer.' }),
  EXPORT_CONCURRENCY: integer({ minimum: 1, maximum: 100, default: 2, description: 'Streamed exports running at once per process; more are answered 429.' }),
  EJDESK_PROXY_SECRET: text({
    secret: true,
    description: "Shared with the edge's proxy (X-EJDesk-Proxy): only a request carrying it has its X-Forwarded-For believed.",
  }),
  TRUST_PROXY: text({
    pattern: '^(true|false|[0-9a-fA-F.:/, ]+)$',
    accepts: 'true, false, or addresses and CIDR ranges separated by commas',
    description: 'Proxies in front whose X-Forwarded-For is believed (an ingress). Unset: only the edge, by EJDESK_PROXY_SECRET.',
  }),
  METRICS_TOKEN: text({ secret: true, description: 'Bearer token for GET /api/metrics; unset, metrics answer only on the API’s own port.' }),
  INGEST_STALLED_AFTER_SECONDS: integer({
    minimum: 10,
    maximum: 604800,
    default: 900,
    description: 'Mail has stalled (the banner shows) when no mailbox synced, or a queued message waited, longer than this.',
  }),
  REMOTE_DEPLOY_TOKEN: text({
    secret: true,
    description: 'Bearer token of `pnpm remote deploy` and `rollback`; unset, the registry can be read but not changed.',
  }),
  EJDESK_HOSTED_WORKER: text({ description: 'A module run beside the API on its database (`pnpm start` names the mail ingester here).' }),
};

/** `pnpm start`'s demo preparation: the API's settings, and how much demo data a first start seeds. */
export const demoSettings = {
  ...apiSettings,
  EJDESK_DEMO_EMAILS: integer({ minimum: 0, maximum: 10_000_000, default: 5000, description: 'Emails the embedded demo is seeded with on its first start.' }),
  EJDESK_DEMO_EJ: integer({ minimum: 0, maximum: 10_000_000, default: 20000, description: 'EJ records the embedded demo is seeded with on its first start.' }),
};

/** `user:create`: the API's settings, and the new user's password (asked for when unset). */
export const userCreateSettings = {
  ...apiSettings,
  EJDESK_PASSWORD: text({ secret: true, description: 'The password of the user `user:create` makes; unset, it is asked for (never in shell history).' }),
};

export interface ApiConfig {
  /** postgres:// URL of a real server; absent means the embedded PGlite under dataDir. */
  databaseUrl: string | undefined;
  /** Folder for the embedded database and generated secrets (git-ignored). */
  dataDir: string;
  host: string;
  port: number;
  corsOrigins: string[];
  jwtSecret: string | undefined;
  bankPassKey: string | undefined;
  accessTokenMinutes: number;
  refreshTokenHours: number;
  loginMaxFailures: number;
  loginMaxFailuresPerIp: number;
  loginWindowMinutes: number;
  logLevel: (typeof logLevels)[number];
  statementTimeoutMs: number;
  exportConcurrency: number;
  proxySecret: string | undefined;
  trustProxy: boolean | string;
  metricsToken: string | undefined;
  stallAfterSeconds: number;
  deployToken: string | undefined;
  hostedWorker: string | undefined;
}

const trustProxyOf = (value: string | undefined): ApiConfig['trustProxy'] =>
  value === undefined || value === 'false' ? false : value === 'true' ? true : value;

/** The API's configuration from `env` (the process's own by default); a SettingError names what is wrong. */
export function loadConfig(env?: Record<string, string | undefined>): ApiConfig {
  const s = readSettings(apiSettings, env);
  return {
    databaseUrl: s.DATABASE_URL,
    dataDir: dataDirOf(s.EJDESK_DATA_DIR),
    host: s.API_HOST,
    port: s.API_PORT,
    corsOrigins: s.CORS_ORIGINS,
    jwtSecret: s.JWT_SECRET,
    bankPassKey: s.BANK_PASS_KEY,
    accessTokenMinutes: s.ACCESS_TOKEN_MINUTES,
    refreshTokenHours: s.REFRESH_TOKEN_HOURS,
    loginMaxFailures: s.LOGIN_MAX_FAILURES,
    loginMaxFailuresPerIp: s.LOGIN_MAX_FAILURES_PER_IP,
    loginWindowMinutes: s.LOGIN_WINDOW_MINUTES,
    logLevel: s.LOG_LEVEL,
    statementTimeoutMs: s.DB_STATEMENT_TIMEOUT_MS,
    exportConcurrency: s.EXPORT_CONCURRENCY,
    proxySecret: s.EJDESK_PROXY_SECRET,
    trustProxy: trustProxyOf(s.TRUST_PROXY),
    metricsToken: s.METRICS_TOKEN,
    stallAfterSeconds: s.INGEST_STALLED_AFTER_SECONDS,
    deployToken: s.REMOTE_DEPLOY_TOKEN,
    hostedWorker: s.EJDESK_HOSTED_WORKER,
  };
}
