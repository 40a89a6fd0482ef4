// `pnpm rekey`: every sealed value (the bank passwords, the mailboxes' secrets and refresh tokens, the webhooks' keys)
// sealed again with the first key of BANK_PASS_KEY's ring, so that the previous keys can leave it.
import { asc, eq, sql } from 'drizzle-orm';
import { auditLog } from './audit/index.ts';
import { encryptBankPass, openBankPass } from './bank-pass-cipher.ts';
import { bankPasswords } from './banks/index.ts';
import { type Db, queryRows } from './client.ts';
import { mailboxes } from './mailboxes/index.ts';
import { alertRules } from './alerts/schema.ts';

export interface Resealed {
  bankPasswords: number;
  mailboxSecrets: number;
  refreshTokens: number;
  webhookKeys: number;
  /** Of those, how many a previous key of the ring had sealed (the rest had the first key already). */
  fromPreviousKeys: number;
}

/** Sealed values no key of the ring opens, named by their rows: nothing was changed. */
export class UnopenedValues extends Error {
  constructor(readonly rows: string[]) {
    super(`No key of BANK_PASS_KEY opens ${rows.length === 1 ? 'this value' : `these ${rows.length} values`}: ${rows.join('; ')}.`);
  }
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What `resealAll` did, in the operators' words (counts only, never a value). */
export const describeResealed = (r: Resealed): string =>
  `${plural(r.bankPasswords, 'bank password', 'bank passwords')}, ${plural(r.mailboxSecrets, 'mailbox secret', 'mailbox secrets')}, ` +
  `${plural(r.refreshTokens, 'refresh token', 'refresh tokens')} and ${plural(r.webhookKeys, 'webhook key', 'webhook keys')} sealed again with the first key of the ring ` +
  `(${r.fromPreviousKeys} of them had been sealed with a previous key)`;

/**
 * Seal every value again with the ring's first key, in one transaction: all are opened first, and
 * one that no key opens stops it with nothing changed (UnopenedValues names the rows). The rows are
 * locked, so a refresh token an ingester replaces meanwhile waits, and is not written over.
 * `beforeCommit` runs once every row is written (the data folder's key file is written there).
 */
export async function resealAll(db: Db, ring: Buffer, beforeCommit?: () => void | Promise<void>): Promise<Resealed> {
  return db.transaction(async (tx) => {
    const passwords = await tx
      .select({ id: bankPasswords.id, bankName: bankPasswords.bankName, sealed: bankPasswords.bankPassEncrypted })
      .from(bankPasswords)
      .orderBy(asc(bankPasswords.id))
      .for('update');
    const boxes = await tx
      .select({
        id: mailboxes.id,
        username: mailboxes.username,
        host: mailboxes.host,
        authMethod: mailboxes.authMethod,
        secret: mailboxes.secretEncrypted,
        refreshToken: mailboxes.refreshTokenEncrypted,
      })
      .from(mailboxes)
      .orderBy(asc(mailboxes.id))
      .for('update');
    const hooks = await tx
      .select({ id: alertRules.id, name: alertRules.name, sealed: alertRules.webhookSecretEncrypted })
      .from(alertRules)
      .orderBy(asc(alertRules.id))
      .for('update');

    const unopened: string[] = [];
    const done: Resealed = { bankPasswords: 0, mailboxSecrets: 0, refreshTokens: 0, webhookKeys: 0, fromPreviousKeys: 0 };
    const reseal = (sealed: Buffer | null, row: string, count: Exclude<keyof Resealed, 'fromPreviousKeys'>): Buffer | null => {
      if (sealed === null) return null;
      const opened = openBankPass(ring, sealed);
      if (!opened) {
        unopened.push(row);
        return null;
      }
      done[count]++;
      if (opened.keyIndex > 0) done.fromPreviousKeys++;
      return encryptBankPass(ring, opened.plain);
    };
    const passwordRows = passwords.map((p) => ({ id: p.id, sealed: reseal(p.sealed, `bank password ${p.id} (${p.bankName})`, 'bankPasswords') }));
    const mailboxRows = boxes.map((m) => {
      const name = `mailbox ${m.id} (${m.username} at ${m.host})`;
      return {
        id: m.id,
        secret: reseal(m.secret, `${name}, its ${m.authMethod === 'password' ? 'password' : 'client secret'}`, 'mailboxSecrets'),
        refreshToken: reseal(m.refreshToken, `${name}, its refresh token`, 'refreshTokens'),
      };
    });
    // Bank passwords waiting in a four-eyes request are sealed too (counted with the bank passwords).
    const waiting = await queryRows<{ id: number; payload: { body?: { bank_pass_sealed?: string } } }>(
      tx as unknown as Db,
      sql`select id::float8 as id, payload from change_requests
          where status = 'pending' and action = 'bank_password' and payload -> 'body' ? 'bank_pass_sealed' order by id for update`,
    );
    const waitingRows = waiting.map((r) => ({
      id: r.id,
      sealed: reseal(Buffer.from(r.payload.body!.bank_pass_sealed!, 'base64'), `four-eyes request ${r.id}, its bank password`, 'bankPasswords'),
    }));
    const hookRows = hooks.map((h) => ({ id: h.id, sealed: reseal(h.sealed, `alert rule ${h.id} (${h.name}), its webhook key`, 'webhookKeys') }));
    if (unopened.length > 0) throw new UnopenedValues(unopened);

    for (const { id, sealed } of passwordRows) await tx.update(bankPasswords).set({ bankPassEncrypted: sealed! }).where(eq(bankPasswords.id, id));
    for (const { id, secret, refreshToken } of mailboxRows) {
      await tx.update(mailboxes).set({ secretEncrypted: secret, refreshTokenEncrypted: refreshToken }).where(eq(mailboxes.id, id));
    }
    for (const { id, sealed } of waitingRows)
      await tx.execute(
        sql`update change_requests set payload = jsonb_set(payload, '{body,bank_pass_sealed}', to_jsonb(${sealed!.toString('base64')}::text)) where id = ${id}`,
      );
    for (const { id, sealed } of hookRows) if (sealed) await tx.update(alertRules).set({ webhookSecretEncrypted: sealed }).where(eq(alertRules.id, id));
    await tx.insert(auditLog).values({ userId: null, action: 'rekey', entity: 'bank_pass_key', detail: `pnpm rekey: ${describeResealed(done)}` });
    await beforeCommit?.();
    return done;
  });
}
