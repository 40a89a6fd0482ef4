// What the API and the mail ingester both read from their environment: where the database is and
// the key that seals the stored bank passwords. One schema here, so that both processes agree.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SettingError, text } from '@ejdesk/settings';
import { openDatabase, type DatabaseOptions } from './client.ts';

export const storageSettings = {
  DATABASE_URL: text({
    pattern: '^postgres(ql)?://',
    accepts: 'a postgres:// URL',
    description: 'A PostgreSQL server (several API processes and ingesters share it). Unset: the embedded PGlite under the data folder, for one process.',
  }),
  EJDESK_DATA_DIR: text({ description: 'Folder of the embedded database and the secrets generated for the demo. Unset: `.data` at the repository root.' }),
  BANK_PASS_KEY: text({
    secret: true,
    pattern: '^([0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$',
    accepts: '32 bytes as 64 hex characters or base64',
    description: 'Seals the stored bank passwords (AES-256-GCM). Required with DATABASE_URL; the embedded demo generates one into its data folder.',
  }),
};

/** Folder for the embedded database and generated secrets (git-ignored `.data` at the repo root). */
export const dataDirOf = (value: string | undefined): string => resolve(value ?? resolve(import.meta.dirname, '../../../.data'));

/** DATABASE_URL, else the embedded PGlite under the data folder. */
export const openConfiguredDatabase = (
  databaseUrl: string | undefined,
  dataDir: string,
  options: Pick<DatabaseOptions, 'statementTimeoutMs' | 'onConnectionError' | 'poolSize' | 'asynchronousCommit'> = {},
) => openDatabase({ ...options, url: databaseUrl, dataDir: join(dataDir, 'pg') });

/** A secret generated into the data folder before, if it was (read, never made). */
export function storedSecret(dataDir: string, name: string): string | undefined {
  const file = join(dataDir, name);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
}

/** A secret generated once into the data folder, so that it survives restarts (demo only). */
export function generatedSecret(dataDir: string, name: string): string {
  const stored = storedSecret(dataDir, name);
  if (stored !== undefined) return stored;
  const file = join(dataDir, name);
  mkdirSync(dataDir, { recursive: true });
  const value = randomBytes(32).toString('base64');
  writeFileSync(file, value + '\n', { mode: 0o600 });
  return value;
}

const decodeKey = (value: string): Buffer => (/^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64'));

/** BANK_PASS_KEY, required with DATABASE_URL; the embedded demo generates one into its data folder. */
export function bankPassKeyFrom(settings: { databaseUrl: string | undefined; bankPassKey: string | undefined }, dataDir: string): Buffer {
  // A real server must be given its key: one generated per host would split a cluster.
  if (settings.databaseUrl && !settings.bankPassKey) throw new SettingError('BANK_PASS_KEY is not set; it is required when DATABASE_URL is set.');
  return decodeKey(settings.bankPassKey ?? generatedSecret(dataDir, 'bank-pass-key'));
}
