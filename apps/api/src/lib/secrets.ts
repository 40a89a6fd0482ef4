// Signing and encryption keys: from the environment in production; for the embedded demo, generated
// once into the data folder so that tokens and stored bank passwords survive restarts.
import { timingSafeEqual } from 'node:crypto';
import { bankPassKeyFrom, generatedSecret } from '@ejdesk/db';
import { SettingError } from '@ejdesk/settings';
import type { ApiConfig } from '../config.ts';

export interface Secrets {
  jwtSecret: string;
  /** 32 bytes for AES-256-GCM. */
  bankPassKey: Buffer;
}

export function loadSecrets(config: ApiConfig): Secrets {
  // A real server must be given its keys: generating them per host would split a cluster.
  if (config.databaseUrl && !config.jwtSecret) throw new SettingError('JWT_SECRET is not set; it is required when DATABASE_URL is set.');
  return {
    jwtSecret: config.jwtSecret ?? generatedSecret(config.dataDir, 'jwt-secret'),
    bankPassKey: bankPassKeyFrom(config, config.dataDir),
  };
}

/** Compares a presented secret (proxy header, metrics token) in constant time. */
export const sameSecret = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
