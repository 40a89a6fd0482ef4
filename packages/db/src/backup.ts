// A backup of the embedded database: a tar holding the database's data folder (PGlite's own
// consistent dump, gzipped) and the keys generated beside it (the token signing key and the bank
// passwords' key: without the second, a restored bank password cannot be read). It is written
// encrypted under a passphrase (backup-file.ts), or as the bare tar when asked to, which is also
// what backups were before they were encrypted. Restoring writes them into an empty data folder
// only: it never replaces a database.
import {
  closeSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { extract, pack } from 'tar-stream';
import { BackupError, openSealed, sealed, sealedHeader, type ScryptParams } from './backup-file.ts';
import { openDatabase } from './client.ts';

export { BackupError, type ScryptParams } from './backup-file.ts';

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

/** The tar of the database's dump and the data folder's keys, as it is made (the dump is not copied). */
function backupTar(dump: Buffer, dataDir: string): { keys: string[]; tar: AsyncIterable<Buffer> } {
  const archive = pack();
  const keys = keyFiles.filter((name) => existsSync(join(dataDir, name)));
  const manifest: Manifest = { format: 'ejdesk-backup', version: 1, made_at: new Date().toISOString(), keys };
  archive.entry({ name: manifestEntry }, JSON.stringify(manifest, null, 2));
  archive.entry({ name: databaseEntry }, dump);
  for (const name of keys) archive.entry({ name, mode: 0o600 }, readFileSync(join(dataDir, name)));
  archive.finalize();
  async function* tar() {
    for await (const chunk of archive) yield chunk as Buffer;
  }
  return { keys, tar: tar() };
}

/** How a backup is written: sealed under a passphrase, or the bare tar (keys in clear) when asked for by name. */
export type BackupProtection = { passphrase: string; scrypt?: ScryptParams } | 'unencrypted';

/**
 * Write the backup of `dump` and `dataDir`'s keys to `path`, whole or not at all (a backup cut short
 * must never pass for one). Returns its size and the key files it holds.
 */
export async function writeBackup(path: string, dump: Buffer, dataDir: string, protection: BackupProtection): Promise<{ bytes: number; keys: string[] }> {
  const { keys, tar } = backupTar(dump, dataDir);
  const partial = `${path}.partial`;
  const out = createWriteStream(partial, { mode: 0o600 });
  try {
    await pipeline(protection === 'unencrypted' ? tar : sealed(tar, protection.passphrase, protection.scrypt), out);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  renameSync(partial, path);
  return { bytes: statSync(path).size, keys };
}

/** A tar file (what a backup was before it was encrypted, and what `--unencrypted` writes). */
function isTar(path: string): boolean {
  const fd = openSync(path, 'r');
  const block = Buffer.alloc(512);
  try {
    return readSync(fd, block, 0, 512, 0) === 512 && block.subarray(257, 262).toString() === 'ustar';
  } finally {
    closeSync(fd);
  }
}

async function unpackBackup(file: Buffer): Promise<{ manifest: Manifest; dump: Buffer; keys: Map<string, Buffer> }> {
  const entries = new Map<string, Buffer>();
  const reader = extract();
  Readable.from([file]).pipe(reader);
  try {
    for await (const entry of reader) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      entries.set(entry.header.name, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    }
  } catch (error) {
    throw new BackupError(`It is not an EJ Desk backup (${(error as Error).message}).`);
  }
  let manifest: Manifest;
  try {
    manifest = JSON.parse(entries.get(manifestEntry)?.toString() ?? '') as Manifest;
  } catch {
    throw new BackupError('It is not an EJ Desk backup (no manifest).');
  }
  if (manifest.format !== 'ejdesk-backup' || manifest.version !== 1) throw new BackupError('It is a backup of another format or version.');
  const dump = entries.get(databaseEntry);
  if (!dump) throw new BackupError('The backup holds no database.');
  return { manifest, dump, keys: new Map(keyFiles.filter((k) => entries.has(k)).map((k) => [k, entries.get(k)!])) };
}

/** The database folder inside a data folder (as openConfiguredDatabase opens it). */
const databaseDir = (dataDir: string) => join(dataDir, 'pg');

/**
 * Restore the backup at `path` into `dataDir`, which must hold no database yet; the keys are written
 * only where the folder has none. `passphrase` is asked only of an encrypted backup, once the file
 * and the folder are known to fit, and nothing is written before the backup is opened and checked.
 */
export async function restoreBackup(path: string, dataDir: string, passphrase: () => Promise<string>): Promise<{ madeAt: string; encrypted: boolean }> {
  const header = sealedHeader(path);
  if (!header && !isTar(path)) throw new BackupError(`${path} is not an EJ Desk backup.`);
  const target = databaseDir(dataDir);
  if (existsSync(target) && readdirSync(target).length > 0) {
    throw new BackupError(`${dataDir} already holds a database: restore into an empty data folder, or move this one away first.`);
  }
  const { manifest, dump, keys } = await unpackBackup(header ? await openSealed(path, header, await passphrase()) : readFileSync(path));
  for (const [name, value] of keys) {
    const key = join(dataDir, name);
    if (existsSync(key) && !readFileSync(key).equals(value)) {
      throw new BackupError(`${key} holds another key than the backup's: restore into an empty data folder.`);
    }
  }
  mkdirSync(dataDir, { recursive: true });
  const database = await openDatabase({ dataDir: target, loadDataDir: dump });
  await database.close();
  for (const [name, value] of keys) writeFileSync(join(dataDir, name), value, { mode: 0o600 });
  return { madeAt: manifest.made_at, encrypted: header !== null };
}
