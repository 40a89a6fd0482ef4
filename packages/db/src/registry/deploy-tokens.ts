// Deploy tokens: which remote a `pnpm remote` deploy or rollback may touch. A team's token touches
// its remote only; the configured REMOTE_DEPLOY_TOKEN touches every remote (automation) until an
// admin revokes it. Tokens are checked here on every request, so a revocation holds at once in
// every API process. Every creation and revocation is audited.
import { and, asc, count, eq, isNull, ne, sql } from 'drizzle-orm';
import { createHash, randomBytes } from 'node:crypto';
import { auditLog } from '../audit/schema.ts';
import type { Db } from '../client.ts';
import { users } from '../identity/schema.ts';
import { isUniqueViolation } from '../refusals.ts';
import { deployTokens } from './schema.ts';

/** The configured token's name in the list and the audit log (no console token may take it). */
export const configuredTokenName = 'REMOTE_DEPLOY_TOKEN';
/** Live tokens at most (a team per remote, a few each). */
export const maxDeployTokens = 100;

const hashOf = (token: string) => createHash('sha256').update(token, 'utf8').digest();

export interface DeployTokenRow {
  id: number;
  name: string;
  /** null: every remote (the configured token). */
  remote: string | null;
  configured: boolean;
  createdBy: string | null;
  createAt: Date;
}

const live = isNull(deployTokens.revokedAt);

/**
 * Records the configured token (its hash) as the all-remotes token, once; a configured token that
 * is no longer the configuration's (changed or removed) is revoked, so rotating REMOTE_DEPLOY_TOKEN
 * retires the old one. A token an admin revoked stays revoked: its row keeps its hash.
 */
export async function recordConfiguredDeployToken(db: Db, token: string | undefined): Promise<void> {
  const hash = token ? hashOf(token) : null;
  await db.transaction(async (tx) => {
    // API processes starting together: one records, the others then find it.
    await tx.execute(sql`select pg_advisory_xact_lock(727002)`);
    const retired = await tx
      .update(deployTokens)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(deployTokens.configured, true), live, hash ? ne(deployTokens.tokenHash, hash) : undefined))
      .returning({ name: deployTokens.name });
    for (const r of retired)
      await tx.insert(auditLog).values({ action: 'revoke', entity: 'deploy_token', entityId: r.name, detail: 'no longer the configured REMOTE_DEPLOY_TOKEN' });
    if (!hash) return;
    const [known] = await tx.select({ id: deployTokens.id }).from(deployTokens).where(eq(deployTokens.tokenHash, hash));
    if (known) return;
    await tx.insert(deployTokens).values({ name: configuredTokenName, remote: null, tokenHash: hash, configured: true });
    await tx
      .insert(auditLog)
      .values({ action: 'create', entity: 'deploy_token', entityId: configuredTokenName, detail: 'every remote, from the configuration' });
  });
}

/** The live token a request presented, or undefined. */
export async function deployTokenOf(db: Db, token: string): Promise<{ id: number; name: string; remote: string | null } | undefined> {
  const [row] = await db
    .select({ id: deployTokens.id, name: deployTokens.name, remote: deployTokens.remote })
    .from(deployTokens)
    .where(and(eq(deployTokens.tokenHash, hashOf(token)), live));
  return row;
}

/** Whether any token is live (without one, deploys are not enabled at all). */
export async function anyDeployToken(db: Db): Promise<boolean> {
  const [row] = await db.select({ id: deployTokens.id }).from(deployTokens).where(live).limit(1);
  return Boolean(row);
}

/** The live tokens, the all-remotes one first, then by remote and name; never a token or its hash. */
export async function listDeployTokens(db: Db): Promise<DeployTokenRow[]> {
  return db
    .select({
      id: deployTokens.id,
      name: deployTokens.name,
      remote: deployTokens.remote,
      configured: deployTokens.configured,
      createdBy: users.email,
      createAt: deployTokens.createAt,
    })
    .from(deployTokens)
    .leftJoin(users, eq(users.id, deployTokens.createdBy))
    .where(live)
    .orderBy(sql`${deployTokens.remote} asc nulls first`, asc(deployTokens.name));
}

export type TokenCreated = { ok: true; row: DeployTokenRow; token: string } | { ok: false; status: 400 | 409; detail: string };

/** A new token for one remote: the token itself is in the answer, and nowhere else, ever. */
export async function createDeployToken(db: Db, fields: { name: string; remote: string }, by: number): Promise<TokenCreated> {
  if (fields.name === configuredTokenName) return { ok: false, status: 400, detail: `name: ${configuredTokenName} is the configured token's name` };
  const token = `ejd_${randomBytes(32).toString('base64url')}`;
  try {
    return await db.transaction(async (tx) => {
      // The limit under parallel creates: one creation at a time counts and inserts.
      await tx.execute(sql`select pg_advisory_xact_lock(727002)`);
      const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(deployTokens).where(live);
      if (n >= maxDeployTokens) return { ok: false as const, status: 400 as const, detail: `At most ${maxDeployTokens} deploy tokens: revoke one first.` };
      const [row] = await tx
        .insert(deployTokens)
        .values({ name: fields.name, remote: fields.remote, tokenHash: hashOf(token), createdBy: by })
        .returning({ id: deployTokens.id, createAt: deployTokens.createAt });
      await tx.insert(auditLog).values({ userId: by, action: 'create', entity: 'deploy_token', entityId: fields.name, detail: `remote ${fields.remote}` });
      const [creator] = await tx.select({ email: users.email }).from(users).where(eq(users.id, by));
      return {
        ok: true as const,
        token,
        row: { id: row!.id, name: fields.name, remote: fields.remote, configured: false, createdBy: creator?.email ?? null, createAt: row!.createAt },
      };
    });
  } catch (err) {
    if (isUniqueViolation(err)) return { ok: false, status: 409, detail: `A deploy token named '${fields.name}' already exists.` };
    throw err;
  }
}

/** Revokes a live token at once; false when there is none with that id. */
export async function revokeDeployToken(db: Db, id: number, by: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(deployTokens)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(deployTokens.id, id), live))
      .returning({ name: deployTokens.name, remote: deployTokens.remote });
    if (!row) return false;
    await tx
      .insert(auditLog)
      .values({ userId: by, action: 'revoke', entity: 'deploy_token', entityId: row.name, detail: `remote ${row.remote ?? 'every remote'}` });
    return true;
  });
}
