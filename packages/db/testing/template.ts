// Migrated databases for tests, made by copying a template instead of migrating each time: on
// PostgreSQL a migrated template database cloned with CREATE DATABASE ... TEMPLATE, on PGlite a
// migrated data folder dumped once and loaded by each suite. Migrating costs seconds per database
// (about 10 s for PGlite on a busy 2-core machine); a copy costs about one.
//
// Each template is named by a hash of everything that decides what migrating makes: the package's
// SQL files, the migration journal, the code that runs them and the installed drizzle-orm, pg and
// PGlite; so a changed migration, SQL function, migration runner or upgrade makes a new one.
// Building is safe from many processes at once (vitest workers, package suites side by side, another
// checkout on the same server): PostgreSQL's under an advisory lock, PGlite's written to a private
// file and renamed into place. Whoever builds a new template removes those more than a day old.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase, type Database } from '../src/index.ts';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * The migration runner's code: openDatabase and migrate (client.ts), the functions.sql loader
 * (current-sql.ts), and this file, which makes and marks the templates.
 */
const migrationCode = ['src/client.ts', 'src/current-sql.ts', 'testing/template.ts'].map((path) => join(packageRoot, path));

/** The installed libraries that run the migrations and hold the data. */
const migrationLibraries = ['drizzle-orm', 'pg', '@electric-sql/pglite'];

const installedVersion = (name: string) =>
  (JSON.parse(readFileSync(join(packageRoot, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

/** Every file under the package whose content decides what a migrated database holds. */
function schemaFiles(dir = packageRoot): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return schemaFiles(path);
    return entry.name.endsWith('.sql') || entry.name === '_journal.json' || migrationCode.includes(path) ? [path] : [];
  });
}

/** A short hash of the package's SQL (migrations, functions), migration journal, migration code and libraries. */
export function schemaHash(): string {
  const hash = createHash('sha256');
  for (const file of schemaFiles().sort()) hash.update(relative(packageRoot, file)).update('\0').update(readFileSync(file)).update('\0');
  for (const name of migrationLibraries) hash.update(`${name}@${installedVersion(name)}`).update('\0');
  return hash.digest('hex').slice(0, 16);
}

/** A template older than this is removed by whoever builds a new one (never one in use). */
const staleAfterMs = 24 * 60 * 60 * 1000;

// A data folder is loaded only by the PGlite that dumped it: its version is part of the name.
const pgliteVersion = installedVersion('@electric-sql/pglite');
const cacheDir = join(tmpdir(), 'ejdesk-test-templates');

const pgliteTemplateFile = () => join(cacheDir, `pglite-${pgliteVersion}-${schemaHash()}.tgz`);

/**
 * Remove the PGlite dumps (and partial files of makers that stopped) more than a day old, never the
 * current one. One another checkout still uses is made again there when next needed.
 */
function removeStaleDumps(current: string): void {
  const now = Date.now();
  for (const name of readdirSync(cacheDir)) {
    const path = join(cacheDir, name);
    if (!name.startsWith('pglite-') || path === current) continue;
    try {
      if (now - statSync(path).mtimeMs > staleAfterMs) rmSync(path, { force: true });
    } catch {
      // Removed meanwhile by another maker: nothing to do.
    }
  }
}

let pgliteTemplate: Promise<Buffer> | undefined;

/** The migrated PGlite data folder (a gzipped tar), made once per schema and kept in the temp folder. */
export function pgliteTemplateDump(): Promise<Buffer> {
  // A failure is not kept: a transient one (a busy machine, a full temp folder) would otherwise fail
  // every later suite of the same worker.
  pgliteTemplate ??= (async () => {
    const file = pgliteTemplateFile();
    if (existsSync(file)) return readFileSync(file);
    const database = await openDatabase();
    try {
      await database.migrate();
      const dump = await database.dump!();
      mkdirSync(cacheDir, { recursive: true });
      const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
      writeFileSync(partial, dump);
      renameSync(partial, file);
      removeStaleDumps(file);
      return dump;
    } finally {
      await database.close();
    }
  })().catch((error: unknown) => {
    pgliteTemplate = undefined;
    throw error;
  });
  return pgliteTemplate;
}

const templateDatabaseName = () => `ejdesk_template_${schemaHash()}`;
const withDatabase = (server: string, name: string) => {
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
};

async function onServer<T>(server: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

// A template's age is kept in its comment (pg_database has no creation time, and reading the data
// folder's files needs a superuser): "ejdesk test template, made <ISO time>".
const madeNote = (word: 'made' | 'first seen') => `ejdesk test template, ${word} ${new Date().toISOString()}`;
const noteTime = (note: string | null) => Date.parse(/(?:made|first seen) (\S+)$/.exec(note ?? '')?.[1] ?? '');

/**
 * Drop the other templates more than a day old (those of older schemas, this checkout's or
 * another's). One with a connection is left alone, and a copy being made from one holds it until
 * done (CREATE DATABASE locks its template, DROP waits). A template older than these notes is
 * noted as first seen now, and dropped a day later. Called under the advisory lock.
 */
async function dropStaleTemplates(client: pg.Client, current: string): Promise<void> {
  const others = await client.query<{ datname: string; note: string | null }>(
    `select d.datname, shobj_description(d.oid, 'pg_database') as note from pg_database d
      where d.datname like 'ejdesk\\_template\\_%' and d.datname <> $1
        and not exists (select 1 from pg_stat_activity a where a.datname = d.datname)`,
    [current],
  );
  for (const { datname, note } of others.rows) {
    try {
      const made = noteTime(note);
      if (Number.isNaN(made)) await client.query(`comment on database ${datname} is '${madeNote('first seen')}'`);
      else if (Date.now() - made > staleAfterMs) {
        // DROP refuses a template; without FORCE it also refuses one that took a connection meanwhile.
        await client.query(`alter database ${datname} with is_template false`);
        await client.query(`drop database ${datname}`);
      }
    } catch {
      // Owned by another role, or taken meanwhile: left for a later build.
    }
  }
}

let postgresTemplate: Promise<string> | undefined;

/**
 * The migrated template database on the server, made once per schema. It is complete once marked a
 * template: one left unmarked (its maker stopped mid-way) is made again. It takes no connections, so
 * nothing stops it being copied.
 */
export function postgresTemplateDatabase(server: string): Promise<string> {
  postgresTemplate ??= onServer(server, async (client) => {
    const name = templateDatabaseName();
    await client.query(`select pg_advisory_lock(hashtext('ejdesk test template'))`);
    try {
      const found = await client.query<{ datistemplate: boolean }>('select datistemplate from pg_database where datname = $1', [name]);
      if (found.rows[0]?.datistemplate) return name;
      await client.query(`drop database if exists ${name} with (force)`);
      await client.query(`create database ${name}`);
      const database = await openDatabase({ url: withDatabase(server, name), poolSize: 1 });
      try {
        await database.migrate();
      } finally {
        await database.close();
      }
      await client.query(`alter database ${name} with allow_connections false`);
      await client.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
      await client.query(`comment on database ${name} is '${madeNote('made')}'`);
      await client.query(`alter database ${name} with is_template true`);
      await dropStaleTemplates(client, name);
      return name;
    } finally {
      await client.query(`select pg_advisory_unlock(hashtext('ejdesk test template'))`);
    }
  }).catch((error: unknown) => {
    // Not kept, as the PGlite template's.
    postgresTemplate = undefined;
    throw error;
  });
  return postgresTemplate;
}

export interface ScratchDatabase {
  /** postgres:// URL of the copy on a server; undefined for PGlite. */
  url: string | undefined;
  database: Database;
  /** Close the handle and drop the copy. */
  drop(): Promise<void>;
}

/** A new, empty database on the server named by `server` (a postgres:// URL), and how to drop it. */
export async function throwawayDatabase(server: string, options: { template?: string; prefix?: string } = {}): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${options.prefix ?? 'ejdesk_test'}_${randomBytes(6).toString('hex')}`;
  await onServer(server, (client) => client.query(`create database ${name}${options.template ? ` template ${options.template}` : ''}`));
  return {
    url: withDatabase(server, name),
    drop: () => onServer(server, (client) => client.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
  };
}

/**
 * A migrated database of its own: a copy of the PGlite template in memory, or (given a server URL)
 * a copy of the server's template database, dropped again by `drop`.
 */
export async function migratedDatabase(
  server: string | undefined,
  options: { poolSize?: number; connectTimeoutMs?: number; prefix?: string } = {},
): Promise<ScratchDatabase> {
  if (!server) {
    const database = await openDatabase({ loadDataDir: await pgliteTemplateDump() });
    return { url: undefined, database, drop: () => database.close() };
  }
  const copy = async () => throwawayDatabase(server, { template: await postgresTemplateDatabase(server), prefix: options.prefix });
  // The template may have been dropped since it was cached (more than a day old, by another
  // checkout's newer build): made again, once.
  const scratch = await copy().catch((error: unknown) => {
    if ((error as { code?: string }).code !== '3D000') throw error;
    postgresTemplate = undefined;
    return copy();
  });
  const database = await openDatabase({ url: scratch.url, poolSize: options.poolSize ?? 4, connectTimeoutMs: options.connectTimeoutMs });
  return {
    url: scratch.url,
    database,
    async drop() {
      await database.close();
      await scratch.drop();
    },
  };
}

/** Make the templates before the test workers start, so that they do not all make them at once. */
export async function prepareTemplates(server: string | undefined): Promise<void> {
  await Promise.all([pgliteTemplateDump(), server ? postgresTemplateDatabase(server) : undefined]);
}
