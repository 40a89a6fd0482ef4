// Everything the ingester wrote, in a form two runs can be compared by: per message (by
// Message-ID) its category, read flag, EJ records and data files with their rows.
import { queryRows, type Db } from '@ejdesk/db';
import { sql } from 'drizzle-orm';

export async function ingestSnapshot(db: Db) {
  const emails = await queryRows<Record<string, unknown>>(
    db,
    sql`select e.message_id, e.category, e.is_read, e.num_of_email,
          (select count(*)::int from ej_records r where r.email_id = e.id) as ej_records,
          (select coalesce(json_agg(json_build_object('kind', f.kind, 'name', f.name,
             'rows', (select count(*)::int from data_file_rows x where x.data_file_id = f.id)) order by f.name), '[]')
           from data_files f where f.email_id = e.id)::text as files
        from emails e join email_sources s on s.email_id = e.id
        order by e.message_id`,
  );
  const [totals] = await queryRows<Record<string, number>>(
    db,
    sql`select (select count(*)::int from emails) as emails, (select count(*)::int from ej_records) as ej_records,
               (select count(*)::int from data_files) as data_files, (select count(*)::int from data_file_rows) as data_file_rows,
               (select count(*)::int from email_sources where processed_at is null) as queued`,
  );
  return { emails, totals };
}
