// The ingester's benchmarks' databases: each run into a database of its own, made fresh on the
// server in BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres), migrated,
// with the test corpus's sender rules (its bank passwords sealed with `key`).
import pg from 'pg';
import { openDatabase } from '@ejdesk/db';
import { prepareRules } from '../test/support/corpus.ts';

const server = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The URL of database `name`, dropped and made again, migrated, with the corpus's rules. */
export async function freshDatabase(name: string, key: Buffer): Promise<string> {
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString() });
  await database.migrate();
  await prepareRules(database.db, key);
  await database.close();
  return url.toString();
}
