// A list's count of a broad match. Counting every row of a filter that matches most of ten million
// reads them all; the page itself is found by index. So a count reads at most `upTo` rows: within
// it the count is exact, past it the planner's estimate of the match is given and flagged
// (`exact: false`, the API's count_exact), never shown as exact. Last asks for the exact count.
// Each count is kept, per process, with the write version of the tables it read (data_versions),
// read in the same snapshot as the count: the same question on the same data is answered from the
// cache, and any write committed since changes the version, so a count from before a write is
// never returned.
import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect, PgTransaction } from 'drizzle-orm/pg-core';
import { type Db, namedRows, queryRows } from '../client.ts';

/** How a list counts: exact up to `upTo` rows read, past it estimated; `exact` counts every row. */
export interface Counting {
  upTo: number;
  exact?: boolean;
}
export interface Count {
  n: number;
  exact: boolean;
}

/** The default bound: 100,000 rows read at most (a few tens of milliseconds). */
export const listCounting: Counting = { upTo: 100_000 };
export const exactCounting: Counting = { upTo: Number.MAX_SAFE_INTEGER, exact: true };

const dialect = new PgDialect();
/** Counts kept per database (a process may open several: the tests do), newest last; a few hundred filters' worth. */
const caches = new WeakMap<object, Map<string, { version: string; answer: unknown }>>();
const CACHED = 500;
const stats = { hits: 0, misses: 0 };

/** How often a count was answered from the cache, and computed (the tests read it). */
export const countCacheStats = () => ({ ...stats });

/**
 * The count of `from` under `where`, as `counting` says, reusing one computed on the same data.
 * `tables`: every table the count reads (their write versions key it).
 */
export async function countRows(db: Db, from: SQL, where: SQL | undefined, tables: string[], counting: Counting = listCounting): Promise<Count> {
  const matching = sql`select 1 from ${from}${where ? sql` where ${where}` : sql``}`;
  return keptAnswer(
    db,
    matching,
    tables,
    (read) => compute(read, matching, counting),
    // An exact count answers either way; an estimate only a list's count.
    (kept) => kept.exact || !counting.exact,
  );
}

/** The summed write version of `tables` (a named statement: one plan per connection). */
async function versionOf(db: Db, tables: string[]): Promise<string> {
  const [row] = await namedRows<{ version: string }>(
    db,
    'data_version',
    sql`select coalesce(sum(version), 0)::text as version from data_versions where table_name = any(${sql.param(tables)}::text[])`,
  );
  return row!.version;
}

/**
 * The answer `compute` gives to the question `asked` (a statement and its parameters), reusing one
 * computed on the same data: kept with the write version of `tables` (every table it reads), read
 * in the same snapshot as the answer, so that an answer from before a write is never returned.
 * `usable`: whether a kept answer serves this asking too.
 */
export async function keptAnswer<T>(
  db: Db,
  asked: SQL,
  tables: string[],
  compute: (read: Db) => Promise<T>,
  usable: (kept: T) => boolean = () => true,
): Promise<T> {
  // Within a caller's transaction (its own snapshot, maybe its own writes): computed, not kept.
  if (db instanceof PgTransaction) return compute(db as unknown as Db);
  const query = dialect.sqlToQuery(asked);
  // Hashed: a filter's exact values may be a long list, and a few hundred are kept.
  const key = createHash('sha256')
    .update(JSON.stringify([query.sql, query.params]))
    .digest('base64');
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const kept = cache.get(key);
  // A kept answer is checked against the versions committed now, by one statement: the snapshot
  // transaction (three round trips) is opened only to compute one. Most lists read two or three
  // kept answers a request.
  if (kept && kept.version === (await versionOf(db, tables)) && usable(kept.answer as T)) {
    stats.hits += 1;
    cache.delete(key);
    cache.set(key, kept);
    return kept.answer as T;
  }
  return db.transaction(
    async (tx) => {
      const version = await versionOf(tx as unknown as Db, tables);
      stats.misses += 1;
      const answer = await compute(tx as unknown as Db);
      cache.delete(key);
      cache.set(key, { version, answer });
      if (cache.size > CACHED) cache.delete(cache.keys().next().value!);
      return answer;
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

async function compute(db: Db, matching: SQL, counting: Counting): Promise<Count> {
  if (counting.exact) {
    const [all] = await queryRows<{ n: string }>(db, sql`select count(*)::text as n from (${matching}) m`);
    return { n: Number(all!.n), exact: true };
  }
  const [bounded] = await queryRows<{ n: string }>(db, sql`select count(*)::text as n from (${matching} limit ${counting.upTo + 1}) m`);
  const n = Number(bounded!.n);
  if (n <= counting.upTo) return { n, exact: true };
  // Past the bound: the planner's estimate of the whole match, at least the rows already seen.
  return { n: Math.max(counting.upTo + 1, await plannedRows(db, matching)), exact: false };
}

/** How many rows the planner expects a query to return (EXPLAIN: nothing is read). */
export async function plannedRows(db: Db, query: SQL): Promise<number> {
  const [plan] = await queryRows<Record<string, unknown>>(db, sql`explain (format json) ${query}`);
  const json = Object.values(plan!)[0];
  const parsed = (typeof json === 'string' ? JSON.parse(json) : json) as { Plan: { 'Plan Rows': number } }[];
  return Math.round(parsed[0]!.Plan['Plan Rows']);
}
