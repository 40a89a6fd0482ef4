// The audit log as admins read it: newest first (by id: rows are added with the time of adding, so
// id order is time order, and exact where timestamps tie), filtered by who (their email), what (the
// action) and when (whole UTC days). Rows are only ever added (audit() below); nothing here
// changes or deletes them.
import { and, count, desc, eq, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { containsText, type Page, type PageOf, withinDays } from '../filters.ts';
import { users } from '../identity/schema.ts';
import { auditLog } from './schema.ts';

export interface AuditFilters {
  /** Part of the user's email. */
  who?: string | undefined;
  /** Part of the action (login, login_failed, logout, reveal, create, ...), any case. */
  action?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

export interface AuditRow {
  id: number;
  at: Date;
  user_email: string | null;
  action: string;
  entity: string;
  entity_id: string | null;
  detail: string | null;
  ip: string | null;
}

const columns = {
  id: auditLog.id,
  at: auditLog.at,
  user_email: users.email,
  action: auditLog.action,
  entity: auditLog.entity,
  entity_id: auditLog.entityId,
  detail: auditLog.detail,
  ip: auditLog.ip,
};

/** A row as exported: with the chain's fields, so that an auditor can recompute each hash. */
export interface AuditExportRow extends AuditRow {
  /** The time exactly as hashed (UTC, to the microsecond). */
  at_hashed: string;
  user_id: number | null;
  /** Its place in the chain; null until the chainer has placed it (just after it committed). */
  chain_seq: number | null;
  prev_hash: string;
  hash: string;
}

const exportColumns = {
  ...columns,
  at_hashed: sql<string>`to_char(${auditLog.at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
  user_id: auditLog.userId,
  chain_seq: auditLog.chainSeq,
  prev_hash: auditLog.prevHash,
  hash: auditLog.hash,
};

const conditions = (f: AuditFilters): SQL | undefined =>
  and(containsText(users.email, f.who), containsText(auditLog.action, f.action), withinDays(auditLog.at, f.from, f.to));

export async function listAudit(db: Db, filters: AuditFilters, page: Page): Promise<PageOf<AuditRow>> {
  const where = conditions(filters);
  const [total] = await db.select({ n: count() }).from(auditLog).leftJoin(users, eq(users.id, auditLog.userId)).where(where);
  const rows = await db
    .select(columns)
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.userId))
    .where(where)
    .orderBy(desc(auditLog.id))
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  return { count: total?.n ?? 0, rows };
}

/** Every matching row, newest first, in batches (keyset on id), for the streamed export. */
export async function* auditBatches(db: Db, filters: AuditFilters, batchSize = 1000): AsyncGenerator<AuditExportRow[]> {
  let before: number | undefined;
  for (;;) {
    const rows = await db
      .select(exportColumns)
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.userId))
      .where(and(conditions(filters), before === undefined ? undefined : lt(auditLog.id, before)))
      .orderBy(desc(auditLog.id))
      .limit(batchSize);
    if (rows.length) yield rows;
    if (rows.length < batchSize) return;
    before = rows[rows.length - 1]!.id;
  }
}

/** One audit row (append-only: nothing updates or deletes them). */
export async function audit(
  db: Db,
  row: { userId: number | null; action: string; entity: string; entityId?: string | null; ip?: string | null; detail?: string | null },
): Promise<void> {
  await db.insert(auditLog).values(row);
}
