// The audit log's hash chain, walked: each entry's hash is recomputed from its content and the hash
// before it (audit/functions.sql says how), and each link is checked against the entry read before
// it, in chain order (the order entries were seen committed: the chainer places each just after).
// What a walk can tell: an entry changed (its hash no longer matches its content), an entry
// inserted (the entry after it links past it), an entry removed (a link to nothing read), and the
// newest entries removed (the last entry is not the chain's head). An entry changed and its hash
// recomputed shows as a broken link after it. The same walk checks an exported file (chainEntry).
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../client.ts';

/** The hash the first entry is chained onto. */
export const chainStart = '0'.repeat(64);

/** An entry as it is hashed and exported: the exact time, the user's id, the two hashes. */
export interface ChainEntry {
  id: number;
  /** Its place in the chain: the order entries were seen committed (audit_chain_extend). */
  seq: number;
  /** UTC, to the microsecond: 2026-11-28T09:15:02.123456Z. */
  at: string;
  user_id: number | null;
  action: string;
  entity: string;
  entity_id: string | null;
  ip: string | null;
  detail: string | null;
  prev_hash: string;
  hash: string;
  /** Not hashed (a user's email may change): read beside the entry for people. */
  user_email?: string | null;
}

const field = (value: string | null) => (value === null ? '-' : `${Buffer.byteLength(value, 'utf8')}:${value}`);

/** An entry's hash from its content and the hash before it: audit_entry_hash of functions.sql. */
export function entryHash(prevHash: string, e: Omit<ChainEntry, 'id' | 'seq' | 'prev_hash' | 'hash' | 'user_email'>): string {
  const text = `${prevHash}|${field(e.at)}${field(e.user_id === null ? null : String(e.user_id))}${field(e.action)}${field(e.entity)}${field(e.entity_id)}${field(e.ip)}${field(e.detail)}`;
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export type ChainProblemKind = 'changed' | 'inserted' | 'removed' | 'removed_newest';

export interface ChainProblem {
  kind: ChainProblemKind;
  /** The entry named: the one changed or inserted, the one after a removal, the last one read. */
  id: number;
  detail: string;
}

export interface ChainReport {
  ok: boolean;
  entries: number;
  /** The first problem, in chain order; none when the chain holds. */
  first: ChainProblem | null;
  /** Every problem found, up to a hundred. */
  problems: ChainProblem[];
  /** The last entry's hash: with the count, what an auditor notes down to compare later. */
  last_hash: string;
}

const problemLimit = 100;

/**
 * Walks entries in chain order. `head`, when known (the database's head row), is where the chain must
 * end; `startHash` is where it must begin (the zeros, or an exported range's first prev_hash).
 */
export async function walkChain(
  entries: AsyncIterable<ChainEntry[]>,
  options: { startHash?: string; head?: { lastId: number; lastHash: string } } = {},
): Promise<ChainReport> {
  const problems: ChainProblem[] = [];
  const add = (p: ChainProblem) => {
    if (p.kind === 'inserted') {
      // The inserted entry's own hash may be wrong too: one problem, the insertion, names it.
      const same = problems.findIndex((q) => q.id === p.id && q.kind === 'changed');
      if (same >= 0) problems.splice(same, 1);
    }
    if (problems.length < problemLimit) problems.push(p);
  };
  let before: ChainEntry | undefined;
  let beforeThat: ChainEntry | undefined;
  let n = 0;
  let lastHash = options.startHash ?? chainStart;
  for await (const batch of entries) {
    for (const entry of batch) {
      n += 1;
      if (entryHash(entry.prev_hash, entry) !== entry.hash)
        add({ kind: 'changed', id: entry.id, detail: `Entry ${entry.id} was changed: its content no longer gives its hash.` });
      const expected = before ? before.hash : (options.startHash ?? chainStart);
      if (entry.prev_hash !== expected) {
        if (before && entry.prev_hash === (beforeThat ? beforeThat.hash : (options.startHash ?? chainStart)))
          add({ kind: 'inserted', id: before.id, detail: `Entry ${before.id} was inserted: entry ${entry.id} links past it.` });
        else
          add({
            kind: 'removed',
            id: entry.id,
            detail: before
              ? `An entry between ${before.id} and ${entry.id} was removed (or entry ${before.id} changed and its hash recomputed): entry ${entry.id} links to none read.`
              : `Entries before ${entry.id}, the first read, were removed: it links to none read.`,
          });
      }
      beforeThat = before;
      before = entry;
      lastHash = entry.hash;
    }
  }
  const head = options.head;
  if (head && (before ? before.id !== head.lastId || before.hash !== head.lastHash : head.lastId !== 0))
    add({
      kind: 'removed_newest',
      id: before?.id ?? 0,
      detail: `The newest entries were removed or changed: the chain's head is entry ${head.lastId}, the last entry read is ${before ? before.id : 'none'}.`,
    });
  return { ok: problems.length === 0, entries: n, first: problems[0] ?? null, problems, last_hash: lastHash };
}

/**
 * The chained entries in chain order, in batches (keyset on the place), as they are hashed. With
 * days (`from`/`to`, whole UTC days), every entry from the first to the last place of those days'
 * entries: an entry's time is its transaction's start, so one that committed across midnight
 * still sits in its place. Entries not chained yet are left out: chain them first.
 */
export async function* chainBatches(
  db: Db,
  range: { from?: string | undefined; to?: string | undefined } = {},
  batchSize = 2000,
): AsyncGenerator<ChainEntry[]> {
  let after = 0;
  let last = Number.MAX_SAFE_INTEGER;
  if (range.from || range.to) {
    const [bounds] = await queryRows<{ first: number | null; last: number | null }>(
      db,
      sql`select min(chain_seq)::float8 as first, max(chain_seq)::float8 as last from audit_log
          where chain_seq is not null
            and (${range.from ?? null}::date is null or at >= (${range.from ?? null}::date)::timestamp at time zone 'UTC')
            and (${range.to ?? null}::date is null or at < (${range.to ?? null}::date + 1)::timestamp at time zone 'UTC')`,
    );
    if (!bounds || bounds.first === null || bounds.last === null) return;
    after = bounds.first - 1;
    last = Math.min(last, bounds.last);
  }
  for (;;) {
    const rows = await queryRows<ChainEntry>(
      db,
      sql`select a.id::float8 as id, a.chain_seq::float8 as seq, to_char(a.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at, a.user_id,
                 a.action, a.entity, a.entity_id, a.ip, a.detail, a.prev_hash, a.hash, u.email as user_email
          from audit_log a left join users u on u.id = a.user_id
          where a.chain_seq > ${after} and a.chain_seq <= ${last}
          order by a.chain_seq limit ${batchSize}`,
    );
    if (rows.length) yield rows;
    if (rows.length < batchSize) return;
    after = rows[rows.length - 1]!.seq;
  }
}

/**
 * Chains the committed entries not chained yet (all of them when `wait`, waiting for a chainer
 * already at work; else up to 10,000, leaving the work to a chainer at work). Returns how many.
 */
export async function extendAuditChain(db: Db, wait: boolean): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, sql`select audit_chain_extend(${wait ? null : 10_000}::int, ${wait}) as n`);
  return row?.n ?? 0;
}

/** The database's whole chain, walked: what `GET /api/admin/audit-log/verify/` and `pnpm audit-log verify` say. */
export async function verifyAuditChain(db: Db): Promise<ChainReport> {
  await extendAuditChain(db, true);
  // The head and every batch read in one snapshot: entries chained meanwhile by the worker are
  // the next walk's, and an entry past the head is one nobody chained.
  return db.transaction(async (trx) => {
    const tx = trx as unknown as Db;
    await tx.execute(sql`set transaction isolation level repeatable read`);
    const [head] = await queryRows<{ last_id: number; last_hash: string }>(
      tx,
      sql`select last_id::float8 as last_id, last_hash from audit_chain_head where id = 1`,
    );
    const report = await walkChain(chainBatches(tx), { head: head ? { lastId: head.last_id, lastHash: head.last_hash } : undefined });
    if (head) return report;
    const missing: ChainProblem = { kind: 'removed_newest', id: 0, detail: "The chain's head was removed: the newest entries cannot be checked." };
    return { ...report, ok: false, first: report.first ?? missing, problems: [...report.problems, missing] };
  });
}
