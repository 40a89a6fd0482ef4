// One database handle for both backends: embedded PGlite (no DATABASE_URL, the demo default) and a
// real PostgreSQL server (DATABASE_URL). Callers only ever see the drizzle PgDatabase type.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  /** 'pglite' for the embedded demo database, 'postgres' for a real server. */
  backend: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres:// URL of a real server; when absent the embedded PGlite at dataDir is used. */
  url?: string | undefined;
  /** Folder of the embedded database; omit for an in-memory one (tests). */
  dataDir?: string | undefined;
  /** Pool size for a real server. */
  poolSize?: number;
}

const migrationsFolder = fileURLToPath(new URL('../migrations', import.meta.url));

export async function openDatabase(options: DatabaseOptions = {}): Promise<Database> {
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    // Fail fast with a clear message rather than on the first request.
    await pool.query('select 1');
    const db = drizzlePg({ client: pool, schema });
    return {
      db: db as unknown as Db,
      backend: 'postgres',
      migrate: () => migratePg(db, { migrationsFolder }),
      close: () => pool.end(),
    };
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const client = await PGlite.create(options.dataDir ?? 'memory://', { extensions: { pg_trgm } });
  const db = drizzlePglite({ client, schema });
  return {
    db: db as unknown as Db,
    backend: 'pglite',
    migrate: () => migratePglite(db, { migrationsFolder }),
    close: () => client.close(),
  };
}

/** Rows of a raw SQL query; both drivers answer `{ rows }`. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
