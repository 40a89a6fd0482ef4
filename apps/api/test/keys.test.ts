// Every key can be rotated without losing data or sessions. BANK_PASS_KEY is a ring (NEW,OLD: the
// first key seals, any opens), and `pnpm rekey` seals every stored secret again with its first key
// (or, on the embedded database, `--new-key` gives the data folder a new key), all or nothing, and
// never while the API holds the embedded database. JWT_PREVIOUS_SECRET still verifies the tokens
// the replaced secret signed, until they expire, so a rolling restart keeps every session.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { createSigner } from 'fast-jwt';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  auditLog,
  bankPassKeyFrom,
  bankPassKeyRing,
  bankPasswords,
  createUser,
  decryptBankPass,
  encryptBankPass,
  mailboxes,
  mailboxesToSignIn,
  openBankPass,
  openDatabase,
  storageSettings,
  type Database,
} from '@ejdesk/db';
import { freePort } from '@ejdesk/http/testing';
import { settingsOfStored, testConnection } from '@ejdesk/mailbox';
import { startDovecot, type Dovecot } from '@ejdesk/mailbox/testing';
import { readSettings } from '@ejdesk/settings';
import { startProcess } from '@ejdesk/settings/testing';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { hashPassword } from '../src/lib/passwords.ts';
import { backupToken } from '../src/lib/backup-token.ts';
import { admin, backends, createTestApp, decodeClaims, login, startApiProcess, throwawayDatabase, type TestApp } from './helpers.ts';

const run = promisify(execFile);
const apiDir = new URL('..', import.meta.url).pathname;
const ingestDir = new URL('../../ingest', import.meta.url).pathname;
const hex = (key: Buffer) => key.toString('hex');

/** `pnpm rekey` as a child process: its exit code and output. */
async function rekey(env: NodeJS.ProcessEnv, args: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    return { code: 0, ...(await run(process.execPath, ['--import', 'tsx', 'src/cli/rekey.ts', ...args], { cwd: apiDir, env: { ...process.env, ...env } })) };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

describe('a BANK_PASS_KEY ring', () => {
  const [older, newer, stranger] = [randomBytes(32), randomBytes(32), randomBytes(32)];

  test('opens values sealed with any of its keys, seals with its first, and a key outside it opens nothing', () => {
    const byOlder = encryptBankPass(older, 'sealed before the rotation');
    const ring = bankPassKeyRing([newer, older]);
    expect(decryptBankPass(ring, byOlder)).toBe('sealed before the rotation');
    expect(openBankPass(ring, byOlder)).toEqual({ plain: 'sealed before the rotation', keyIndex: 1 });

    const byRing = encryptBankPass(ring, 'sealed during the rotation');
    expect(decryptBankPass(newer, byRing)).toBe('sealed during the rotation');
    expect(openBankPass(ring, byRing)?.keyIndex).toBe(0);
    expect(() => decryptBankPass(older, byRing)).toThrow('No key of BANK_PASS_KEY opens this value');
    expect(openBankPass(bankPassKeyRing([stranger]), byOlder)).toBeUndefined();
    expect(openBankPass(bankPassKeyRing([stranger, newer]), byOlder)).toBeUndefined();
  });

  test('is read from BANK_PASS_KEY as NEW,OLD in hex or base64, and from the data folder’s key file, a single key as before', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ejdesk-keys-'));
    try {
      const given = bankPassKeyFrom({ databaseUrl: 'postgres://db/ejdesk', bankPassKey: `${hex(newer)}, ${older.toString('base64')}` }, dir);
      expect(given.equals(Buffer.concat([newer, older]))).toBe(true);
      expect(bankPassKeyFrom({ databaseUrl: undefined, bankPassKey: hex(older) }, dir).equals(older)).toBe(true);

      const generated = bankPassKeyFrom({ databaseUrl: undefined, bankPassKey: undefined }, dir);
      expect(generated).toHaveLength(32);
      expect(readFileSync(join(dir, 'bank-pass-key'), 'utf8').trim()).toBe(generated.toString('base64'));
      writeFileSync(join(dir, 'bank-pass-key'), `${newer.toString('base64')},${older.toString('base64')}\n`);
      expect(bankPassKeyFrom({ databaseUrl: undefined, bankPassKey: undefined }, dir).equals(Buffer.concat([newer, older]))).toBe(true);
      writeFileSync(join(dir, 'bank-pass-key'), 'not a key\n');
      expect(() => bankPassKeyFrom({ databaseUrl: undefined, bankPassKey: undefined }, dir)).toThrow(
        `The data folder's key ${join(dir, 'bank-pass-key')} holds no key`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a bad ring is refused naming the setting, and never repeats its value', () => {
    const valid = hex(newer);
    for (const ring of [`${valid},short`, `${valid},`, `,${valid}`, `${valid};${hex(older)}`, `${valid} ${hex(older)}`]) {
      const refusal = (() => {
        try {
          readSettings(storageSettings, { BANK_PASS_KEY: ring });
        } catch (error) {
          return (error as Error).message;
        }
      })();
      expect(refusal, ring).toMatch(/^BANK_PASS_KEY is set to a value that is not accepted; it accepts a key of 32 bytes/);
      expect(refusal).not.toContain(valid);
    }
  });

  test.each([
    ['the API', apiDir, 'src/server.ts', []],
    ['the mail ingester', ingestDir, 'src/cli.ts', ['--reprocess']],
  ])(
    'a bad ring stops %s with exit 1, naming the setting',
    async (_name, dir, script, args) => {
      const { code, stderr } = await startProcess(dir, script, { BANK_PASS_KEY: `${hex(newer)},short` }, args);
      expect(code, stderr).toBe(1);
      expect(stderr).toContain('BANK_PASS_KEY is set to a value that is not accepted; it accepts a key of 32 bytes');
      expect(stderr).not.toContain(hex(newer));
    },
    60_000,
  );
});

describe.each(backends)('pnpm rekey on %s', (backend) => {
  const embedded = backend === 'pglite';
  const bankPass = 'APX-statement-2024';
  const sealedWith = { secret: 'client-secret-value', refreshToken: 'refresh-token-value' };
  let dovecot: Dovecot;
  /** What every value is sealed with before the rekey. */
  let oldKey: Buffer;
  /** PostgreSQL's new key (the embedded database's is made by --new-key). */
  const newKey = randomBytes(32);
  let env: NodeJS.ProcessEnv;
  let open: () => Promise<Database>;
  let cleanUp: () => Promise<void>;
  let ids: { bankPassword: number; passwordMailbox: number; oauthMailbox: number };
  const args = embedded ? ['--new-key'] : [];
  const keyFile = () => join(env.EJDESK_DATA_DIR!, 'bank-pass-key');

  /** An API instance on the database with this key ring, and an admin signed in to it. */
  async function apiOn(database: Database, bankPassKey: Buffer): Promise<{ app: FastifyInstance; asAdmin: { authorization: string } }> {
    const config = { ...loadConfig({}), databaseUrl: env.DATABASE_URL || undefined };
    const app = await buildApp({ database, config, secrets: { jwtSecret: randomBytes(32).toString('hex'), bankPassKey } });
    return { app, asAdmin: { authorization: `JWT ${(await login(app, admin)).access}` } };
  }

  /** Every sealed value, as stored. */
  async function sealedValues(database: Database): Promise<Buffer[]> {
    const passwords = await database.db.select().from(bankPasswords).orderBy(asc(bankPasswords.id));
    const boxes = await database.db.select().from(mailboxes).orderBy(asc(mailboxes.id));
    return [...passwords.map((p) => p.bankPassEncrypted), ...boxes.flatMap((m) => [m.secretEncrypted, m.refreshTokenEncrypted].filter((v) => v !== null))];
  }

  beforeAll(async () => {
    dovecot = await startDovecot();
    await dovecot.append([Buffer.from('Subject: a dispute\r\n\r\nATM 0042\r\n')]);
    if (embedded) {
      const dir = mkdtempSync(join(tmpdir(), 'ejdesk-rekey-'));
      env = { DATABASE_URL: '', BANK_PASS_KEY: '', EJDESK_DATA_DIR: dir, API_PORT: String(await freePort()) };
      // The data folder's own key, as the demo generates it.
      oldKey = bankPassKeyFrom({ databaseUrl: undefined, bankPassKey: undefined }, dir);
      open = () => openDatabase({ dataDir: join(dir, 'pg') });
      cleanUp = async () => rmSync(dir, { recursive: true, force: true });
    } else {
      const scratch = await throwawayDatabase();
      oldKey = randomBytes(32);
      env = { DATABASE_URL: scratch.url, BANK_PASS_KEY: `${hex(newKey)},${hex(oldKey)}`, API_PORT: String(await freePort()) };
      open = () => openDatabase({ url: scratch.url });
      cleanUp = scratch.drop;
    }
    const database = await open();
    try {
      await database.migrate();
      await createUser(database.db, admin.email, await hashPassword(admin.password), 'admin');
      const { app, asAdmin } = await apiOn(database, oldKey);
      const created = await app.inject({
        method: 'POST',
        url: '/api/scrape/store/password/create/',
        headers: asAdmin,
        payload: { bank_name: 'Apex Bank', bank_pass: bankPass },
      });
      expect(created.statusCode, created.body).toBe(201);
      await app.close();
      // As the Mailboxes screen stores them: a password mailbox on a real Dovecot, and an OAuth2 one.
      const [byPassword] = await database.db
        .insert(mailboxes)
        .values({
          host: dovecot.host,
          port: dovecot.port,
          tls: false,
          username: dovecot.user,
          authMethod: 'password',
          secretEncrypted: encryptBankPass(oldKey, dovecot.password),
        })
        .returning({ id: mailboxes.id });
      const [byOauth] = await database.db
        .insert(mailboxes)
        .values({
          host: 'imap.bank.example',
          port: 993,
          username: 'disputes@bank.example',
          authMethod: 'oauth2-refresh-token',
          tokenUrl: 'https://login.bank.example/oauth2/token',
          clientId: 'ejdesk',
          secretEncrypted: encryptBankPass(oldKey, sealedWith.secret),
          refreshTokenEncrypted: encryptBankPass(oldKey, sealedWith.refreshToken),
        })
        .returning({ id: mailboxes.id });
      ids = { bankPassword: created.json<{ id: number }>().id, passwordMailbox: byPassword!.id, oauthMailbox: byOauth!.id };
    } finally {
      await database.close();
    }
  }, 120_000);
  afterAll(async () => {
    await cleanUp?.();
    await dovecot?.stop();
  });

  test('a value no key opens stops it, naming the row, with nothing changed', async () => {
    let database = await open();
    const [stray] = await database.db
      .insert(bankPasswords)
      .values({ bankName: 'Stray Bank', bankPassEncrypted: encryptBankPass(randomBytes(32), 'sealed with a key long gone') })
      .returning({ id: bankPasswords.id });
    const before = await sealedValues(database);
    await database.close();
    const keyBefore = embedded ? readFileSync(keyFile(), 'utf8') : '';

    const refused = await rekey(env, args);
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toContain(`No key of BANK_PASS_KEY opens this value: bank password ${stray!.id} (Stray Bank).`);
    expect(refused.stderr).toContain('Nothing was changed');
    expect(refused.stdout).not.toContain('sealed again');

    database = await open();
    expect(await sealedValues(database)).toEqual(before);
    if (embedded) expect(readFileSync(keyFile(), 'utf8')).toBe(keyBefore);
    await database.db.delete(bankPasswords).where(eq(bankPasswords.id, stray!.id));
    await database.close();
  }, 120_000);

  test.runIf(embedded)(
    'refuses while the API runs on the embedded database, and changes nothing',
    async () => {
      const keyBefore = readFileSync(keyFile(), 'utf8');
      const api = await startApiProcess({ EJDESK_DATA_DIR: env.EJDESK_DATA_DIR, API_PORT: env.API_PORT, BANK_PASS_KEY: '' });
      try {
        await api.waitFor('/api/ready', 200);
        const refused = await rekey(env, args);
        expect(refused.code, refused.stderr).toBe(1);
        expect(refused.stderr).toContain(`The API answers on port ${env.API_PORT} (API_PORT): while it runs, the embedded database`);
        expect(refused.stderr).toContain('Nothing was changed');
      } finally {
        await api.stop();
      }
      expect(readFileSync(keyFile(), 'utf8')).toBe(keyBefore);
    },
    180_000,
  );

  test('seals every value again: the old key alone opens none, the new one all, and reveal and sign-in work', async () => {
    const done = await rekey(env, args);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain(
      '1 bank password, 2 mailbox secrets, 1 refresh token and 0 webhook keys sealed again with the first key of the ring (4 of them had been sealed with a previous key)',
    );
    // Counts only: no key and no value.
    const printed = done.stdout + done.stderr;
    for (const secret of [bankPass, dovecot.password, sealedWith.secret, sealedWith.refreshToken, hex(oldKey), oldKey.toString('base64'), hex(newKey)]) {
      expect(printed).not.toContain(secret);
    }

    // The embedded database's key file holds the new key alone; PostgreSQL's ring can drop the old key.
    let current = newKey;
    if (embedded) {
      const text = readFileSync(keyFile(), 'utf8').trim();
      expect(text).not.toContain(',');
      current = Buffer.from(text, 'base64');
      expect(current.equals(oldKey)).toBe(false);
      expect(bankPassKeyFrom({ databaseUrl: undefined, bankPassKey: undefined }, env.EJDESK_DATA_DIR!).equals(current)).toBe(true);
    }

    const database = await open();
    try {
      const values = await sealedValues(database);
      expect(values).toHaveLength(4);
      for (const value of values) {
        expect(openBankPass(oldKey, value)).toBeUndefined();
        expect(openBankPass(current, value)?.keyIndex).toBe(0);
      }
      const [audited] = await database.db.select().from(auditLog).where(eq(auditLog.action, 'rekey'));
      expect(audited).toMatchObject({ userId: null, entity: 'bank_pass_key', detail: expect.stringContaining('1 bank password, 2 mailbox secrets') });

      // An API given the new key alone reveals the bank password.
      const { app, asAdmin } = await apiOn(database, current);
      const revealed = await app.inject({
        method: 'POST',
        url: `/api/scrape/store/password/${ids.bankPassword}/reveal/`,
        headers: asAdmin,
        payload: { reason: 'After the key rotation' },
      });
      await app.close();
      expect(revealed.statusCode, revealed.body).toBe(200);
      expect(revealed.json()).toMatchObject({ bank_name: 'Apex Bank', bank_pass: bankPass });

      // The ingester, given the new key alone, signs in to the mailbox with its stored password.
      const [byPassword] = await mailboxesToSignIn(database.db, current, { id: ids.passwordMailbox });
      expect(await testConnection(settingsOfStored(byPassword!))).toEqual({ messages: 1 });
      const [byOauth] = await mailboxesToSignIn(database.db, current, { id: ids.oauthMailbox });
      expect(byOauth).toMatchObject({ secret: sealedWith.secret, refresh_token: sealedWith.refreshToken });
    } finally {
      await database.close();
    }
  }, 300_000);
  test.runIf(embedded)(
    'after a --new-key interrupted before its last write, pnpm rekey leaves the data folder its first key alone',
    async () => {
      const sealedBy = Buffer.from(readFileSync(keyFile(), 'utf8').trim(), 'base64');
      // As the file is while --new-key commits: the new key, then the one every value is sealed with.
      const interrupted = randomBytes(32);
      writeFileSync(keyFile(), `${interrupted.toString('base64')},${sealedBy.toString('base64')}\n`);

      const done = await rekey(env);
      expect(done.code, done.stderr).toBe(0);
      expect(done.stdout).toContain('(4 of them had been sealed with a previous key)');
      expect(readFileSync(keyFile(), 'utf8')).toBe(`${interrupted.toString('base64')}\n`);
      const database = await open();
      try {
        for (const value of await sealedValues(database)) expect(openBankPass(interrupted, value)?.keyIndex).toBe(0);
      } finally {
        await database.close();
      }
    },
    120_000,
  );
});

describe.each(backends)('JWT_SECRET rotated on %s', (backend) => {
  let t: TestApp;
  const next = randomBytes(32).toString('hex');
  /** Instances after the rolling restart (the new secret, the old one previous), and after the previous one is removed. */
  let rotated: FastifyInstance;
  let newOnly: FastifyInstance;
  const asUser = (access: string) => ({ authorization: `JWT ${access}` });
  const views = (app: FastifyInstance, access: string) => app.inject({ method: 'GET', url: '/api/views/?list=email', headers: asUser(access) });

  beforeAll(async () => {
    t = await createTestApp(backend);
    const instance = (secrets: Partial<TestApp['secrets']>) => buildApp({ database: t.database, config: t.config, secrets: { ...t.secrets, ...secrets } });
    rotated = await instance({ jwtSecret: next, jwtPreviousSecret: t.secrets.jwtSecret });
    newOnly = await instance({ jwtSecret: next });
  });
  afterAll(async () => {
    await rotated?.close();
    await newOnly?.close();
    await t?.close();
  });

  test('a session begun under the previous secret goes on: its tokens verify and refresh, and the new tokens are the new secret’s', async () => {
    const before = await login(t.app);
    expect((await views(rotated, before.access)).statusCode).toBe(200);
    const verified = await rotated.inject({ method: 'POST', url: '/api/auth/jwt/verify/', payload: { token: before.refresh } });
    expect(verified.statusCode).toBe(200);
    const refreshed = await rotated.inject({ method: 'POST', url: '/api/auth/jwt/refresh/', payload: { refresh: before.refresh } });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const access = refreshed.json<{ access: string }>().access;
    // Signed with the new secret: an instance that knows only that one accepts it, and the old instance does not.
    expect((await views(newOnly, access)).statusCode).toBe(200);
    expect((await views(t.app, access)).statusCode).toBe(401);
    // Once the previous secret is removed, what it signed is refused.
    expect((await views(newOnly, before.access)).statusCode).toBe(401);
  });

  test('a token signed with a third secret is refused, and so is an expired one signed with the previous secret', async () => {
    const claims = decodeClaims((await login(t.app)).access);
    const signedWith = (key: string, changed: object = {}) => createSigner({ key, algorithm: 'HS256' })({ ...claims, ...changed }) as string;
    // The same claims under the previous secret pass: below, only the signature or the expiry differs.
    expect((await views(rotated, signedWith(t.secrets.jwtSecret))).statusCode).toBe(200);
    const third = await views(rotated, signedWith(randomBytes(32).toString('hex')));
    expect(third.statusCode).toBe(401);
    expect(third.json()).toMatchObject({ code: 'token_not_valid' });
    const expired = await views(rotated, signedWith(t.secrets.jwtSecret, { exp: Math.floor(Date.now() / 1000) - 60 }));
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toMatchObject({ code: 'token_not_valid' });
  });

  test.runIf(backend === 'pglite')('the backup token is the current secret’s', async () => {
    const ask = (secret: string) => rotated.inject({ method: 'POST', url: '/api/backup/', headers: { authorization: `Bearer ${backupToken(secret)}` } });
    expect((await ask(next)).statusCode).toBe(200);
    expect((await ask(t.secrets.jwtSecret)).statusCode).toBe(401);
  });
});
