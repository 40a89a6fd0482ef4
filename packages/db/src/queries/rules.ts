// The ingester's sender mapping (address or @domain -> bank or MSP) and ignore rules, as two admin
// lists. One check of each entry serves the admin screens (through the API) and the rules file of
// `pnpm ingest --rules FILE`, so both accept and refuse the same things. Every create, change and
// delete is audited in its own transaction; the ingester reads the lists afresh for each round, so a
// change applies to mail processed after it.
import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { auditLog, ignoreRuleFields, ignoreRules, mailSenders, type IgnoreRuleField } from '../schema.ts';

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

/** Why an entry is refused: names the field, as the API's other 400s do. */
export class RuleProblem extends Error {}

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

/** A unique index refused the write (node-postgres and PGlite both carry SQLSTATE 23505). */
export const isUniqueViolation = (err: unknown): boolean => {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) if (e.code === '23505') return true;
  return false;
};

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

/** What a write came to: the row, 'conflict' (the same entry exists), or 'missing' (no such id). */
export type Written<Row> = Row | 'conflict' | 'missing';

export interface AuditedList<Input, Row> {
  list(db: Db): Promise<Row[]>;
  create(db: Db, userId: number, input: Input): Promise<Written<Row>>;
  change(db: Db, userId: number, id: number, input: Input): Promise<Written<Row>>;
  remove(db: Db, userId: number, id: number): Promise<Written<Row>>;
}

/** A list's create/change/delete, audited, with the unique index as the one judge of a duplicate. */
export function auditedList<Input, Row extends { id: number }>(spec: {
  entity: string;
  list: (db: Db) => Promise<Row[]>;
  insert: (tx: Db, input: Input) => Promise<Row | undefined>;
  update: (tx: Db, id: number, input: Input) => Promise<Row | undefined>;
  remove: (tx: Db, id: number) => Promise<Row | undefined>;
  describe: (row: Row) => string;
}): AuditedList<Input, Row> {
  const write = async (db: Db, userId: number, action: string, run: (tx: Db) => Promise<Row | undefined>): Promise<Written<Row>> => {
    try {
      return await db.transaction(async (tx) => {
        const row = await run(tx as unknown as Db);
        if (!row) return action === 'create' ? 'conflict' : 'missing';
        await tx.insert(auditLog).values({ userId, action, entity: spec.entity, entityId: String(row.id), detail: spec.describe(row) });
        return row;
      });
    } catch (err) {
      if (isUniqueViolation(err)) return 'conflict';
      throw err;
    }
  };
  return {
    list: spec.list,
    create: (db: Db, userId: number, input: Input) => write(db, userId, 'create', (tx) => spec.insert(tx, input)),
    change: (db: Db, userId: number, id: number, input: Input) => write(db, userId, 'change', (tx) => spec.update(tx, id, input)),
    remove: (db: Db, userId: number, id: number) => write(db, userId, 'delete', (tx) => spec.remove(tx, id)),
  };
}

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
