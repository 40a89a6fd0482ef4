// Rows into a table in batches through json_to_recordset: one parameter per batch, the same SQL on
// PGlite and PostgreSQL (the demo seed's and the benchmarks' way in).
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from './client.ts';

export interface BatchOptions {
  batchSize?: number | undefined;
  onProgress?: ((table: string, done: number, total: number) => void) | undefined;
}

export async function insertBatches(
  db: Db,
  table: string,
  columns: Record<string, string>,
  total: number,
  make: (i: number) => Record<string, unknown>,
  options: BatchOptions,
  /** For rows with a unique key (the admin lists): keep what is there. */
  keepExisting = false,
): Promise<void> {
  const batchSize = options.batchSize ?? 5000;
  const names = Object.keys(columns);
  const definition = names.map((n) => `"${n}" ${columns[n]}`).join(', ');
  const list = names.map((n) => `"${n}"`).join(', ');
  for (let start = 0; start < total; start += batchSize) {
    const rows = [];
    for (let i = start; i < Math.min(total, start + batchSize); i++) rows.push(make(i));
    await db.execute(
      sql`insert into ${sql.identifier(table)} (${sql.raw(list)}) select ${sql.raw(list)} from json_to_recordset(${JSON.stringify(rows)}::json) as r(${sql.raw(definition)}) ${sql.raw(keepExisting ? 'on conflict do nothing' : '')}`,
    );
    options.onProgress?.(table, Math.min(total, start + batchSize), total);
  }
}

export async function maxId(db: Db, table: string): Promise<number> {
  const [row] = await queryRows<{ max: string | number | null }>(db, sql`select max(id) as max from ${sql.identifier(table)}`);
  return Number(row?.max ?? 0);
}
