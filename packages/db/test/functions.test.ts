// Each domain's functions.sql is the one current definition of its SQL functions (docs/data-model.md).
// Proven two ways. A database migrated with the migrations alone and one migrated as the runtime
// does (the migrations, then every functions.sql) hold the same functions and the same triggers,
// with the same definitions, but for the trigger functions whose bodies only the files hold
// (the migrations created them empty). And no SQL function is created anywhere in the
// source but in one domain's functions.sql: `git grep -n -i -E "create (or replace )?function" --
// ':!*/migrations/*' ':!*/test/*'` lists only those files.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionFiles } from '../src/current-sql.ts';
import { queryRows, type Database } from '../src/index.ts';
import { backends, fresh } from './backends.ts';

const migrationsFolder = fileURLToPath(new URL('../migrations', import.meta.url));
const repository = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * The functions whose bodies only the files hold: migrations 0030, 0036 and 0051 created these empty. A
 * body changed in a functions.sql without a migration joins them, on purpose and reviewed.
 */
const newerThanMigrations = [
  'audit_log_chain_link',
  'audit_log_refuse_change',
  'dispute_counts_apply',
  'dispute_record_copies_apply',
  'dispute_record_fill_apply',
  'file_values_apply',
];

type Definitions = { functions: Map<string, string>; triggers: Map<string, string> };

/** Our functions (not an extension's) and triggers, as the database prints their definitions. */
async function definitions(database: Database): Promise<Definitions> {
  const functions = await queryRows<{ name: string; definition: string }>(
    database.db,
    sql`select p.proname as name, pg_get_functiondef(p.oid) as definition
        from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public' and p.prokind = 'f'
          and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')`,
  );
  const triggers = await queryRows<{ name: string; definition: string }>(
    database.db,
    sql`select tgname as name, pg_get_triggerdef(oid) as definition from pg_trigger where not tgisinternal`,
  );
  return {
    functions: new Map(functions.map((r) => [r.name, r.definition])),
    triggers: new Map(triggers.map((r) => [r.name, r.definition])),
  };
}

describe.each(backends)('functions.sql on %s', (backend) => {
  let alone: Awaited<ReturnType<typeof fresh>>;
  let current: Awaited<ReturnType<typeof fresh>>;
  beforeAll(async () => {
    [alone, current] = await Promise.all([fresh(backend), fresh(backend)]);
    const { migrate } = backend === 'pglite' ? await import('drizzle-orm/pglite/migrator') : await import('drizzle-orm/node-postgres/migrator');
    await migrate(alone.database.db as never, { migrationsFolder });
    await current.database.migrate();
  });
  afterAll(() => Promise.all([alone?.drop(), current?.drop()]));

  it('define what the migrations left, but for the bodies only the files hold', async () => {
    const [before, after] = await Promise.all([definitions(alone.database), definitions(current.database)]);
    expect([...after.functions.keys()].sort()).toEqual([...before.functions.keys()].sort());
    expect(after.triggers).toEqual(before.triggers);
    const changed = [...after.functions.keys()].filter((name) => after.functions.get(name) !== before.functions.get(name)).sort();
    expect(changed).toEqual(newerThanMigrations);
    expect(before.functions.get('tat_due_date')).toContain('IMMUTABLE');
    expect(after.triggers.size).toBeGreaterThan(20);
  });
});

/** Every source file of the repository but migrations, tests and dependencies. */
function* sources(folder: string): Generator<string> {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || ['node_modules', 'migrations', 'test', 'dist'].includes(entry.name)) continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (/\.(ts|tsx|js|mjs|sql)$/.test(entry.name)) yield path;
  }
}

describe('a SQL function', () => {
  it('is created only in its domain’s functions.sql, once', () => {
    const created = new Map<string, string[]>();
    for (const file of [...sources(join(repository, 'apps')), ...sources(join(repository, 'packages'))]) {
      for (const [, name] of readFileSync(file, 'utf8').matchAll(/create\s+(?:or\s+replace\s+)?function\s+(\w+)/gi)) {
        created.set(name!, [...(created.get(name!) ?? []), relative(repository, file)]);
      }
    }
    const outside = [...created].filter(([, files]) => files.some((file) => !functionFiles.map((f) => relative(repository, f)).includes(file)));
    expect(outside).toEqual([]);
    expect([...created].filter(([, files]) => files.length > 1)).toEqual([]);
    expect(created.size).toBeGreaterThanOrEqual(12);
  });
});
