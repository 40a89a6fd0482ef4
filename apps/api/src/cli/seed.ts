// pnpm --filter @ejdesk/api seed --emails 5000 --ej 20000 [--files-per-kind N] [--seed N]
// Fills every table with deterministic demo data (adds to what is there).
import { parseArgs } from 'node:util';
import { seed } from '@ejdesk/db/seed';
import { startingWith } from '@ejdesk/settings';
import { loadConfig } from '../config.ts';
import { openConfiguredDatabase } from '../database.ts';
import { loadSecrets } from '../lib/secrets.ts';

const { values } = parseArgs({
  options: {
    emails: { type: 'string', default: '5000' },
    ej: { type: 'string', default: '20000' },
    'files-per-kind': { type: 'string' },
    seed: { type: 'string', default: '20240101' },
  },
});
const count = (name: string, value: string | undefined) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number`);
  return n;
};

const config = startingWith('EJ Desk', loadConfig);
const database = await openConfiguredDatabase(config);
await database.migrate();
const started = Date.now();
let last = '';
await seed(database.db, {
  emails: count('emails', values.emails),
  ej: count('ej', values.ej),
  filesPerKind: values['files-per-kind'] === undefined ? undefined : count('files-per-kind', values['files-per-kind']),
  seed: count('seed', values.seed),
  bankPassKey: loadSecrets(config).bankPassKey,
  onProgress: (table, done, total) => {
    const line = `${table}: ${done}/${total}`;
    if (done === total || Date.now() % 10 === 0) process.stdout.write(`\r${line.padEnd(last.length)}`);
    if (done === total) process.stdout.write('\n');
    last = line;
  },
});
await database.close();
console.log(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
