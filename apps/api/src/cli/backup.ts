// `pnpm backup FILE` and `pnpm restore FILE`: the embedded database (EJDESK_DATA_DIR) and its keys.
// While the product runs, the database is the API process's alone, so the backup is asked of the
// API on its own port (a consistent dump, taken between two statements); when nothing runs, the
// data folder is opened here. A restore goes into an empty data folder only. On PostgreSQL, a
// backup is pg_dump's: docs/operations.md has the commands.
import { renameSync, writeFileSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { BackupError, packBackup, restoreBackup, storedSecret } from '@ejdesk/db';
import { SettingError, startingWith } from '@ejdesk/settings';
import { loadConfig } from '../config.ts';
import { openConfiguredDatabase } from '../database.ts';
import { backupToken } from '../routes/backup/index.ts';

const usage = 'Usage: pnpm backup FILE | pnpm restore FILE   (the embedded database in EJDESK_DATA_DIR, with its keys)';
const [mode, file] = process.argv.slice(2);
if ((mode !== 'backup' && mode !== 'restore') || !file) {
  console.error(usage);
  process.exit(2);
}
const config = startingWith('EJ Desk', loadConfig);
if (config.databaseUrl) {
  console.error('DATABASE_URL is set: back up PostgreSQL with pg_dump (docs/operations.md, "Backups").');
  process.exit(2);
}
const path = resolve(file);

/**
 * The API's signing secret as it reads it, without making one: a data folder that has none was never
 * served, and a backup must not write into the folder it copies.
 */
const servingSecret = () => config.jwtSecret ?? storedSecret(config.dataDir, 'jwt-secret');

/** The dump from the running API, or null when no API serves this data folder on API_PORT. */
async function dumpFromRunningApi(): Promise<Buffer | null> {
  const secret = servingSecret();
  if (!secret) return null;
  let response: Response;
  try {
    response = await fetch(`http://127.0.0.1:${config.port}/api/backup/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${backupToken(secret)}` },
    });
  } catch {
    return null;
  }
  if (!response.ok) {
    const detail = ((await response.json().catch(() => ({}))) as { detail?: string }).detail;
    throw new BackupError(
      `the API on port ${config.port} refused the backup (${response.status}: ${detail ?? 'no detail'}); is it running on another data folder?`,
    );
  }
  return Buffer.from(await response.arrayBuffer());
}

try {
  if (mode === 'backup') {
    let dump = await dumpFromRunningApi();
    const from = dump ? `the running API (port ${config.port})` : 'the data folder (nothing runs on it)';
    if (!dump) {
      const database = await openConfiguredDatabase(config);
      try {
        dump = await database.dump!();
      } finally {
        await database.close();
      }
    }
    const backup = await packBackup(dump, config.dataDir);
    // Written whole or not at all: a backup cut short must never pass for one.
    writeFileSync(`${path}.partial`, backup, { mode: 0o600 });
    renameSync(`${path}.partial`, path);
    console.log(`Backup of ${config.dataDir} written to ${path} (${(backup.length / 1048576).toFixed(1)} MB), from ${from}.`);
  } else {
    const { madeAt } = await restoreBackup(readFileSync(path), config.dataDir);
    // Brought up to this build's migrations, as the API would at its start.
    const database = await openConfiguredDatabase(config);
    await database.migrate();
    await database.close();
    console.log(`Restored the backup of ${madeAt} into ${config.dataDir}.`);
  }
} catch (error) {
  const known = error instanceof BackupError || error instanceof SettingError || (error as NodeJS.ErrnoException).code === 'ENOENT';
  console.error(`EJ Desk ${mode}: ${known ? (error as Error).message : `failed: ${String(error)}`}`);
  process.exit(1);
}
