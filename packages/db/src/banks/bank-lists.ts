// The two admin lists: stored bank passwords (encrypted at rest, audited on reveal) and bank -> MSP.
import { desc, eq, sql } from 'drizzle-orm';
import { auditLog } from '../audit/schema.ts';
import { decryptBankPass, encryptBankPass } from '../bank-pass-cipher.ts';
import type { Db } from '../client.ts';
import { bankMsps, bankPasswords } from './schema.ts';

/** What the list shows instead of a stored password; the clear text needs an audited reveal. */
export const maskedBankPass = '••••••••';

const passwordColumns = {
  id: bankPasswords.id,
  bank_name: bankPasswords.bankName,
  create_at: bankPasswords.createAt,
  update_at: bankPasswords.updateAt,
};

export async function listBankPasswords(db: Db) {
  const rows = await db.select(passwordColumns).from(bankPasswords).orderBy(desc(bankPasswords.createAt), desc(bankPasswords.id));
  return rows.map((row) => ({ ...row, bank_pass: maskedBankPass }));
}

/** The created row, or undefined when this bank already has a password (case-insensitive). */
export async function createBankPassword(db: Db, key: Buffer, userId: number, bankName: string, bankPass: string) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(bankPasswords)
      .values({ bankName, bankPassEncrypted: encryptBankPass(key, bankPass) })
      .onConflictDoNothing()
      .returning(passwordColumns);
    if (!row) return undefined;
    await tx.insert(auditLog).values({ userId, action: 'create', entity: 'bank_password', entityId: String(row.id) });
    return { ...row, bank_pass: maskedBankPass };
  });
}

/** The clear password, with an audit row holding who asked, why and from where. */
export async function revealBankPassword(db: Db, key: Buffer, userId: number, id: number, reason: string, ip: string | null = null) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: bankPasswords.id, bank_name: bankPasswords.bankName, sealed: bankPasswords.bankPassEncrypted })
      .from(bankPasswords)
      .where(eq(bankPasswords.id, id));
    if (!row) return undefined;
    await tx.insert(auditLog).values({ userId, action: 'reveal', entity: 'bank_password', entityId: String(id), detail: reason, ip });
    return { id: row.id, bank_name: row.bank_name, bank_pass: decryptBankPass(key, row.sealed) };
  });
}

const mspColumns = {
  id: bankMsps.id,
  msp: bankMsps.msp,
  bank_name: bankMsps.bankName,
  create_at: bankMsps.createAt,
  update_at: bankMsps.updateAt,
};

export async function listBankMsps(db: Db) {
  return db.select(mspColumns).from(bankMsps).orderBy(desc(bankMsps.createAt), desc(bankMsps.id));
}

/** The created row, or undefined when this bank is already mapped to this MSP. */
export async function createBankMsp(db: Db, userId: number, msp: string, bankName: string) {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(bankMsps).values({ msp, bankName }).onConflictDoNothing().returning(mspColumns);
    if (!row) return undefined;
    await tx.insert(auditLog).values({ userId, action: 'create', entity: 'bank_msp', entityId: String(row.id) });
    return row;
  });
}

/** Why a change of an admin list's row was refused: no such row, or another row has those values. */
export type RowChange<T> = { row: T } | { problem: 'not_found' | 'taken' };

/** The unique index's refusal (another row has the values), told apart from every other failure. */
const isTaken = (error: unknown) =>
  (error as { code?: string; cause?: { code?: string } }).code === '23505' || (error as { cause?: { code?: string } }).cause?.code === '23505';

/**
 * A stored password's bank renamed and/or its password replaced (sealed again with the key of the
 * day); audited without the password. Left out, the password stays as stored.
 */
export async function changeBankPassword(db: Db, key: Buffer, userId: number, id: number, bankName: string, bankPass: string | undefined) {
  try {
    return await db.transaction(async (tx): Promise<RowChange<Awaited<ReturnType<typeof listBankPasswords>>[number]>> => {
      const [row] = await tx
        .update(bankPasswords)
        .set({ bankName, ...(bankPass === undefined ? {} : { bankPassEncrypted: encryptBankPass(key, bankPass) }), updateAt: sql`now()` })
        .where(eq(bankPasswords.id, id))
        .returning(passwordColumns);
      if (!row) return { problem: 'not_found' };
      await tx.insert(auditLog).values({
        userId,
        action: 'update',
        entity: 'bank_password',
        entityId: String(id),
        detail: bankPass === undefined ? `bank name ${bankName}` : `bank name ${bankName}, password replaced`,
      });
      return { row: { ...row, bank_pass: maskedBankPass } };
    });
  } catch (error) {
    if (isTaken(error)) return { problem: 'taken' } as const;
    throw error;
  }
}

/** Removes a stored password (audited); false when there was none. */
export async function deleteBankPassword(db: Db, userId: number, id: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [gone] = await tx.delete(bankPasswords).where(eq(bankPasswords.id, id)).returning({ bank_name: bankPasswords.bankName });
    if (!gone) return false;
    await tx.insert(auditLog).values({ userId, action: 'delete', entity: 'bank_password', entityId: String(id), detail: `bank name ${gone.bank_name}` });
    return true;
  });
}

export async function changeBankMsp(db: Db, userId: number, id: number, msp: string, bankName: string) {
  try {
    return await db.transaction(async (tx): Promise<RowChange<Awaited<ReturnType<typeof listBankMsps>>[number]>> => {
      const [row] = await tx
        .update(bankMsps)
        .set({ msp, bankName, updateAt: sql`now()` })
        .where(eq(bankMsps.id, id))
        .returning(mspColumns);
      if (!row) return { problem: 'not_found' };
      await tx.insert(auditLog).values({ userId, action: 'update', entity: 'bank_msp', entityId: String(id), detail: `${bankName} -> ${msp}` });
      return { row };
    });
  } catch (error) {
    if (isTaken(error)) return { problem: 'taken' } as const;
    throw error;
  }
}

export async function deleteBankMsp(db: Db, userId: number, id: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [gone] = await tx.delete(bankMsps).where(eq(bankMsps.id, id)).returning({ msp: bankMsps.msp, bank_name: bankMsps.bankName });
    if (!gone) return false;
    await tx.insert(auditLog).values({ userId, action: 'delete', entity: 'bank_msp', entityId: String(id), detail: `${gone.bank_name} -> ${gone.msp}` });
    return true;
  });
}
