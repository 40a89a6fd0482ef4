// The ingester's sender mapping (address or @domain -> bank or MSP) and ignore rules, as two admin
// lists. One check of each entry serves the admin screens (through the API) and the rules file of
// `pnpm ingest --rules FILE`, so both accept and refuse the same things. Every create, change and
// delete is audited in its own transaction; the ingester reads the lists afresh for each round, so a
// change applies to mail processed after it.
import { desc, eq, sql } from 'drizzle-orm';
import { auditedList, auditLog } from '../audit/index.ts';
import { decryptBankPass } from '../bank-pass-cipher.ts';
import { bankMsps, bankPasswords } from '../banks/schema.ts';
import type { Db } from '../client.ts';
import { clockSettings } from '../disputes/index.ts';
import { RuleProblem } from '../refusals.ts';
import { type IgnoreRuleField, ignoreRuleFields, ignoreRules, mailSenders } from './schema.ts';

export interface SenderMappingInput {
  sender: string;
  organisation: string;
}
export interface IgnoreRuleInput {
  field: IgnoreRuleField;
  pattern: string;
}

/** A full address (name@bank.example) or a whole domain (@bank.example). */
const senderShape = /^[^@\s]*@[^@\s]+$/;

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** The checked, normal form of a sender mapping (sender lower-cased), or a RuleProblem. */
export function checkSenderMapping(value: { sender?: unknown; organisation?: unknown }, where = ''): SenderMappingInput {
  const sender = text(value.sender).toLowerCase();
  const organisation = text(value.organisation);
  if (!senderShape.test(sender) || sender.length > 320)
    throw new RuleProblem(`${where}sender must be an address (name@bank.example) or a domain (@bank.example)`);
  if (!organisation || organisation.length > 200) throw new RuleProblem(`${where}organisation must name a bank or MSP (1 to 200 characters)`);
  return { sender, organisation };
}

/** The checked, normal form of an ignore rule (pattern trimmed), or a RuleProblem. */
export function checkIgnoreRule(value: { field?: unknown; pattern?: unknown }, where = ''): IgnoreRuleInput {
  const pattern = text(value.pattern);
  if (!ignoreRuleFields.includes(value.field as IgnoreRuleField)) throw new RuleProblem(`${where}field must be one of ${ignoreRuleFields.join(', ')}`);
  if (!pattern || pattern.length > 200) throw new RuleProblem(`${where}pattern must be a non-empty text of at most 200 characters`);
  return { field: value.field as IgnoreRuleField, pattern };
}

const senderColumns = {
  id: mailSenders.id,
  sender: mailSenders.sender,
  organisation: mailSenders.organisation,
  create_at: mailSenders.createAt,
  update_at: mailSenders.updateAt,
};
const ruleColumns = {
  id: ignoreRules.id,
  field: ignoreRules.field,
  pattern: ignoreRules.pattern,
  create_at: ignoreRules.createAt,
  update_at: ignoreRules.updateAt,
};
export type SenderMappingRow = { id: number; sender: string; organisation: string; create_at: Date; update_at: Date };
export type IgnoreRuleRow = { id: number; field: string; pattern: string; create_at: Date; update_at: Date };

const describeSender = (r: { sender: string; organisation: string }) => `${r.sender} -> ${r.organisation}`;
const describeRule = (r: { field: string; pattern: string }) => `${r.field} contains "${r.pattern}"`;

export const senderMappings = auditedList<SenderMappingInput, SenderMappingRow>({
  entity: 'sender_mapping',
  list: (db) => db.select(senderColumns).from(mailSenders).orderBy(desc(mailSenders.createAt), desc(mailSenders.id)),
  insert: async (tx, input) => (await tx.insert(mailSenders).values(input).onConflictDoNothing().returning(senderColumns))[0],
  update: async (tx, id, input) =>
    (
      await tx
        .update(mailSenders)
        .set({ ...input, updateAt: sql`now()` })
        .where(eq(mailSenders.id, id))
        .returning(senderColumns)
    )[0],
  remove: async (tx, id) => (await tx.delete(mailSenders).where(eq(mailSenders.id, id)).returning(senderColumns))[0],
  describe: describeSender,
});

export const ignoreRuleList = auditedList<IgnoreRuleInput, IgnoreRuleRow>({
  entity: 'ignore_rule',
  list: (db) => db.select(ruleColumns).from(ignoreRules).orderBy(desc(ignoreRules.createAt), desc(ignoreRules.id)),
  insert: async (tx, input) => (await tx.insert(ignoreRules).values(input).onConflictDoNothing().returning(ruleColumns))[0],
  update: async (tx, id, input) =>
    (
      await tx
        .update(ignoreRules)
        .set({ ...input, updateAt: sql`now()` })
        .where(eq(ignoreRules.id, id))
        .returning(ruleColumns)
    )[0],
  remove: async (tx, id) => (await tx.delete(ignoreRules).where(eq(ignoreRules.id, id)).returning(ruleColumns))[0],
  describe: describeRule,
});

export interface IngestRules {
  /** lower-case address or @domain -> bank or MSP name. */
  senders: Map<string, string>;
  /** lower-case bank or MSP name -> the banks whose passwords may open its files. */
  banksOf: Map<string, string[]>;
  ignore: Record<IgnoreRuleField, string[]>;
  /** lower-case bank name -> its stored password (decrypted, kept in memory only). */
  passwords: Map<string, string>;
  /** The time zone of the turnaround clock's days (TAT_TIME_ZONE). */
  clockTimeZone: string;
}

export async function loadIngestRules(db: Db, bankPassKey: Buffer, clockTimeZone = clockSettings.TAT_TIME_ZONE.default!): Promise<IngestRules> {
  const [senders, pairs, ignore, stored] = await Promise.all([
    db.select().from(mailSenders),
    db.select().from(bankMsps),
    db.select().from(ignoreRules),
    db.select().from(bankPasswords),
  ]);
  const banksOf = new Map<string, string[]>();
  const add = (org: string, bank: string) => {
    const list = banksOf.get(org.toLowerCase()) ?? [];
    if (!list.includes(bank)) list.push(bank);
    banksOf.set(org.toLowerCase(), list);
  };
  for (const pair of pairs) {
    add(pair.bankName, pair.bankName);
    add(pair.msp, pair.bankName);
  }
  const passwords = new Map<string, string>();
  for (const row of stored) {
    try {
      passwords.set(row.bankName.toLowerCase(), decryptBankPass(bankPassKey, row.bankPassEncrypted));
    } catch {
      // Sealed with a key not in the ring: as if no password were stored (the failure names the file).
    }
  }
  return {
    senders: new Map(senders.map((s) => [s.sender.toLowerCase(), s.organisation])),
    banksOf,
    ignore: {
      sender: ignore.filter((r) => r.field === 'sender').map((r) => r.pattern.toLowerCase()),
      subject: ignore.filter((r) => r.field === 'subject').map((r) => r.pattern.toLowerCase()),
    },
    passwords,
    clockTimeZone,
  };
}

export interface RulesFile {
  senders?: { sender: string; organisation: string }[];
  ignore?: { field: IgnoreRuleField; pattern: string }[];
}

/** Replace the sender mapping and ignore rules (`pnpm ingest --rules FILE`), audited as one change. */
export async function replaceIngestRules(db: Db, rules: RulesFile): Promise<void> {
  await db.transaction(async (tx) => {
    const replaced = [rules.senders && `${rules.senders.length} sender mappings`, rules.ignore && `${rules.ignore.length} ignore rules`].filter(Boolean);
    await tx.insert(auditLog).values({ userId: null, action: 'replace', entity: 'ingest_rules', detail: `rules file: ${replaced.join(', ') || 'nothing'}` });
    if (rules.senders) {
      await tx.delete(mailSenders);
      if (rules.senders.length) await tx.insert(mailSenders).values(rules.senders);
    }
    if (rules.ignore) {
      await tx.delete(ignoreRules);
      if (rules.ignore.length) await tx.insert(ignoreRules).values(rules.ignore);
    }
  });
}
