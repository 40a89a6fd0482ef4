// What the API and the mail ingester both read from their environment: where the database is and
// the keys that seal the stored bank passwords and mailbox secrets. One schema here, so that both
// processes agree.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SettingError, text } from '@ejdesk/settings';
import { bankPassKeyRing } from './bank-pass-cipher.ts';
import { openDatabase, type DatabaseOptions } from './client.ts';

/** One key: 32 bytes as 64 hex characters, or base64. */
const keyPattern = '[0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=';
/** A ring: keys separated by commas, the current one first. */
const ringPattern = new RegExp(`^\\s*(${keyPattern})(\\s*,\\s*(${keyPattern}))*\\s*$`);

export const storageSettings = {
  DATABASE_URL: text({
    pattern: '^postgres(ql)?://',
    accepts: 'a postgres:// URL',
    description: 'A PostgreSQL server (several API processes and ingesters share it). Unset: the embedded PGlite under the data folder, for one process.',
  }),
  EJDESK_DATA_DIR: text({ description: 'Folder of the embedded database and the secrets generated for the demo. Unset: `.data` at the repository root.' }),
  BANK_PASS_KEY: text({
    secret: true,
    pattern: ringPattern.source,
    accepts: 'a key of 32 bytes as 64 hex characters or base64; while rotating, several, comma-separated: the first seals, each opens',
    description:
      'Seals the stored bank passwords and mailbox secrets (AES-256-GCM) with its first key; each of its keys opens them, so a key is rotated without losing one (`pnpm rekey`, see "Rotating keys"). Required with DATABASE_URL; the embedded demo generates one into its data folder.',
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

/** The ring of a ring's text (BANK_PASS_KEY, or the data folder's key file), or undefined when it is not one. */
const ringOf = (value: string): Buffer | undefined =>
  ringPattern.test(value) ? bankPassKeyRing(value.split(',').map((key) => decodeKey(key.trim()))) : undefined;

/** The embedded database's key file in the data folder (a ring while `pnpm rekey --new-key` runs). */
export const bankPassKeyFile = 'bank-pass-key';

/**
 * BANK_PASS_KEY's ring (bank-pass-cipher.ts), required with DATABASE_URL; the embedded demo
 * generates a key into its data folder.
 */
export function bankPassKeyFrom(settings: { databaseUrl: string | undefined; bankPassKey: string | undefined }, dataDir: string): Buffer {
  // A real server must be given its key: one generated per host would split a cluster.
  if (settings.databaseUrl && !settings.bankPassKey) throw new SettingError('BANK_PASS_KEY is not set; it is required when DATABASE_URL is set.');
  if (settings.bankPassKey !== undefined) {
    const ring = ringOf(settings.bankPassKey);
    if (!ring) throw new SettingError(`BANK_PASS_KEY is set to a value that is not accepted; it accepts ${storageSettings.BANK_PASS_KEY.accepts}.`);
    return ring;
  }
  const file = join(dataDir, bankPassKeyFile);
  const ring = ringOf(generatedSecret(dataDir, bankPassKeyFile));
  if (!ring) throw new SettingError(`The data folder's key ${file} holds no key EJ Desk accepts (${storageSettings.BANK_PASS_KEY.accepts}).`);
  return ring;
}

/** Replace the data folder's key file with these keys (the current one first), whole or not at all. */
export function writeBankPassKeyFile(dataDir: string, keys: readonly string[]): void {
  const file = join(dataDir, bankPassKeyFile);
  writeFileSync(`${file}.new`, keys.join(',') + '\n', { mode: 0o600 });
  renameSync(`${file}.new`, file);
}
