// What an email produced: the data files extracted from it (with their rows), its EJ records by
// kind, and the disputes those records belong to; with its stored message, for its attachments.
// The email's page lists them, so a record leads back to its mail and the mail on to its work.
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../client.ts';

/** At most this many disputes are listed (the count says how many there are). */
const listedDisputes = 100;

export interface EmailProduce {
  files: { id: number; kind: string; name: string; rows: number }[];
  records: { dispute: number; overage: number; succeeding: number };
  disputes: {
    id: number;
    atm_id: string;
    txt_no: string;
    status: 'open' | 'awaiting_msp' | 'resolved';
    outcome: 'credited' | 'rejected' | 'other' | null;
    overdue_days: number;
  }[];
  disputes_total: number;
}

/** Null when there is no such email. */
export async function emailProduce(db: Db, id: number, today: string): Promise<EmailProduce | null> {
  const [email] = await queryRows<{ id: number }>(db, sql`select id from emails where id = ${id}`);
  if (!email) return null;
  const [files, kinds, disputes, total] = await Promise.all([
    queryRows<EmailProduce['files'][number]>(
      db,
      sql`select f.id::float8 as id, f.kind, f.name, (select count(*) from data_file_rows r where r.data_file_id = f.id)::int as rows
          from data_files f where f.email_id = ${id} order by f.id`,
    ),
    queryRows<{ kind: 'dispute' | 'overage' | 'succeeding'; n: number }>(
      db,
      sql`select kind, count(*)::int as n from ej_records where email_id = ${id} group by kind`,
    ),
    queryRows<EmailProduce['disputes'][number]>(
      db,
      sql`select d.id::float8 as id, d.atm_id, d.txt_no, d.status, d.outcome,
                 coalesce(greatest(0, coalesce(d.stopped_on, ${today}::date) - d.due_date), 0)::int as overdue_days
          from disputes d where d.id in (
            select l.dispute_id from ej_records r join dispute_records l on l.record_id = r.id where r.email_id = ${id})
          order by d.id limit ${listedDisputes}`,
    ),
    queryRows<{ n: number }>(
      db,
      sql`select count(distinct l.dispute_id)::int as n from ej_records r join dispute_records l on l.record_id = r.id where r.email_id = ${id}`,
    ),
  ]);
  const records = { dispute: 0, overage: 0, succeeding: 0 };
  for (const k of kinds) records[k.kind] = k.n;
  return { files, records, disputes, disputes_total: total[0]?.n ?? 0 };
}

/** The email's stored message, as received (null: no such email, or it was kept without one). */
export async function storedMessage(db: Db, id: number): Promise<Buffer | null> {
  const [row] = await queryRows<{ raw: Buffer | Uint8Array }>(db, sql`select raw from email_sources where email_id = ${id}`);
  return row ? Buffer.from(row.raw) : null;
}
