// The trigger functions of the derived tables have one definition, their domain's functions.sql:
// whatever the migrations once created, the database runs those bodies after every migrate, and a
// body changed by hand (or by an old migration) is put back.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { derivedSql, queryRows, type Database } from '../src/index.ts';
import { backends, migrated } from './backends.ts';

/** name -> body, as the functions.sql files write them. */
const bodies = new Map(
  [...derivedSql.matchAll(/CREATE OR REPLACE FUNCTION (\w+)\(\) RETURNS trigger LANGUAGE plpgsql AS \$\$(.*?)\$\$;/gs)].map((m) => [m[1]!, m[2]!]),
);

describe.each(backends)("the derived tables' functions on %s", (backend) => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await migrated(backend));
  });
  afterAll(() => drop());

  const installed = async () =>
    new Map(
      (
        await queryRows<{ name: string; body: string }>(database.db, sql`select proname as name, prosrc as body from pg_proc where proname like '%\_apply'`)
      ).map((r) => [r.name, r.body]),
    );

  it('is what the database runs for every derived table', async () => {
    expect([...bodies.keys()].sort()).toEqual([
      'data_versions_apply',
      'dispute_counts_apply',
      'dispute_evidence_verdict_apply',
      'dispute_record_copies_apply',
      'dispute_record_fill_apply',
      'dispute_record_links_apply',
      'dispute_rule_deadlines_apply',
      'ej_counts_apply',
      'ej_id_blocks_apply',
      'ej_values_apply',
      'email_counts_apply',
      'email_subject_words_apply',
      'email_subjects_apply',
      'file_values_apply',
      'journal_transaction_links_apply',
    ]);
    expect(await installed()).toEqual(bodies);
  });

  it('puts a body changed since back at the next migrate', async () => {
    await database.db.execute(sql.raw(`CREATE OR REPLACE FUNCTION ej_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$`));
    expect((await installed()).get('ej_counts_apply')).toBe(' BEGIN RETURN NULL; END ');
    await database.migrate();
    expect(await installed()).toEqual(bodies);
  });
});
