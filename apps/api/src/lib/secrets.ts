// Signing and encryption keys: from the environment in production; for the embedded demo, generated
// once into the data folder so that tokens and stored bank passwords survive restarts.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiConfig } from '../config.ts';

export interface Secrets {
  jwtSecret: string;
  /** 32 bytes for AES-256-GCM. */
  bankPassKey: Buffer;
}

function generated(dataDir: string, name: string): string {
  const file = join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const value = randomBytes(32).toString('base64');
  writeFileSync(file, value + '\n', { mode: 0o600 });
  return value;
}

export function decodeKey(value: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (key.length !== 32) throw new Error('BANK_PASS_KEY must be 32 bytes, as 64 hex characters or base64');
  return key;
}

export function loadSecrets(config: ApiConfig): Secrets {
  // A real server must be given its keys: generating them per host would split a cluster.
  if (config.databaseUrl && (!config.jwtSecret || !config.bankPassKey)) {
    throw new Error('JWT_SECRET and BANK_PASS_KEY must be set when DATABASE_URL is set');
  }
  const jwtSecret = config.jwtSecret ?? generated(config.dataDir, 'jwt-secret');
  if (jwtSecret.length < 32) throw new Error('JWT_SECRET must be at least 32 characters');
  return {
    jwtSecret,
    bankPassKey: decodeKey(config.bankPassKey ?? generated(config.dataDir, 'bank-pass-key')),
  };
}
