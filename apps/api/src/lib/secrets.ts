// Signing and encryption keys: from the environment in production; for the embedded demo, generated
// once into the data folder so that tokens and stored bank passwords survive restarts. Both can be
// rotated: JWT_PREVIOUS_SECRET verifies beside JWT_SECRET, and BANK_PASS_KEY is a ring whose other
// keys still open what they sealed.
import { timingSafeEqual } from 'node:crypto';
import { bankPassKeyFrom, generatedSecret } from '@ejdesk/db';
import { SettingError } from '@ejdesk/settings';
import type { ApiConfig } from '../config.ts';

export interface Secrets {
  /** Signs every token. */
  jwtSecret: string;
  /** JWT_PREVIOUS_SECRET, while JWT_SECRET is rotated: what it signs verifies too; it signs nothing. */
  jwtPreviousSecret?: string | undefined;
  /** AES-256-GCM keys of 32 bytes, one after another (a ring: the first seals, any opens). */
  bankPassKey: Buffer;
}

export function loadSecrets(config: ApiConfig): Secrets {
  // A real server must be given its keys: generating them per host would split a cluster.
  if (config.databaseUrl && !config.jwtSecret) throw new SettingError('JWT_SECRET is not set; it is required when DATABASE_URL is set.');
  return {
    jwtSecret: config.jwtSecret ?? generatedSecret(config.dataDir, 'jwt-secret'),
    jwtPreviousSecret: config.jwtPreviousSecret,
    bankPassKey: bankPassKeyFrom(config, config.dataDir),
  };
}

/** Compares a presented secret (proxy header, metrics token) in constant time. */
export const sameSecret = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
