// Everything the API process reads from its environment: one schema (the docs' settings table is
// written from it), read once at start. A bad value stops the process, naming the variable.
import { clockSettings, clockTimeZoneOf, dataDirOf, storageSettings } from '@ejdesk/db';
import { networkRanges } from '@ejdesk/mailbox';
import { integer, list, oneOf, readSettings, SettingError, text, type Settings } from '@ejdesk/settings';
import { bareOrigin, isRemoteName, remoteNames } from '@ejdesk/contract';

export const logLevels = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

export const apiSettings = {
  ...storageSettings,
  ...clockSettings,
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
  JWT_PREVIOUS_SECRET: text({
    secret: true,
    pattern: '^.{32,}$',
    accepts: 'at least 32 characters',
    description:
      'A second secret whose tokens are accepted too (JWT_SECRET alone signs): while JWT_SECRET is rotated, the coming one before the switch, then the replaced one until its tokens expire, REFRESH_TOKEN_HOURS later (see "Rotating keys").',
  }),
  ACCESS_TOKEN_MINUTES: integer({
    minimum: 1,
    maximum: 1440,
    default: 5,
    description: 'Lifetime of an access token: short, since the console keeps it where scripts can read it (its refresh token is in an HttpOnly cookie).',
  }),
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
  LIST_EXACT_COUNT_UP_TO: integer({
    minimum: 1,
    maximum: 100_000_000,
    default: 100_000,
    description:
      'A list\'s count reads at most this many matching rows; a broader match is counted by the planner\'s estimate (count_exact false, "about 1.2 million"); Last counts exactly.',
  }),
  EXPORT_CONCURRENCY: integer({ minimum: 1, maximum: 100, default: 2, description: 'Streamed exports running at once per process; more are answered 429.' }),
  JOURNAL_UPLOAD_MAX_MB: integer({
    minimum: 1,
    maximum: 1024,
    default: 50,
    description:
      'The largest journal file POST /api/journals/ takes (a day of one ATM is about 200 KB); a larger one is answered 413 with nothing stored. The edge and nginx must pass bodies this large on that path.',
  }),
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
  EVENT_STREAMS_PER_USER: integer({
    minimum: 1,
    maximum: 100,
    default: 5,
    description:
      'Live-event streams (GET /api/events/, one per open console tab) a user may hold open on one API instance; opening one more ends their oldest.',
  }),
  WRITE_RETRY_SECONDS: integer({
    minimum: 0,
    maximum: 120,
    default: 15,
    description:
      'A write whose database connection dropped (PostgreSQL restarted) is rolled back and run again once the pool reconnects, for this long after it arrived; then it is answered 503 with nothing written.',
  }),
  SHUTDOWN_SECONDS: integer({
    minimum: 1,
    maximum: 3600,
    default: 25,
    description:
      'On SIGTERM, how long the API waits for the requests and exports in flight before it exits without them (keep it under systemd’s TimeoutStopSec, 30 s in deploy/).',
  }),
  REMOTE_DEPLOY_TOKEN: text({
    secret: true,
    description:
      'The all-remotes deploy token (automation) of `pnpm remote deploy` and `rollback`, beside the teams’ own tokens an admin creates on Deploy Tokens; an admin can revoke it there, and changing it retires the old one. Unset, only the teams’ tokens deploy (with none, the registry can be read but not changed).',
  }),
  CANARY_ROLLBACK_FAILURES: integer({
    minimum: 1,
    maximum: 10000,
    default: 3,
    description: 'A canary release rolls back by itself once this many operators could not load it (the shell reports each, once per operator).',
  }),
  REMOTE_ORIGINS: list({
    default: [],
    description:
      'The origins EJ Desk serves each remote from, as NAME=ORIGIN pairs (email=https://cdn.bank.example,admin=https://cdn.bank.example): a release of a remote is accepted and served only when its manifest and entry are there or on an origin an admin added on Releases. `pnpm start` sets each remote’s own static server. Unset: only the admins’ origins.',
  }),
  MAILBOX_ALLOWED_NETWORKS: text({
    pattern: '^[0-9a-fA-F.:/, ]+$',
    accepts: 'address ranges (CIDR) separated by commas, e.g. 127.0.0.0/8,10.20.0.0/16',
    description:
      'Private, loopback or link-local networks whose IMAP servers and OAuth2 token endpoints admins may add and test on the Mailboxes screen; unset, only public addresses (a host name counts by every address it resolves to).',
  }),
  EJDESK_HOSTED_WORKER: text({ description: 'A module run beside the API on its database (`pnpm start` names the mail ingester here).' }),
  PUBLIC_URL: text({
    pattern: '^https?://[^/?#\\s]+$',
    accepts: 'a URL of scheme, host and port only (https://ejdesk.bank.example)',
    description:
      'The console’s address as people’s browsers reach it: single sign-on’s redirect and logout URIs are made from it. `pnpm start` sets http://localhost:SHELL_PORT.',
  }),
  OIDC_ISSUER: text({
    pattern: '^https://\\S+$',
    accepts: 'an https URL',
    description:
      'The identity provider’s issuer (its discovery document is at ISSUER/.well-known/openid-configuration). Set, the login page offers single sign-on.',
  }),
  OIDC_CLIENT_ID: text({ description: 'EJ Desk’s client id at the identity provider. Required with OIDC_ISSUER.' }),
  OIDC_CLIENT_SECRET: text({ secret: true, description: 'EJ Desk’s client secret at the identity provider. Required with OIDC_ISSUER.' }),
  OIDC_SCOPES: text({ default: 'openid profile email', description: 'The scopes asked for at sign-in (space-separated; openid is always asked).' }),
  OIDC_DISPLAY_NAME: text({ default: 'single sign-on', description: 'The provider’s name on the login page’s button: “Sign in with {name}”.' }),
  OIDC_ROLE_CLAIM: text({
    default: 'groups',
    pattern: '^[^.\\s]+(\\.[^.\\s]+)*$',
    accepts: 'a claim name, or a dotted path into nested claims (realm_access.roles)',
    description: 'The claim (ID token or userinfo) holding the user’s groups or roles.',
  }),
  OIDC_ADMIN_VALUES: list({ default: [], description: 'Values of the role claim that make an admin (comma-separated).' }),
  OIDC_OPERATOR_VALUES: list({ default: [], description: 'Values of the role claim that make an operator (comma-separated). A user with neither is refused.' }),
  LOCAL_LOGIN: oneOf(['on', 'off'] as const, {
    default: 'on',
    description: 'The password form: off hides and refuses it (single sign-on only), except for the accounts in LOCAL_LOGIN_BREAK_GLASS.',
  }),
  LOCAL_LOGIN_BREAK_GLASS: list({
    default: [],
    description: 'E-mail addresses that may still sign in with a password when LOCAL_LOGIN is off (for when the provider is down).',
  }),
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

/** `pnpm backup` and `pnpm restore`: the API's settings, and the backup's passphrase (asked for when unset). */
export const backupSettings = {
  ...apiSettings,
  BACKUP_PASSPHRASE: text({
    secret: true,
    pattern: '^.{12,}$',
    accepts: 'at least 12 characters',
    description:
      'The passphrase `pnpm backup` encrypts a backup with and `pnpm restore` opens it with; unset, it is asked for on the terminal. Keep it apart from the backups: the file and the passphrase together give the database and its keys.',
  }),
};

export interface ApiConfig {
  /** The time zone of the turnaround clock's days. */
  clockTimeZone: string;
  /** postgres:// URL of a real server; absent means the embedded PGlite under dataDir. */
  databaseUrl: string | undefined;
  /** Folder for the embedded database and generated secrets (git-ignored). */
  dataDir: string;
  host: string;
  port: number;
  corsOrigins: string[];
  jwtSecret: string | undefined;
  /** JWT_PREVIOUS_SECRET: verifies, never signs. */
  jwtPreviousSecret: string | undefined;
  bankPassKey: string | undefined;
  accessTokenMinutes: number;
  refreshTokenHours: number;
  loginMaxFailures: number;
  loginMaxFailuresPerIp: number;
  loginWindowMinutes: number;
  logLevel: (typeof logLevels)[number];
  statementTimeoutMs: number;
  exportConcurrency: number;
  /** A list's count reads at most this many rows; past it, an estimate (count_exact false). */
  exactCountUpTo: number;
  /** JOURNAL_UPLOAD_MAX_MB, in bytes. */
  journalUploadMaxBytes: number;
  proxySecret: string | undefined;
  trustProxy: boolean | string;
  metricsToken: string | undefined;
  stallAfterSeconds: number;
  /** EVENT_STREAMS_PER_USER. */
  eventStreamsPerUser: number;
  shutdownSeconds: number;
  /** WRITE_RETRY_SECONDS. */
  writeRetrySeconds: number;
  deployToken: string | undefined;
  /** CANARY_ROLLBACK_FAILURES. */
  canaryRollbackFailures: number;
  /** REMOTE_ORIGINS: each remote's configured origins (scheme://host[:port]). */
  remoteOrigins: Record<string, string[]>;
  hostedWorker: string | undefined;
  /** MAILBOX_ALLOWED_NETWORKS: the non-public ranges a mailbox's server may be in (CIDR). */
  mailboxAllowedNetworks: string[];
  /** Single sign-on through the bank's identity provider; undefined when OIDC_ISSUER is unset. */
  oidc: OidcConfig | undefined;
  /** The password form: on, or off except for the break-glass addresses (lower case). */
  localLogin: { enabled: boolean; breakGlass: string[] };
}

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  displayName: string;
  /** The claim's path, split at its dots. */
  roleClaim: string[];
  adminValues: string[];
  operatorValues: string[];
  /** Registered at the provider, written out in the docs: both under the console's address. */
  redirectUri: string;
  postLogoutRedirectUri: string;
}

const trustProxyOf = (value: string | undefined): ApiConfig['trustProxy'] =>
  value === undefined || value === 'false' ? false : value === 'true' ? true : value;

/** The path the provider sends the browser back to, under the console's address (routes/identity/single-sign-on.ts). */
const oidcCallbackPath = '/api/auth/oidc/callback/';

function oidcOf(s: Settings<typeof apiSettings>): OidcConfig | undefined {
  if (!s.OIDC_ISSUER) return undefined;
  for (const name of ['PUBLIC_URL', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const) {
    if (!s[name]) throw new SettingError(`${name} is not set; it is required with OIDC_ISSUER: ${apiSettings[name].description}`);
  }
  if (s.OIDC_ADMIN_VALUES.length + s.OIDC_OPERATOR_VALUES.length === 0) {
    throw new SettingError('OIDC_ADMIN_VALUES and OIDC_OPERATOR_VALUES are both empty; with OIDC_ISSUER at least one must name who may sign in.');
  }
  const base = s.PUBLIC_URL!;
  return {
    issuer: s.OIDC_ISSUER,
    clientId: s.OIDC_CLIENT_ID!,
    clientSecret: s.OIDC_CLIENT_SECRET!,
    scopes: s.OIDC_SCOPES.split(/\s+/).includes('openid') ? s.OIDC_SCOPES : `openid ${s.OIDC_SCOPES}`,
    displayName: s.OIDC_DISPLAY_NAME,
    roleClaim: s.OIDC_ROLE_CLAIM.split('.'),
    adminValues: s.OIDC_ADMIN_VALUES,
    operatorValues: s.OIDC_OPERATOR_VALUES,
    redirectUri: `${base}${oidcCallbackPath}`,
    postLogoutRedirectUri: `${base}/login`,
  };
}

function networksOf(value: string | undefined): string[] {
  try {
    return networkRanges(value ?? '');
  } catch (err) {
    throw new SettingError(`MAILBOX_ALLOWED_NETWORKS is not accepted: ${(err as Error).message}.`);
  }
}

/** REMOTE_ORIGINS's pairs by remote; a pair naming no remote, or no bare http(s) origin, stops the process. */
function remoteOriginsOf(pairs: string[]): Record<string, string[]> {
  const origins: Record<string, string[]> = {};
  for (const pair of pairs) {
    const [name = '', origin = ''] = pair.split(/=(.*)/s).map((part) => part.trim());
    if (!isRemoteName(name))
      throw new SettingError(`REMOTE_ORIGINS names '${name}', which is not a remote (${remoteNames.join(', ')}): write NAME=ORIGIN pairs.`);
    const bare = bareOrigin(origin);
    if (!bare) throw new SettingError(`REMOTE_ORIGINS gives ${name} '${origin}', which is not an http(s) origin (scheme, host and port only).`);
    (origins[name] ??= []).push(bare);
  }
  return origins;
}

/** The API's configuration from `env` (the process's own by default); a SettingError names what is wrong. */
export function loadConfig(env?: Record<string, string | undefined>): ApiConfig {
  const s = readSettings(apiSettings, env);
  return {
    clockTimeZone: clockTimeZoneOf(s),
    databaseUrl: s.DATABASE_URL,
    dataDir: dataDirOf(s.EJDESK_DATA_DIR),
    host: s.API_HOST,
    port: s.API_PORT,
    corsOrigins: s.CORS_ORIGINS,
    jwtSecret: s.JWT_SECRET,
    jwtPreviousSecret: s.JWT_PREVIOUS_SECRET,
    bankPassKey: s.BANK_PASS_KEY,
    accessTokenMinutes: s.ACCESS_TOKEN_MINUTES,
    refreshTokenHours: s.REFRESH_TOKEN_HOURS,
    loginMaxFailures: s.LOGIN_MAX_FAILURES,
    loginMaxFailuresPerIp: s.LOGIN_MAX_FAILURES_PER_IP,
    loginWindowMinutes: s.LOGIN_WINDOW_MINUTES,
    logLevel: s.LOG_LEVEL,
    statementTimeoutMs: s.DB_STATEMENT_TIMEOUT_MS,
    exportConcurrency: s.EXPORT_CONCURRENCY,
    exactCountUpTo: s.LIST_EXACT_COUNT_UP_TO,
    journalUploadMaxBytes: s.JOURNAL_UPLOAD_MAX_MB * 1024 * 1024,
    proxySecret: s.EJDESK_PROXY_SECRET,
    trustProxy: trustProxyOf(s.TRUST_PROXY),
    metricsToken: s.METRICS_TOKEN,
    stallAfterSeconds: s.INGEST_STALLED_AFTER_SECONDS,
    eventStreamsPerUser: s.EVENT_STREAMS_PER_USER,
    shutdownSeconds: s.SHUTDOWN_SECONDS,
    writeRetrySeconds: s.WRITE_RETRY_SECONDS,
    deployToken: s.REMOTE_DEPLOY_TOKEN,
    canaryRollbackFailures: s.CANARY_ROLLBACK_FAILURES,
    remoteOrigins: remoteOriginsOf(s.REMOTE_ORIGINS),
    hostedWorker: s.EJDESK_HOSTED_WORKER,
    mailboxAllowedNetworks: networksOf(s.MAILBOX_ALLOWED_NETWORKS),
    oidc: oidcOf(s),
    localLogin: { enabled: s.LOCAL_LOGIN === 'on', breakGlass: s.LOCAL_LOGIN_BREAK_GLASS.map((email) => email.toLowerCase()) },
  };
}
