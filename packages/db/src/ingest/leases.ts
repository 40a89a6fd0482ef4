// Which worker watches which mailbox: a lease per mailbox, taken and renewed by its holder, so that
// one worker at a time reads it however many run on the database.
import { sql } from 'drizzle-orm';
import { type Db, mailChannel, queryRows } from '../client.ts';

/**
 * Take or renew the lease on each mailbox for `holder`, for `seconds`: renewed when it holds it,
 * taken when nobody does or the holder's lease lapsed (its worker died). Returns the mailboxes it
 * now holds. The upsert gives each mailbox to one worker when two ask at once.
 */
export async function leaseMailboxes(db: Db, holder: string, sources: string[], seconds: number): Promise<Set<string>> {
  if (sources.length === 0) return new Set();
  // One statement for every mailbox, taken in one order by every worker (no two lock each other's in turn).
  const ordered = [...new Set(sources)].sort();
  const rows = await queryRows<{ source: string }>(
    db,
    sql`insert into mailbox_leases (source, holder, expires_at, taken_at)
          select source, ${holder}, now() + make_interval(secs => ${seconds}), now()
          from unnest(array[${sql.join(
            ordered.map((source) => sql`${source}`),
            sql`, `,
          )}]::text[]) as wanted(source)
        on conflict (source) do update set holder = excluded.holder, expires_at = excluded.expires_at,
          taken_at = case when mailbox_leases.holder = excluded.holder then mailbox_leases.taken_at else now() end
        where mailbox_leases.holder = excluded.holder or mailbox_leases.expires_at < now()
        returning source`,
  );
  return new Set(rows.map((row) => row.source));
}

/**
 * A worker that stops (or no longer watches a mailbox) gives its leases back: the next worker need
 * not wait. A null holder is every worker's (the embedded database's one process, started again).
 */
export async function releaseMailboxes(db: Db, holder: string | null, sources?: string[]): Promise<void> {
  if (sources?.length === 0) return;
  const whose = holder === null ? sql`true` : sql`holder = ${holder}`;
  const which = sources
    ? sql`source in (${sql.join(
        sources.map((s) => sql`${s}`),
        sql`, `,
      )})`
    : sql`true`;
  await db.execute(sql`delete from mailbox_leases where ${whose} and ${which}`);
}

/** A mailbox no longer watched (deleted or disabled on the Mailboxes screen) leaves Mail Flow. */
export async function forgetMailbox(db: Db, source: string): Promise<void> {
  await db.execute(sql`with gone as (delete from mailbox_status where source = ${source} returning 1) select pg_notify(${mailChannel}, '') from gone`);
}
