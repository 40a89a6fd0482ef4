// Signing and encryption keys: from the environment in production; for the embedded demo, generated
// once into the data folder so that tokens and stored bank passwords survive restarts.
import { timingSafeEqual } from 'node:crypto';
import { bankPassKeyFrom, generatedSecret } from '@ejdesk/db';
import type { ApiConfig } from '../config.ts';

export interface Secrets {
  jwtSecret: string;
  /** 32 bytes for AES-256-GCM. */
  bankPassKey: Buffer;
}

export function loadSecrets(config: ApiConfig): Secrets {
  // A real server must be given its keys: generating them per host would split a cluster.
  if (config.databaseUrl && (!config.jwtSecret || !config.bankPassKey)) {
    throw new Error('JWT_SECRET and BANK_PASS_KEY must be set when DATABASE_URL is set');
  }
  const jwtSecret = config.jwtSecret ?? generatedSecret(config.dataDir, 'jwt-secret');
  if (jwtSecret.length < 32) throw new Error('JWT_SECRET must be at least 32 characters');
  return {
    jwtSecret,
    bankPassKey: bankPassKeyFrom({ DATABASE_URL: config.databaseUrl, BANK_PASS_KEY: config.bankPassKey }, config.dataDir),
  };
}

/** Compares a presented secret (proxy header, metrics token) in constant time. */
export const sameSecret = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
