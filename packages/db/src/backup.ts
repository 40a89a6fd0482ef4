// A backup of the embedded database: one tar file holding the database's data folder (PGlite's
// own consistent dump, gzipped) and the keys generated beside it (the token signing key and the
// bank passwords' key: without the second, a restored bank password cannot be read). Restoring
// writes them into an empty data folder only: it never replaces a database.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { extract, pack } from 'tar-stream';
import { openDatabase } from './client.ts';

/** The files of a data folder besides its database that a backup carries. */
const keyFiles = ['jwt-secret', 'bank-pass-key'] as const;
const databaseEntry = 'database.tar.gz';
const manifestEntry = 'ejdesk-backup.json';

interface Manifest {
  format: 'ejdesk-backup';
  version: 1;
  made_at: string;
  keys: string[];
}

/** The backup file's bytes: the database's dump and the data folder's keys. */
export async function packBackup(dump: Buffer, dataDir: string): Promise<Buffer> {
  const archive = pack();
  const keys = keyFiles.filter((name) => existsSync(join(dataDir, name)));
  const manifest: Manifest = { format: 'ejdesk-backup', version: 1, made_at: new Date().toISOString(), keys };
  archive.entry({ name: manifestEntry }, JSON.stringify(manifest, null, 2));
  archive.entry({ name: databaseEntry }, dump);
  for (const name of keys) archive.entry({ name, mode: 0o600 }, readFileSync(join(dataDir, name)));
  archive.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of archive) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Why a file is not a backup this version can restore, in words. */
export class BackupError extends Error {}

async function unpackBackup(file: Buffer): Promise<{ manifest: Manifest; dump: Buffer; keys: Map<string, Buffer> }> {
  const entries = new Map<string, Buffer>();
  const reader = extract();
  Readable.from([file]).pipe(reader);
  try {
    for await (const entry of reader) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      entries.set(entry.header.name, Buffer.concat(chunks));
    }
  } catch (error) {
    throw new BackupError(`it is not an EJ Desk backup (${(error as Error).message})`);
  }
  let manifest: Manifest;
  try {
    manifest = JSON.parse(entries.get(manifestEntry)?.toString() ?? '') as Manifest;
  } catch {
    throw new BackupError('it is not an EJ Desk backup (no manifest)');
  }
  if (manifest.format !== 'ejdesk-backup' || manifest.version !== 1) throw new BackupError('it is a backup of another format or version');
  const dump = entries.get(databaseEntry);
  if (!dump) throw new BackupError('the backup holds no database');
  return { manifest, dump, keys: new Map(keyFiles.filter((k) => entries.has(k)).map((k) => [k, entries.get(k)!])) };
}

/** The database folder inside a data folder (as openConfiguredDatabase opens it). */
const databaseDir = (dataDir: string) => join(dataDir, 'pg');

/**
 * Restore a backup into `dataDir`, which must hold no database yet; the keys are written only
 * where the folder has none. Returns when the backup was made.
 */
export async function restoreBackup(file: Buffer, dataDir: string): Promise<{ madeAt: string }> {
  const { manifest, dump, keys } = await unpackBackup(file);
  const target = databaseDir(dataDir);
  if (existsSync(target) && readdirSync(target).length > 0) {
    throw new BackupError(`${dataDir} already holds a database: restore into an empty data folder, or move this one away first`);
  }
  mkdirSync(dataDir, { recursive: true });
  for (const [name, value] of keys) {
    const path = join(dataDir, name);
    if (existsSync(path) && !readFileSync(path).equals(value)) {
      throw new BackupError(`${path} holds another key than the backup's: restore into an empty data folder`);
    }
  }
  const database = await openDatabase({ dataDir: target, loadDataDir: dump });
  await database.close();
  for (const [name, value] of keys) writeFileSync(join(dataDir, name), value, { mode: 0o600 });
  return { madeAt: manifest.made_at };
}
