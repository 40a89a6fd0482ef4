// An admin list whose every create, change and delete is audited in the same transaction, with
// the list's unique index as the one judge of a duplicate (sender mappings, ignore rules, TAT rules).
import type { Db } from '../client.ts';
import { isUniqueViolation } from '../refusals.ts';
import { auditLog } from './schema.ts';

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
