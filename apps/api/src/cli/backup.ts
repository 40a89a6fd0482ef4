// `pnpm backup FILE` and `pnpm restore FILE`: the embedded database (EJDESK_DATA_DIR) and its keys,
// encrypted under a passphrase (BACKUP_PASSPHRASE, or asked on the terminal): the file holds the
// keys that read every bank password and sign any user's token. `--unencrypted` writes them in
// clear, when asked for by name. While the product runs, the database is the API process's alone,
// so the backup is asked of the API on its own port (a consistent dump, taken between two
// statements); when nothing runs, the data folder is opened here. A restore goes into an empty data
// folder only. On PostgreSQL, a backup is pg_dump's: docs/operations.md has the commands.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { BackupError, restoreBackup, storedSecret, writeBackup } from '@ejdesk/db';
import { readSettings, SettingError, startingWith } from '@ejdesk/settings';
import { backupSettings, loadConfig } from '../config.ts';
import { openConfiguredDatabase } from '../database.ts';
import { backupToken } from '../lib/backup-token.ts';

const usage =
  'Usage: pnpm backup FILE [--unencrypted] | pnpm restore FILE   (the embedded database in EJDESK_DATA_DIR with its keys; the passphrase from BACKUP_PASSPHRASE or the terminal)';
const args = (() => {
  try {
    return parseArgs({ options: { unencrypted: { type: 'boolean' } }, allowPositionals: true });
  } catch {
    return null;
  }
})();
const [mode, file, ...extra] = args?.positionals ?? [];
const unencrypted = args?.values.unencrypted === true;
if ((mode !== 'backup' && mode !== 'restore') || !file || extra.length > 0 || (unencrypted && mode !== 'backup')) {
  console.error(usage);
  process.exit(2);
}
const config = startingWith('EJ Desk', loadConfig);
const { BACKUP_PASSPHRASE: givenPassphrase } = startingWith('EJ Desk', () => readSettings(backupSettings));
if (config.databaseUrl) {
  console.error('DATABASE_URL is set: back up PostgreSQL with pg_dump (docs/operations.md, "Backups").');
  process.exit(2);
}
const path = resolve(file);
const minimumLength = 12;

/** A line typed on the terminal, not echoed (raw mode: the terminal shows nothing of it). */
function askUnseen(question: string): Promise<string> {
  const input = process.stdin;
  // Raw before the question shows: what is typed once it shows is never echoed.
  input.setRawMode(true);
  process.stderr.write(question);
  input.setEncoding('utf8');
  input.resume();
  return new Promise((resolve) => {
    let typed: string[] = [];
    const done = () => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      process.stderr.write('\n');
    };
    const onData = (text: string) => {
      for (const character of text) {
        if (character === '\r' || character === '\n' || character === '\u0004') {
          done();
          resolve(typed.join(''));
          return;
        }
        if (character === '\u0003') {
          done();
          process.exit(130);
        }
        if (character === '\u007f' || character === '\b') typed = typed.slice(0, -1);
        else if (character >= ' ') typed.push(character);
      }
    };
    input.on('data', onData);
  });
}

/** The passphrase: BACKUP_PASSPHRASE, else asked on the terminal (twice for a backup: a typo there loses it). */
async function passphrase(): Promise<string> {
  if (givenPassphrase) return givenPassphrase;
  if (!process.stdin.isTTY) {
    throw new BackupError(
      mode === 'backup'
        ? `No passphrase to encrypt the backup with: set BACKUP_PASSPHRASE (at least ${minimumLength} characters), or run pnpm backup on a terminal to be asked for one. Nothing was written.`
        : `${path} is encrypted and there is no passphrase to open it: set BACKUP_PASSPHRASE, or run pnpm restore on a terminal to be asked for it. Nothing was written.`,
    );
  }
  if (mode === 'restore') return askUnseen('Passphrase of the backup: ');
  const chosen = await askUnseen(`Passphrase for the backup (at least ${minimumLength} characters): `);
  if (chosen.length < minimumLength) throw new BackupError(`The passphrase must be at least ${minimumLength} characters. Nothing was written.`);
  if ((await askUnseen('The same passphrase again: ')) !== chosen) throw new BackupError('The two passphrases differ. Nothing was written.');
  return chosen;
}

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
      `The API on port ${config.port} refused the backup (${response.status}: ${detail ?? 'no detail'}); is it running on another data folder?`,
    );
  }
  return Buffer.from(await response.arrayBuffer());
}

/** What a backup without a passphrase exposes, in the operators' words. */
const exposed: Record<string, string> = {
  'jwt-secret': 'the token signing key (jwt-secret: it signs a token for any user, admins included)',
  'bank-pass-key': 'the bank-password key (bank-pass-key: it reads every stored bank password and mailbox secret)',
};

try {
  if (mode === 'backup') {
    // Asked before the dump, so that a refusal costs nothing and the terminal is not kept waiting.
    const protection = unencrypted ? 'unencrypted' : { passphrase: await passphrase() };
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
    const { bytes, keys } = await writeBackup(path, dump, config.dataDir, protection);
    const size = `${(bytes / 1048576).toFixed(1)} MB`;
    if (unencrypted) {
      console.log(`Backup of ${config.dataDir} written to ${path} (${size}, NOT encrypted), from ${from}.`);
      const clear = keys.length > 0 ? `, in clear, ${keys.map((key) => exposed[key]).join(' and ')}, beside the database` : ' the database in clear';
      console.error(
        `Warning: this backup is not encrypted. ${path} holds${clear}. Whoever reads the file has all of it: keep it where no one else can, or delete it and back up with a passphrase.`,
      );
    } else {
      console.log(`Backup of ${config.dataDir} written to ${path} (${size}, encrypted with the passphrase), from ${from}.`);
    }
  } else {
    const { madeAt, encrypted } = await restoreBackup(path, config.dataDir, passphrase);
    // Brought up to this build's migrations, as the API would at its start.
    const database = await openConfiguredDatabase(config);
    await database.migrate();
    await database.close();
    console.log(`Restored the backup of ${madeAt} into ${config.dataDir}.`);
    if (!encrypted) {
      console.log(`It was not encrypted: ${path} holds the data folder's keys in clear. Keep it where no one else can read it, or delete it.`);
    }
  }
} catch (error) {
  const known = error instanceof BackupError || error instanceof SettingError || (error as NodeJS.ErrnoException).code === 'ENOENT';
  console.error(`EJ Desk ${mode}: ${known ? (error as Error).message : `failed: ${String(error)}`}`);
  process.exit(1);
}
