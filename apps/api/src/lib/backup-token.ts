// The token `pnpm backup` presents to POST /api/backup/: what the CLI sends and the API checks.
import { createHash } from 'node:crypto';

/** Derived from the token signing key, which only the data folder (or JWT_SECRET) holds. */
export const backupToken = (jwtSecret: string) => createHash('sha256').update(`ejdesk-backup\n${jwtSecret}`).digest('hex');
