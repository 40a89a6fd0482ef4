// The Mailboxes admin list: each mailbox an admin added, watched by the ingester while enabled.
// Secrets are sealed with the bank passwords' key and written only: the list says whether one is
// stored; only the ingester and Test connection open them, to sign in. Each create, change and
// delete is audited with what changed (a secret only as "replaced", never its value).
import { asc, eq, sql } from 'drizzle-orm';
import { mailChannel, notifySql, type Db } from '../client.ts';
import { decryptBankPass, encryptBankPass } from '../bank-pass-cipher.ts';
import { auditLog, mailboxes } from '../schema.ts';
import { isUniqueViolation, RuleProblem, type Written } from './rules.ts';

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
    if (!input.token_url || !/^https:\/\/[^\s/]+/.test(input.token_url)) throw new RuleProblem('token_url must be the provider’s https:// token endpoint');
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

/** Which secrets a mailbox has stored (for checkMailbox on a change), or undefined for none such. */
export async function storedSecrets(db: Db, id: number): Promise<{ secret: boolean; refreshToken: boolean } | undefined> {
  const [row] = await db.select({ secret: columns.has_secret, refreshToken: columns.has_refresh_token }).from(mailboxes).where(eq(mailboxes.id, id));
  return row;
}

export const changeMailbox = (db: Db, key: Buffer, userId: number, id: number, input: MailboxInput) =>
  audited(db, userId, 'change', async (tx) => {
    const [before] = await tx.select(columns).from(mailboxes).where(eq(mailboxes.id, id)).for('update');
    if (!before) return undefined;
    const [row] = await tx
      .update(mailboxes)
      .set({
        ...placeOf(input),
        // A secret left out is kept; one the new method has no use for is dropped.
        ...(input.secret !== undefined ? { secretEncrypted: sealed(key, input.secret) } : {}),
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
