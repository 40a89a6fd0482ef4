// The Mailboxes admin list: each mailbox an admin added, watched by the ingester while enabled.
// Secrets are sealed with the bank passwords' key and written only: the list says whether one is
// stored; only the ingester and Test connection open them, to sign in. Each create, change and
// delete is audited with what changed (a secret only as "replaced", never its value). A stored
// secret goes only where it was saved: a change or a Test connection that sends it elsewhere must
// have it typed again. Each Test connection is audited too, and counted per admin.
import { asc, eq, sql } from 'drizzle-orm';
import { audit, auditLog, type Written } from '../audit/index.ts';
import { decryptBankPass, encryptBankPass } from '../bank-pass-cipher.ts';
import { type Db, mailChannel, notifySql, queryRows } from '../client.ts';
import { isUniqueViolation, RuleProblem } from '../refusals.ts';
import { mailboxes } from './schema.ts';

export const mailboxAuthMethods = ['password', 'oauth2-client-credentials', 'oauth2-refresh-token'] as const;
type AuthMethod = (typeof mailboxAuthMethods)[number];

/** Where a mailbox is and how EJ Desk signs in to it, without its secrets. */
interface MailboxPlace {
  host: string;
  port: number;
  tls: boolean;
  username: string;
  folder: string;
  auth_method: AuthMethod;
  token_url: string | null;
  client_id: string | null;
  scope: string | null;
  enabled: boolean;
}

/** A mailbox as written by an admin: a secret undefined keeps the stored one. */
export interface MailboxInput extends MailboxPlace {
  secret: string | undefined;
  refresh_token: string | undefined;
}

export interface MailboxRow extends MailboxPlace {
  id: number;
  has_secret: boolean;
  has_refresh_token: boolean;
  create_at: Date;
  update_at: Date;
}

/** A mailbox with its secrets open, to sign in with (the ingester, Test connection). */
export interface MailboxWithSecrets extends Omit<MailboxRow, 'has_secret' | 'has_refresh_token'> {
  secret: string | null;
  refresh_token: string | null;
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
const optional = (value: unknown) => text(value) || null;

/**
 * The checked, normal form of a mailbox, or a RuleProblem naming the field. `stored` says which
 * secrets the mailbox already has (a change may leave them out).
 */
export function checkMailbox(
  value: Record<string, unknown>,
  stored: { secret: boolean; refreshToken: boolean } = { secret: false, refreshToken: false },
): MailboxInput {
  const host = text(value.host).toLowerCase();
  if (!/^[a-z0-9.-]+$|^\[[0-9a-f:.]+\]$/i.test(host)) throw new RuleProblem('host must be a host name or an IP address');
  const port = Number(value.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new RuleProblem('port must be a whole number from 1 to 65535');
  const method = value.auth_method as AuthMethod;
  if (!mailboxAuthMethods.includes(method)) throw new RuleProblem(`auth_method must be one of ${mailboxAuthMethods.join(', ')}`);
  const input: MailboxInput = {
    host,
    port,
    tls: value.tls !== false,
    username: text(value.username),
    folder: text(value.folder) || 'INBOX',
    auth_method: method,
    token_url: method === 'password' ? null : optional(value.token_url),
    client_id: method === 'password' ? null : optional(value.client_id),
    scope: method === 'password' ? null : optional(value.scope),
    secret: typeof value.secret === 'string' && value.secret !== '' ? value.secret : undefined,
    refresh_token:
      method === 'oauth2-refresh-token' && typeof value.refresh_token === 'string' && value.refresh_token.trim() ? value.refresh_token.trim() : undefined,
    enabled: value.enabled !== false,
  };
  if (!input.username) throw new RuleProblem('username must name the mailbox signed in to');
  const hasSecret = input.secret !== undefined || stored.secret;
  if (method === 'password' && !hasSecret) throw new RuleProblem('secret must be the mailbox’s password');
  if (method !== 'password') {
    if (!input.token_url || !/^https:\/\/[^\s/]+/.test(input.token_url) || !URL.canParse(input.token_url))
      throw new RuleProblem('token_url must be the provider’s https:// token endpoint');
    if (!input.client_id) throw new RuleProblem('client_id must be the application (client) id registered at the provider');
  }
  if (method === 'oauth2-client-credentials') {
    if (!input.scope) throw new RuleProblem('scope must be given with client credentials, e.g. https://outlook.office365.com/.default');
    if (!hasSecret) throw new RuleProblem('secret must be the client secret');
  }
  if (method === 'oauth2-refresh-token' && input.refresh_token === undefined && !stored.refreshToken)
    throw new RuleProblem('refresh_token must be the refresh token of the consent');
  return input;
}

const columns = {
  id: mailboxes.id,
  host: mailboxes.host,
  port: mailboxes.port,
  tls: mailboxes.tls,
  username: mailboxes.username,
  folder: mailboxes.folder,
  auth_method: sql<AuthMethod>`${mailboxes.authMethod}`,
  token_url: mailboxes.tokenUrl,
  client_id: mailboxes.clientId,
  scope: mailboxes.scope,
  has_secret: sql<boolean>`${mailboxes.secretEncrypted} is not null`,
  has_refresh_token: sql<boolean>`${mailboxes.refreshTokenEncrypted} is not null`,
  enabled: mailboxes.enabled,
  create_at: mailboxes.createAt,
  update_at: mailboxes.updateAt,
};

export const listMailboxes = (db: Db): Promise<MailboxRow[]> => db.select(columns).from(mailboxes).orderBy(asc(mailboxes.username), asc(mailboxes.id));

const describe = (m: Pick<MailboxRow, 'username' | 'host' | 'port' | 'folder' | 'auth_method'>) =>
  `${m.username} at ${m.host}:${m.port}/${m.folder} (${m.auth_method})`;

/** What a change changed, in words; secrets only as "replaced". */
function changes(before: MailboxRow, input: MailboxInput): string {
  const out: string[] = [];
  for (const key of ['host', 'port', 'tls', 'username', 'folder', 'auth_method', 'token_url', 'client_id', 'scope', 'enabled'] as const) {
    if (before[key] !== input[key]) out.push(`${key} ${String(before[key] ?? '(none)')} -> ${String(input[key] ?? '(none)')}`);
  }
  if (input.secret !== undefined) out.push(input.auth_method === 'password' ? 'password replaced' : 'client secret replaced');
  else if (before.has_secret && before.auth_method !== input.auth_method)
    out.push(before.auth_method === 'password' ? 'password removed' : 'client secret removed');
  if (input.refresh_token !== undefined) out.push('refresh token replaced');
  return out.length ? out.join('; ') : 'nothing changed';
}

/** The columns of where a mailbox is and how it signs in, from what an admin wrote. */
const placeOf = (input: MailboxPlace) => ({
  host: input.host,
  port: input.port,
  tls: input.tls,
  username: input.username,
  folder: input.folder,
  authMethod: input.auth_method,
  tokenUrl: input.token_url,
  clientId: input.client_id,
  scope: input.scope,
  enabled: input.enabled,
});

const sealed = (key: Buffer, secret: string | undefined) => (secret === undefined ? undefined : encryptBankPass(key, secret));

async function audited(
  db: Db,
  userId: number,
  action: string,
  run: (tx: Db) => Promise<{ row: MailboxRow; detail: string } | undefined>,
): Promise<Written<MailboxRow>> {
  try {
    return await db.transaction(async (tx) => {
      const done = await run(tx as unknown as Db);
      if (!done) return 'missing';
      await tx.insert(auditLog).values({ userId, action, entity: 'mailbox', entityId: String(done.row.id), detail: done.detail });
      // The ingester watches the list: it hears of the change at once (see watchMailboxes).
      await tx.execute(notifySql(mailChannel));
      return done.row;
    });
  } catch (err) {
    if (isUniqueViolation(err)) return 'conflict';
    throw err;
  }
}

export const createMailbox = (db: Db, key: Buffer, userId: number, input: MailboxInput) =>
  audited(db, userId, 'create', async (tx) => {
    const [row] = await tx
      .insert(mailboxes)
      .values({
        ...placeOf(input),
        secretEncrypted: sealed(key, input.secret) ?? null,
        refreshTokenEncrypted: sealed(key, input.refresh_token) ?? null,
      })
      .returning(columns);
    return row && { row, detail: describe(row) };
  });

/** One mailbox as listed (no secrets), or undefined for none such. */
export async function mailboxById(db: Db, id: number): Promise<MailboxRow | undefined> {
  const [row] = await db.select(columns).from(mailboxes).where(eq(mailboxes.id, id));
  return row;
}

/**
 * The stored secrets a change or a Test connection may leave out (for checkMailbox): none when it
 * signs in another way, since a password must not become a client secret (a change drops them).
 */
export function reusableSecrets(stored: Pick<MailboxRow, 'auth_method' | 'has_secret' | 'has_refresh_token'> | undefined, authMethod: unknown) {
  const same = stored !== undefined && stored.auth_method === authMethod;
  return { secret: same && stored.has_secret, refreshToken: same && stored.has_refresh_token };
}

/** What decides where a mailbox's secrets are sent: its server, and for OAuth2 the provider and the client. */
const whereSecretsGo = ['host', 'port', 'tls', 'token_url', 'client_id'] as const;

/**
 * Why `input` may not use the stored secrets it leaves out, in words, or undefined when it may:
 * they are sent only where they were saved, so another server, port, TLS setting, token endpoint
 * or client id needs them typed again (else an admin could send them to a server of their own).
 */
export function secretsElsewhere(
  stored: Pick<MailboxRow, 'auth_method' | 'has_secret' | 'has_refresh_token' | (typeof whereSecretsGo)[number]>,
  input: MailboxInput,
): string | undefined {
  const reusable = reusableSecrets(stored, input.auth_method);
  const secret = reusable.secret && input.secret === undefined;
  const refreshToken = reusable.refreshToken && input.auth_method === 'oauth2-refresh-token' && input.refresh_token === undefined;
  const moved = whereSecretsGo.filter((key) => stored[key] !== input[key]);
  if ((!secret && !refreshToken) || !moved.length) return undefined;
  const what = [secret && (input.auth_method === 'password' ? 'password' : 'client secret'), refreshToken && 'refresh token'].filter(Boolean).join(' and ');
  const changed = moved.map((key) => `${key} ${String(stored[key] ?? '(none)')} -> ${String(input[key] ?? '(none)')}`).join('; ');
  return `The stored ${what} is sent only where it was saved, and this goes elsewhere (${changed}): type the ${what} again to use another target.`;
}

export const changeMailbox = (db: Db, key: Buffer, userId: number, id: number, input: MailboxInput) =>
  audited(db, userId, 'change', async (tx) => {
    const [before] = await tx.select(columns).from(mailboxes).where(eq(mailboxes.id, id)).for('update');
    if (!before) return undefined;
    const [row] = await tx
      .update(mailboxes)
      .set({
        ...placeOf(input),
        // A secret left out is kept; one the new method has no use for is dropped (a password never
        // becomes a client secret).
        ...(input.secret !== undefined
          ? { secretEncrypted: sealed(key, input.secret) }
          : before.auth_method !== input.auth_method
            ? { secretEncrypted: null }
            : {}),
        ...(input.auth_method !== 'oauth2-refresh-token'
          ? { refreshTokenEncrypted: null }
          : input.refresh_token !== undefined
            ? { refreshTokenEncrypted: sealed(key, input.refresh_token) }
            : {}),
        updateAt: sql`now()`,
      })
      .where(eq(mailboxes.id, id))
      .returning(columns);
    return row && { row, detail: `${describe(row)}: ${changes(before, input)}` };
  });

export const removeMailbox = (db: Db, userId: number, id: number) =>
  audited(db, userId, 'delete', async (tx) => {
    const [row] = await tx.delete(mailboxes).where(eq(mailboxes.id, id)).returning(columns);
    return row && { row, detail: describe(row) };
  });

const open = (key: Buffer, sealedValue: Buffer | null) => (sealedValue ? decryptBankPass(key, sealedValue) : null);

/** Mailboxes with their secrets open: one by id, or every enabled one (the ingester's list). */
export async function mailboxesToSignIn(db: Db, key: Buffer, which: { id: number } | 'enabled'): Promise<MailboxWithSecrets[]> {
  const rows = await db
    .select({ ...columns, secretEncrypted: mailboxes.secretEncrypted, refreshTokenEncrypted: mailboxes.refreshTokenEncrypted })
    .from(mailboxes)
    .where(which === 'enabled' ? eq(mailboxes.enabled, true) : eq(mailboxes.id, which.id))
    .orderBy(asc(mailboxes.id));
  return rows.map(({ secretEncrypted, refreshTokenEncrypted, has_secret: _s, has_refresh_token: _r, ...row }) => ({
    ...row,
    secret: open(key, secretEncrypted),
    refresh_token: open(key, refreshTokenEncrypted),
  }));
}

/** Keep the refresh token a provider rotated (the old one may already be spent). Not audited: no one changed it. */
export async function keepRefreshToken(db: Db, key: Buffer, id: number, refreshToken: string): Promise<void> {
  await db
    .update(mailboxes)
    .set({ refreshTokenEncrypted: encryptBankPass(key, refreshToken) })
    .where(eq(mailboxes.id, id));
}

/** Test connections an admin may start in a minute (counted from the audit log, so across API instances). */
export const mailboxTestsPerMinute = 10;

/**
 * Begin an admin's Test connection: allowed while they started fewer than mailboxTestsPerMinute in
 * the last minute, and then recorded in the audit log ('test': who, where, with which secret).
 * Counted and recorded under the admin's lock, so parallel requests cannot pass the limit together.
 * A refusal says when the next one is allowed (seconds).
 */
export async function beginMailboxTest(
  db: Db,
  userId: number,
  test: { entityId: number | null; detail: string },
): Promise<{ allowed: true } | { allowed: false; retryAfter: number }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`mailbox-test:${userId}`}, 0))`);
    // The limit-th newest test in the last minute: when it exists the minute is full, and its
    // leaving the minute lets the next one in.
    const [full] = await queryRows<{ retry_after: number }>(
      tx as unknown as Db,
      sql`select ceil(extract(epoch from at + interval '1 minute' - now()))::int as retry_after from audit_log
        where user_id = ${userId} and entity = 'mailbox' and action = 'test' and at > now() - interval '1 minute'
        order by at desc offset ${mailboxTestsPerMinute - 1} limit 1`,
    );
    if (full) return { allowed: false, retryAfter: Math.max(1, full.retry_after) };
    await audit(tx as unknown as Db, {
      userId,
      action: 'test',
      entity: 'mailbox',
      entityId: test.entityId === null ? null : String(test.entityId),
      detail: test.detail,
    });
    return { allowed: true };
  });
}
