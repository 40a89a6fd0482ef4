// The backends a counter test runs on: PGlite always, PostgreSQL when TEST_DATABASE_URL names a server.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../src/index.ts';
import { migratedDatabase } from '../testing/template.ts';

export /** A fresh database of the backend, and how to drop it. */
async function fresh(backend: string): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (backend === 'pglite') {
    const database = await openDatabase();
    return { database, drop: () => database.close() };
  }
  const server = process.env.TEST_DATABASE_URL!;
  const name = `ejdesk_test_counts_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString() });
  return {
    database,
    drop: async () => {
      await database.close();
      await admin.query(`drop database ${name} with (force)`);
      await admin.end();
    },
  };
}

/** A migrated database of the backend (a copy of the migrated template: see testing/template.ts), and how to drop it. */
export async function migrated(backend: string): Promise<{ database: Database; drop: () => Promise<void> }> {
  const { database, drop } = await migratedDatabase(backend === 'postgres' ? process.env.TEST_DATABASE_URL : undefined, { prefix: 'ejdesk_test_counts' });
  return { database, drop };
}

export const backends = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
