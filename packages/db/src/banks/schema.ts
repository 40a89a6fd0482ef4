// The admin lists about banks: each bank's password for its protected attachments, and which MSP
// serves which bank.
import { sql } from 'drizzle-orm';
import { pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { bytea, createdAt, updatedAt } from '../columns.ts';

/** bank_pass is AES-256-GCM ciphertext (iv | tag | data); never stored or logged in clear. */
export const bankPasswords = pgTable(
  'bank_passwords',
  {
    id: serial('id').primaryKey(),
    bankName: text('bank_name').notNull(),
    bankPassEncrypted: bytea('bank_pass_encrypted').notNull(),
    createAt: createdAt(),
    updateAt: updatedAt(),
  },
  (t) => [uniqueIndex('bank_passwords_bank_lower_key').on(sql`lower(${t.bankName})`)],
);

/** Which MSP serves which bank. */
export const bankMsps = pgTable(
  'bank_msps',
  {
    id: serial('id').primaryKey(),
    msp: text('msp').notNull(),
    bankName: text('bank_name').notNull(),
    createAt: createdAt(),
    updateAt: updatedAt(),
  },
  (t) => [uniqueIndex('bank_msps_pair_key').on(sql`lower(${t.bankName})`, sql`lower(${t.msp})`)],
);
