// The write versions of the tables whose lists count rows: a list's count is kept with the version
// of the data it was counted on, and reused only while that version holds (counts.ts).
import { bigint, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/**
 * How many writing statements each counted table has seen, in a row per table and server process
 * (`shard` is its pid: a writer adds to its own row, so no two writers ever wait on one). The sum of a
 * table's rows grows with every committed write and with nothing else: a count read in the same
 * snapshot as the sum holds while the sum is unchanged. Kept by data_versions_apply (functions.sql).
 */
export const dataVersions = pgTable(
  'data_versions',
  {
    tableName: text('table_name').notNull(),
    shard: integer('shard').notNull(),
    version: bigint('version', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tableName, t.shard] })],
);
