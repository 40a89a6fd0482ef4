// Backups: `pnpm backup` encrypts the database and its keys under a passphrase (the file shows
// neither key nor the database), `pnpm restore` opens it only with that passphrase and only when not
// a byte of it changed, writing nothing otherwise; a backup without one is written only when asked
// for by name, and says what it exposes; the backups made before encryption still restore. The API's
// dump of its embedded database (for `pnpm backup` while the product runs) answers only to the data
// folder's token and never through the edge; a real server's backup is pg_dump's, and the documented
// pg_dump and pg_restore commands bring back the same rows.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bankPasswords, bankPassKeyFrom, BackupError, decryptBankPass, openDatabase, queryRows, restoreBackup, writeBackup } from '@ejdesk/db';
import { backupToken } from '../src/lib/backup-token.ts';
import { createTestApp, testDatabaseUrl, throwawayDatabase } from './helpers.ts';
import { freePort } from '@ejdesk/http/testing';

const run = promisify(execFile);
const cwd = new URL('..', import.meta.url).pathname;
const userEmails = async (db: Parameters<typeof queryRows>[0]) =>
  (await queryRows<{ email: string }>(db, sql`select email from users order by id`)).map((u) => u.email);
const passphrase = 'correct horse battery staple';
/** gzip's header as PGlite writes its dump: magic, deflate, no flags, no time, Unix. */
const gzipHeader = Buffer.from('1f8b0800000000000003', 'hex');
const keyNames = ['jwt-secret', 'bank-pass-key'];

/** A CLI of the API as a child process (stdin a pipe: no terminal), its exit code and output. */
async function cli(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    return { code: 0, ...(await run(process.execPath, ['--import', 'tsx', `src/cli/${script}`, ...args], { cwd, env })) };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

/** The embedded database's dump, of a data folder nothing runs on. */
async function dumpOf(dataDir: string): Promise<Buffer> {
  const database = await openDatabase({ dataDir: join(dataDir, 'pg') });
  try {
    return await database.dump!();
  } finally {
    await database.close();
  }
}

describe('pnpm backup and pnpm restore', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  /** The data folder's files before the encrypted backup, and what that backup's CLI said. */
  let before: string[];
  let made: Awaited<ReturnType<typeof cli>>;
  const data = () => join(dir, 'data');
  const into = (folder: string, extra: NodeJS.ProcessEnv = {}) => ({ ...env, EJDESK_DATA_DIR: join(dir, folder), ...extra });
  const backup = (file: string, extra: NodeJS.ProcessEnv = {}, flags: string[] = []) =>
    cli('backup.ts', ['backup', join(dir, file), ...flags], { ...env, ...extra });
  const restore = (file: string, folder: string, extra: NodeJS.ProcessEnv = {}) => cli('backup.ts', ['restore', join(dir, file)], into(folder, extra));

  /** The restored folder holds the same users and keys, and its key reads a bank password the seed stored. */
  async function expectRestored(folder: string) {
    for (const key of keyNames) expect(readFileSync(join(dir, folder, key), 'utf8'), key).toBe(readFileSync(join(data(), key), 'utf8'));
    const database = await openDatabase({ dataDir: join(dir, folder, 'pg') });
    try {
      expect(await userEmails(database.db)).toEqual(['ops@bank.example']);
      const [apex] = await database.db.select().from(bankPasswords).where(eq(bankPasswords.bankName, 'Apex Bank'));
      const key = bankPassKeyFrom({ databaseUrl: undefined, bankPassKey: undefined }, join(dir, folder));
      expect(decryptBankPass(key, apex!.bankPassEncrypted)).toBe('APX@2024');
    } finally {
      await database.close();
    }
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ejdesk-backup-cli-'));
    env = { ...process.env, DATABASE_URL: '', EJDESK_DATA_DIR: join(dir, 'data'), API_PORT: String(await freePort()), BACKUP_PASSPHRASE: '' };
    // A data folder as a served one has it: the keys generated beside the database, a bank password sealed with one.
    expect((await cli('seed.ts', ['--emails', '3', '--ej', '3', '--files-per-kind', '0'], env)).code).toBe(0);
    expect((await cli('user-create.ts', ['--email', 'ops@bank.example'], { ...env, EJDESK_PASSWORD: 'a long enough password' })).code).toBe(0);
    expect(readdirSync(data())).toEqual(expect.arrayContaining(keyNames));
    before = readdirSync(data()).sort();
    made = await backup('ejdesk.backup', { BACKUP_PASSPHRASE: passphrase });
  }, 180_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('an encrypted backup holds neither key nor the database in clear, writes nothing into the folder, and restores whole', async () => {
    expect(made).toMatchObject({ code: 0, stdout: expect.stringContaining('encrypted with the passphrase), from the data folder (nothing runs on it)') });
    expect(readdirSync(data()).sort()).toEqual(before);

    const file = readFileSync(join(dir, 'ejdesk.backup'));
    expect(file.subarray(0, 14).toString()).toBe('EJDESK-BACKUP\n');
    for (const key of keyNames) {
      const value = readFileSync(join(data(), key), 'utf8').trim();
      expect(file.includes(value), key).toBe(false);
      expect(file.includes(Buffer.from(value, 'base64')), `${key}'s bytes`).toBe(false);
    }
    expect(file.includes(gzipHeader)).toBe(false);
    expect(file.includes('database.tar.gz')).toBe(false);

    const restored = await restore('ejdesk.backup', 'restored', { BACKUP_PASSPHRASE: passphrase });
    expect(restored).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Restored the backup of \S+ into /) });
    expect(restored.stdout).not.toContain('not encrypted');
    await expectRestored('restored');
  }, 120_000);

  test('a wrong passphrase, or a changed byte, is refused in words and nothing is written', async () => {
    const wrong = await restore('ejdesk.backup', 'wrong', { BACKUP_PASSPHRASE: 'battery staple horse correct' });
    expect(wrong).toMatchObject({ code: 1, stderr: expect.stringContaining('The passphrase does not open this backup.') });
    expect(existsSync(join(dir, 'wrong'))).toBe(false);

    const file = readFileSync(join(dir, 'ejdesk.backup'));
    const middle = Math.floor(file.length / 2);
    file.writeUInt8(file[middle]! ^ 0x01, middle);
    writeFileSync(join(dir, 'flipped.backup'), file);
    await expect(restoreBackup(join(dir, 'flipped.backup'), join(dir, 'flipped'), async () => passphrase)).rejects.toThrow(
      'The backup was altered or damaged after it was written',
    );
    expect(existsSync(join(dir, 'flipped'))).toBe(false);
  }, 120_000);

  test('with no passphrase and no terminal, a backup is refused saying how to give one, and an encrypted backup is not opened', async () => {
    const refused = await backup('none.backup');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('No passphrase to encrypt the backup with: set BACKUP_PASSPHRASE');
    expect(refused.stderr).toContain('run pnpm backup on a terminal');
    expect(existsSync(join(dir, 'none.backup'))).toBe(false);
    expect(existsSync(join(dir, 'none.backup.partial'))).toBe(false);

    const unopened = await restore('ejdesk.backup', 'unopened');
    expect(unopened).toMatchObject({ code: 1, stderr: expect.stringContaining('is encrypted and there is no passphrase to open it: set BACKUP_PASSPHRASE') });
    expect(existsSync(join(dir, 'unopened'))).toBe(false);
  }, 60_000);

  test('asked on the terminal, the passphrase is typed twice and never shown', async () => {
    const typed = 'typed on the terminal only';
    const command = `${process.execPath} --import tsx src/cli/backup.ts backup ${join(dir, 'typed.backup')}`;
    // script(1) gives the CLI a terminal; each answer is written once its question shows (raw mode is on by then).
    const child = spawn('script', ['-qec', command, '/dev/null'], { cwd, env });
    let screen = '';
    const questions = ['(at least 12 characters): ', 'The same passphrase again: '];
    child.stdout.on('data', (chunk: Buffer) => {
      screen += chunk.toString();
      if (questions[0] && screen.includes(questions[0])) {
        questions.shift();
        child.stdin.write(`${typed}\r`);
      }
    });
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(screen).toContain('encrypted with the passphrase');
    expect(code).toBe(0);
    expect(screen).not.toContain(typed);
    await restoreBackup(join(dir, 'typed.backup'), join(dir, 'typed'), async () => typed);
    await expectRestored('typed');
  }, 120_000);

  test('--unencrypted writes the keys in clear and says so, and its restore says it was not encrypted', async () => {
    const made = await backup('clear.tar', { BACKUP_PASSPHRASE: passphrase }, ['--unencrypted']);
    expect(made.code).toBe(0);
    expect(made.stdout).toContain('NOT encrypted');
    expect(made.stderr).toContain('Warning: this backup is not encrypted.');
    expect(made.stderr).toContain('in clear, the token signing key (jwt-secret');
    expect(made.stderr).toContain('and the bank-password key (bank-pass-key');
    // What the encrypted file hides is there to find in this one.
    const file = readFileSync(join(dir, 'clear.tar'));
    for (const key of keyNames) expect(file.includes(readFileSync(join(data(), key)))).toBe(true);
    expect(file.includes(gzipHeader)).toBe(true);

    const restored = await restore('clear.tar', 'clear');
    expect(restored).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Restored the backup of \S+ into /) });
    expect(restored.stdout).toContain('It was not encrypted');
    await expectRestored('clear');
  }, 120_000);

  test('a backup made before backups were encrypted (a plain tar) still restores, without a passphrase', async () => {
    // The old format, written by tar(1): its manifest, the database's dump, the key files.
    const old = join(dir, 'old');
    mkdirSync(old);
    writeFileSync(join(old, 'database.tar.gz'), await dumpOf(data()));
    const manifest = { format: 'ejdesk-backup', version: 1, made_at: '2024-05-01T10:00:00.000Z', keys: keyNames };
    writeFileSync(join(old, 'ejdesk-backup.json'), JSON.stringify(manifest, null, 2));
    for (const key of keyNames) writeFileSync(join(old, key), readFileSync(join(data(), key)));
    await run('tar', ['--format=ustar', '-cf', join(dir, 'old.tar'), '-C', old, 'ejdesk-backup.json', 'database.tar.gz', ...keyNames]);

    const restored = await restore('old.tar', 'from-old');
    expect(restored).toMatchObject({ code: 0, stdout: expect.stringContaining('Restored the backup of 2024-05-01T10:00:00.000Z into ') });
    expect(restored.stdout).toContain('It was not encrypted');
    await expectRestored('from-old');
  }, 120_000);

  test('the header is authenticated, its scrypt cost is read from it, and a file of another kind or a newer version is told apart', async () => {
    const dump = await dumpOf(data());
    const lighter = join(dir, 'lighter.backup');
    await writeBackup(lighter, dump, data(), { passphrase, scrypt: { N: 2 ** 14, r: 8, p: 1 } });
    const file = readFileSync(lighter);
    const headerEnd = file.indexOf('\n', 14) + 1;
    expect(JSON.parse(file.subarray(14, headerEnd).toString())).toMatchObject({ version: 1, cipher: 'aes-256-gcm', kdf: 'scrypt', N: 16384, r: 8, p: 1 });
    const ask = async () => passphrase;
    await restoreBackup(lighter, join(dir, 'lighter'), ask);
    await expectRestored('lighter');

    // The same fields, one space more: the key and the passphrase check still agree, GCM does not.
    const spaced = join(dir, 'spaced.backup');
    writeFileSync(spaced, Buffer.concat([file.subarray(0, 14), Buffer.from(' '), file.subarray(14)]));
    await expect(restoreBackup(spaced, join(dir, 'spaced'), ask)).rejects.toThrow('altered or damaged');
    const cut = join(dir, 'cut.backup');
    writeFileSync(cut, file.subarray(0, file.length - 1));
    await expect(restoreBackup(cut, join(dir, 'cut'), ask)).rejects.toThrow('altered or damaged');
    const newer = join(dir, 'newer.backup');
    writeFileSync(newer, Buffer.concat([Buffer.from('EJDESK-BACKUP\n{"version":2}\n'), file.subarray(headerEnd)]));
    await expect(restoreBackup(newer, join(dir, 'newer'), ask)).rejects.toThrow('format version 2; this build reads version 1');
    const costly = join(dir, 'costly.backup');
    writeFileSync(costly, file.toString('latin1').replace('"N":16384', `"N":${2 ** 22}`), 'latin1');
    await expect(restoreBackup(costly, join(dir, 'costly'), ask)).rejects.toThrow('beyond what this build accepts');
    const other = join(dir, 'other.txt');
    writeFileSync(other, 'not a backup');
    await expect(restoreBackup(other, join(dir, 'other'), ask)).rejects.toThrow(new BackupError(`${other} is not an EJ Desk backup.`));
    for (const folder of ['spaced', 'cut', 'newer', 'costly', 'other']) expect(existsSync(join(dir, folder)), folder).toBe(false);
  }, 60_000);
});

describe('POST /api/backup/ (the embedded database)', () => {
  test('answers the dump to the data folder’s token only, never through the edge, and the dump restores whole', async () => {
    const t = await createTestApp('pglite');
    const dir = mkdtempSync(join(tmpdir(), 'ejdesk-restore-'));
    try {
      const ask = (headers: Record<string, string>) => t.app.inject({ method: 'POST', url: '/api/backup/', headers });
      expect((await ask({})).statusCode).toBe(401);
      expect((await ask({ authorization: `Bearer ${backupToken('another data folder’s key')}` })).json()).toEqual({
        detail: 'A valid backup token is required.',
      });
      const token = { authorization: `Bearer ${backupToken(t.secrets.jwtSecret)}` };
      expect((await ask({ ...token, 'x-ejdesk-proxy': 'anything' })).statusCode).toBe(404);
      const answer = await ask(token);
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toBe('application/gzip');

      const file = join(dir, 'ejdesk.backup');
      await writeBackup(file, answer.rawPayload, dir, { passphrase });
      const given = async () => passphrase;
      await restoreBackup(file, join(dir, 'restored'), given);
      const restored = await openDatabase({ dataDir: join(dir, 'restored', 'pg') });
      expect(await userEmails(restored.db)).toEqual(await userEmails(t.database.db));
      await restored.close();
      await expect(restoreBackup(file, join(dir, 'restored'), given)).rejects.toThrow('already holds a database');
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe.runIf(testDatabaseUrl)('PostgreSQL backups', () => {
  test('POST /api/backup/ is not there (pg_dump is), and the documented pg_dump and pg_restore bring back the same rows', async () => {
    const t = await createTestApp('postgres');
    const target = await throwawayDatabase();
    const dir = mkdtempSync(join(tmpdir(), 'ejdesk-pgdump-'));
    try {
      expect(
        (await t.app.inject({ method: 'POST', url: '/api/backup/', headers: { authorization: `Bearer ${backupToken(t.secrets.jwtSecret)}` } })).statusCode,
      ).toBe(404);
      const dump = join(dir, 'ejdesk.dump');
      await run('pg_dump', ['--format=custom', `--file=${dump}`, t.config.databaseUrl!]);
      await run('pg_restore', ['--no-owner', `--dbname=${target.url}`, dump]);
      const restored = await openDatabase({ url: target.url });
      expect(await restored.isCurrent()).toBe(true);
      expect(await userEmails(restored.db)).toEqual(await userEmails(t.database.db));
      await restored.close();
    } finally {
      await t.close();
      await target.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
