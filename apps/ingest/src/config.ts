// What the mail ingester reads from its environment, run alone (`pnpm ingest`) or hosted in the API
// process (`pnpm start`): the database, the mailbox in IMAP_* (signed in to with a password or
// OAuth2), and how it works through the queue.
// One schema, read once at start; a bad value stops the process, naming the variable.
import { clockSettings, clockTimeZoneOf, dataDirOf, retentionMonths, retentionSettings, type RetentionPolicy, storageSettings } from '@ejdesk/db';
import { authMethods, type ImapSettings, type MailboxAuth } from '@ejdesk/mailbox';
import { flag, integer, oneOf, readSettings, SettingError, text, type Settings } from '@ejdesk/settings';
import type { Level } from './log.ts';

export const ingestSettings = {
  ...storageSettings,
  ...clockSettings,
  ...retentionSettings,
  IMAP_HOST: text({ description: 'The mailbox’s IMAP server; unset, no mailbox is watched.' }),
  IMAP_PORT: integer({ minimum: 1, maximum: 65535, description: 'Its port; unset, 993 with TLS and 143 without.' }),
  IMAP_TLS: flag({ default: true, description: 'Connect with TLS.' }),
  IMAP_USER: text({ description: 'The mailbox signed in to (with OAuth2, the address the token is used for); required with IMAP_HOST.' }),
  IMAP_AUTH: oneOf(authMethods, {
    default: 'password',
    description:
      'How EJ Desk signs in: with IMAP_PASSWORD, or with an OAuth2 token by client credentials (Microsoft 365) or a refresh token (Google Workspace).',
  }),
  IMAP_PASSWORD: text({ secret: true, description: 'Its password (IMAP_AUTH=password).' }),
  IMAP_OAUTH_TOKEN_URL: text({
    pattern: '^https://',
    accepts: 'an https:// address',
    description: 'The identity provider’s token endpoint, e.g. https://login.microsoftonline.com/TENANT/oauth2/v2.0/token; required with OAuth2.',
  }),
  IMAP_OAUTH_CLIENT_ID: text({ description: 'The application (client) id registered at the provider; required with OAuth2.' }),
  IMAP_OAUTH_CLIENT_SECRET: text({ secret: true, description: 'Its client secret; required with client credentials.' }),
  IMAP_OAUTH_SCOPE: text({ description: 'The scope asked for, e.g. https://outlook.office365.com/.default; required with client credentials.' }),
  IMAP_OAUTH_REFRESH_TOKEN: text({ secret: true, description: 'The refresh token of the consent given to EJ Desk; required with oauth2-refresh-token.' }),
  IMAP_MAILBOX: text({ default: 'INBOX', description: 'The folder read.' }),
  INGEST_LEASE_SECONDS: integer({
    minimum: 5,
    maximum: 600,
    default: 20,
    description:
      'How long a worker’s hold on a mailbox lasts unrenewed (it renews every few seconds): when a worker dies, another takes its mailboxes over after this.',
  }),
  INGEST_POLL_SECONDS: integer({
    minimum: 1,
    maximum: 86400,
    default: 300,
    description: 'Sync at least this often when the server sends no word of new mail (IDLE).',
  }),
  INGEST_LANES: integer({ minimum: 1, maximum: 64, description: 'Messages processed at once; unset, 4 on PostgreSQL and 1 embedded (`--lanes` overrides).' }),
  LOG_LEVEL: oneOf(['debug', 'info', 'warn', 'error'], { default: 'info', description: 'Least severe log line written.' }),
  SMTP_HOST: text({ description: 'The bank’s SMTP relay the alerts are sent through; unset, no email alert is sent (webhooks still are).' }),
  SMTP_PORT: integer({ minimum: 1, maximum: 65535, description: 'Its port; unset, 465 with SMTP_TLS=implicit and 587 otherwise.' }),
  SMTP_TLS: oneOf(['starttls', 'implicit', 'none'], {
    default: 'starttls',
    description:
      'starttls: upgrade the connection and refuse a relay that cannot; implicit: TLS from the start (port 465); none: plain (a relay on this machine only).',
  }),
  SMTP_USER: text({ description: 'The relay’s user name, if it asks for one.' }),
  SMTP_PASSWORD: text({ secret: true, description: 'Its password.' }),
  ALERT_FROM: text({ default: 'EJ Desk <ej-desk@localhost>', description: 'The From of alert emails.' }),
  ALERT_INTERVAL_SECONDS: integer({ minimum: 1, maximum: 3600, default: 60, description: 'How often a worker looks for alerts to make and send.' }),
  ALERT_LEASE_SECONDS: integer({
    minimum: 5,
    maximum: 3600,
    default: 120,
    description: 'How long a worker holds an alert it is sending: a worker that dies mid-send leaves it to another after this.',
  }),
  ALERT_RETRY_SECONDS: integer({
    minimum: 1,
    maximum: 86400,
    default: 60,
    description: 'The first wait before a failed alert is tried again (doubling each time).',
  }),
  ALERT_MAX_ATTEMPTS: integer({ minimum: 1, maximum: 20, default: 6, description: 'Tries before an alert is marked failed.' }),
  ALERT_DIGEST_HOUR: integer({
    minimum: 0,
    maximum: 23,
    default: 9,
    description: 'From this hour (TAT_TIME_ZONE, every day) each owner gets the day’s digest of what breaches today.',
  }),
};

interface IngestConfig {
  /** The time zone of the turnaround clock's days (a resolution by mail stops the clock on its day). */
  clockTimeZone: string;
  databaseUrl: string | undefined;
  dataDir: string;
  bankPassKey: string | undefined;
  /** The mailbox watched, or null when IMAP_HOST is not set. */
  mailbox: ImapSettings | null;
  pollMs: number;
  /** How long a mailbox lease lasts unrenewed (seconds). */
  leaseSeconds: number;
  lanes: number | undefined;
  logLevel: Level;
  alerts: AlertSettings;
  /** What the night's retention keeps and where it archives (retention.ts). */
  retention: RetentionPolicy & { hour: number };
}

/** How the worker sends the alerts (alerts/send.ts). */
export interface AlertSettings {
  smtp: { host: string; port: number; tls: 'starttls' | 'implicit' | 'none'; user: string | undefined; password: string | undefined } | null;
  from: string;
  intervalMs: number;
  leaseSeconds: number;
  retrySeconds: number;
  maxAttempts: number;
  digestHour: number;
}

const required = (name: string, value: string | undefined, why: string): string => {
  if (!value) throw new SettingError(`${name} is not set; it is required ${why}.`);
  return value;
};

/** How the bootstrap mailbox signs in, each method's settings required when it is chosen. */
function authOf(s: Settings<typeof ingestSettings>): MailboxAuth {
  const method = s.IMAP_AUTH;
  if (method === 'password') return { method, password: s.IMAP_PASSWORD ?? '' };
  const why = `with IMAP_AUTH=${method}`;
  const provider = {
    tokenUrl: required('IMAP_OAUTH_TOKEN_URL', s.IMAP_OAUTH_TOKEN_URL, why),
    clientId: required('IMAP_OAUTH_CLIENT_ID', s.IMAP_OAUTH_CLIENT_ID, why),
  };
  if (method === 'oauth2-client-credentials') {
    return {
      method,
      ...provider,
      clientSecret: required('IMAP_OAUTH_CLIENT_SECRET', s.IMAP_OAUTH_CLIENT_SECRET, why),
      scope: required('IMAP_OAUTH_SCOPE', s.IMAP_OAUTH_SCOPE, why),
    };
  }
  return {
    method,
    ...provider,
    clientSecret: s.IMAP_OAUTH_CLIENT_SECRET,
    scope: s.IMAP_OAUTH_SCOPE,
    refreshToken: required('IMAP_OAUTH_REFRESH_TOKEN', s.IMAP_OAUTH_REFRESH_TOKEN, why),
  };
}

/** The ingester's configuration from `env` (the process's own by default); a SettingError names what is wrong. */
export function loadIngestConfig(env?: Record<string, string | undefined>): IngestConfig {
  const s = readSettings(ingestSettings, env);
  if (s.IMAP_HOST && !s.IMAP_USER) throw new SettingError('IMAP_USER is not set; it is required with IMAP_HOST.');
  if (s.DATABASE_URL && !s.BANK_PASS_KEY) throw new SettingError('BANK_PASS_KEY is not set; it is required when DATABASE_URL is set.');
  const mailbox =
    s.IMAP_HOST && s.IMAP_USER
      ? { host: s.IMAP_HOST, port: s.IMAP_PORT ?? (s.IMAP_TLS ? 993 : 143), user: s.IMAP_USER, tls: s.IMAP_TLS, mailbox: s.IMAP_MAILBOX, auth: authOf(s) }
      : null;
  return {
    clockTimeZone: clockTimeZoneOf(s),
    databaseUrl: s.DATABASE_URL,
    dataDir: dataDirOf(s.EJDESK_DATA_DIR),
    bankPassKey: s.BANK_PASS_KEY,
    mailbox,
    pollMs: s.INGEST_POLL_SECONDS * 1000,
    leaseSeconds: s.INGEST_LEASE_SECONDS,
    lanes: s.INGEST_LANES,
    logLevel: s.LOG_LEVEL,
    alerts: {
      smtp: s.SMTP_HOST
        ? { host: s.SMTP_HOST, port: s.SMTP_PORT ?? (s.SMTP_TLS === 'implicit' ? 465 : 587), tls: s.SMTP_TLS, user: s.SMTP_USER, password: s.SMTP_PASSWORD }
        : null,
      from: s.ALERT_FROM,
      intervalMs: s.ALERT_INTERVAL_SECONDS * 1000,
      leaseSeconds: s.ALERT_LEASE_SECONDS,
      retrySeconds: s.ALERT_RETRY_SECONDS,
      maxAttempts: s.ALERT_MAX_ATTEMPTS,
      digestHour: s.ALERT_DIGEST_HOUR,
    },
    retention: { months: retentionMonths(s), archiveDir: s.RETENTION_ARCHIVE_DIR, passphrase: s.ARCHIVE_PASSPHRASE, hour: s.RETENTION_HOUR },
  };
}
