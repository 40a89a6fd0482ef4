// The current definition of every SQL function and trigger function: one file per domain,
// <domain>/functions.sql, each the one place its functions are defined (migrations are history).
// The migration runner applies them all after the migrations, every time (client.ts, migrate).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const sourceFolder = fileURLToPath(new URL('.', import.meta.url));

/** Each domain's functions.sql, by path (a domain with SQL of its own has one; found, not listed). */
export const functionFiles: string[] = readdirSync(sourceFolder, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && readdirSync(join(sourceFolder, entry.name)).includes('functions.sql'))
  .map((entry) => join(sourceFolder, entry.name, 'functions.sql'))
  .sort();

/** The domains' functions.sql files as one script. */
export const currentSql = functionFiles.map((file) => readFileSync(file, 'utf8')).join('\n');
