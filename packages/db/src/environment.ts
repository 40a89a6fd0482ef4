// What the API and the mail ingester both read from their environment: where the database is and
// the key that seals the stored bank passwords. Kept here so that both processes agree.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openDatabase, type DatabaseOptions } from './client.ts';

/** Folder for the embedded database and generated secrets (git-ignored `.data` at the repo root). */
export const dataDirFrom = (env: NodeJS.ProcessEnv = process.env): string =>
  resolve(env.EJDESK_DATA_DIR || resolve(import.meta.dirname, '../../../.data'));

/** DATABASE_URL, else the embedded PGlite under the data folder. */
export const openConfiguredDatabase = (
  databaseUrl: string | undefined,
  dataDir: string,
  options: Pick<DatabaseOptions, 'statementTimeoutMs' | 'onConnectionError' | 'poolSize' | 'asynchronousCommit'> = {},
) => openDatabase({ ...options, url: databaseUrl, dataDir: join(dataDir, 'pg') });

/** A secret generated once into the data folder, so that it survives restarts (demo only). */
export function generatedSecret(dataDir: string, name: string): string {
  const file = join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const value = randomBytes(32).toString('base64');
  writeFileSync(file, value + '\n', { mode: 0o600 });
  return value;
}

function decodeKey(value: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (key.length !== 32) throw new Error('BANK_PASS_KEY must be 32 bytes, as 64 hex characters or base64');
  return key;
}

/** BANK_PASS_KEY, required with DATABASE_URL; the embedded demo generates one into its data folder. */
export function bankPassKeyFrom(env: NodeJS.ProcessEnv, dataDir: string): Buffer {
  const value = env.BANK_PASS_KEY || undefined;
  if (env.DATABASE_URL && !value) throw new Error('BANK_PASS_KEY must be set when DATABASE_URL is set');
  return decodeKey(value ?? generatedSecret(dataDir, 'bank-pass-key'));
}
