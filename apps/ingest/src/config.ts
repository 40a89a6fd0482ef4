// What the mail ingester reads from its environment, run alone (`pnpm ingest`) or hosted in the API
// process (`pnpm start`): the database, the mailbox in IMAP_*, and how it works through the queue.
// One schema, read once at start; a bad value stops the process, naming the variable.
import { dataDirOf, storageSettings } from '@ejdesk/db';
import { flag, integer, oneOf, readSettings, SettingError, text } from '@ejdesk/settings';
import type { Level } from './log.ts';
import type { ImapSettings } from './sources/imap.ts';

export const ingestSettings = {
  ...storageSettings,
  IMAP_HOST: text({ description: 'The mailbox’s IMAP server; unset, no mailbox is watched.' }),
  IMAP_PORT: integer({ minimum: 1, maximum: 65535, description: 'Its port; unset, 993 with TLS and 143 without.' }),
  IMAP_TLS: flag({ default: true, description: 'Connect with TLS.' }),
  IMAP_USER: text({ description: 'The mailbox signed in to; required with IMAP_HOST.' }),
  IMAP_PASSWORD: text({ secret: true, description: 'Its password.' }),
  IMAP_MAILBOX: text({ default: 'INBOX', description: 'The folder read.' }),
  INGEST_POLL_SECONDS: integer({
    minimum: 1,
    maximum: 86400,
    default: 300,
    description: 'Sync at least this often when the server sends no word of new mail (IDLE).',
  }),
  INGEST_LANES: integer({ minimum: 1, maximum: 64, description: 'Messages processed at once; unset, 4 on PostgreSQL and 1 embedded (`--lanes` overrides).' }),
  LOG_LEVEL: oneOf(['debug', 'info', 'warn', 'error'], { default: 'info', description: 'Least severe log line written.' }),
};

interface IngestConfig {
  databaseUrl: string | undefined;
  dataDir: string;
  bankPassKey: string | undefined;
  /** The mailbox watched, or null when IMAP_HOST is not set. */
  mailbox: ImapSettings | null;
  pollMs: number;
  lanes: number | undefined;
  logLevel: Level;
}

/** The ingester's configuration from `env` (the process's own by default); a SettingError names what is wrong. */
export function loadIngestConfig(env?: Record<string, string | undefined>): IngestConfig {
  const s = readSettings(ingestSettings, env);
  if (s.IMAP_HOST && !s.IMAP_USER) throw new SettingError('IMAP_USER is not set; it is required with IMAP_HOST.');
  if (s.DATABASE_URL && !s.BANK_PASS_KEY) throw new SettingError('BANK_PASS_KEY is not set; it is required when DATABASE_URL is set.');
  const mailbox =
    s.IMAP_HOST && s.IMAP_USER
      ? {
          host: s.IMAP_HOST,
          port: s.IMAP_PORT ?? (s.IMAP_TLS ? 993 : 143),
          user: s.IMAP_USER,
          password: s.IMAP_PASSWORD ?? '',
          tls: s.IMAP_TLS,
          mailbox: s.IMAP_MAILBOX,
        }
      : null;
  return {
    databaseUrl: s.DATABASE_URL,
    dataDir: dataDirOf(s.EJDESK_DATA_DIR),
    bankPassKey: s.BANK_PASS_KEY,
    mailbox,
    pollMs: s.INGEST_POLL_SECONDS * 1000,
    lanes: s.INGEST_LANES,
    logLevel: s.LOG_LEVEL,
  };
}
