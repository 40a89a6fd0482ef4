// The answers to writes by their Idempotency-Key (schema.ts: idempotency_keys). Every function
// takes the write's own transaction: a key is claimed, answered and committed with its write.
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../client.ts';

/** How long an answer is kept, and a repeated key answered with it. */
export const idempotencyKeyHours = 24;

export interface StoredAnswer {
  requestHash: string;
  status: number;
  contentType: string | null;
  /** null: the answer held a secret and was not kept. */
  body: string | null;
}

/**
 * Claims `key` for this write, in its transaction: true when it is new (or its earlier use has
 * expired), else the answer stored for it. A concurrent request with the same key waits here
 * until the first one's transaction ends (the primary key's lock), then reads its answer; had the
 * first rolled back, this one claims the key and writes.
 */
export async function claimIdempotencyKey(tx: Db, owner: string, key: string, requestHash: string): Promise<true | StoredAnswer> {
  const claimed = await queryRows<{ claimed: number }>(
    tx,
    sql`insert into idempotency_keys (owner, key, request_hash, status) values (${owner}, ${key}, ${requestHash}, 0)
        on conflict (owner, key) do update
          set request_hash = excluded.request_hash, status = 0, content_type = null, body = null, created_at = now()
          where idempotency_keys.created_at < now() - make_interval(hours => ${idempotencyKeyHours})
        returning 1 as claimed`,
  );
  if (claimed.length > 0) return true;
  const [stored] = await queryRows<StoredAnswer>(
    tx,
    sql`select request_hash as "requestHash", status, content_type as "contentType", body
        from idempotency_keys where owner = ${owner} and key = ${key}`,
  );
  // Only an expired row can be missing here, purged between the two statements: claim it again.
  return stored ?? claimIdempotencyKey(tx, owner, key, requestHash);
}

/** Stores the answer of the claimed key, in the write's transaction, just before it commits. */
export async function recordIdempotentAnswer(tx: Db, owner: string, key: string, answer: Omit<StoredAnswer, 'requestHash'>): Promise<void> {
  await tx.execute(
    sql`update idempotency_keys set status = ${answer.status}, content_type = ${answer.contentType}, body = ${answer.body}
        where owner = ${owner} and key = ${key}`,
  );
}

/** Whether the key's write committed (its row is there): asked after a commit whose answer was lost. */
export async function idempotencyKeyStored(db: Db, owner: string, key: string): Promise<boolean> {
  const rows = await queryRows<{ one: number }>(db, sql`select 1 as one from idempotency_keys where owner = ${owner} and key = ${key}`);
  return rows.length > 0;
}

/** Deletes the answers older than a day; how many. */
export async function purgeIdempotencyKeys(db: Db): Promise<number> {
  const rows = await queryRows<{ n: number }>(
    db,
    sql`with gone as (delete from idempotency_keys where created_at < now() - make_interval(hours => ${idempotencyKeyHours}) returning 1)
        select count(*)::int as n from gone`,
  );
  return rows[0]?.n ?? 0;
}
