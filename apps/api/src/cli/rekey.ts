// `pnpm rekey [--new-key]`: every sealed value (bank passwords, mailbox secrets and refresh tokens)
// sealed again with the first key of BANK_PASS_KEY's ring (NEW,OLD), in one transaction, so that
// the previous keys can then leave the ring. A value no key opens stops it with nothing changed.
// On the embedded database (no DATABASE_URL), `--new-key` makes the data folder a new key: its key
// file holds NEW,OLD until the re-seal commits (a crash between leaves every value readable), then
// NEW alone. While the API runs on the embedded database, the database is that process's alone, so
// this refuses. It prints counts, never a key or a value.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { bankPassKeyFile, bankPassKeyFrom, bankPassKeyRing, describeResealed, resealAll, storedSecret, UnopenedValues, writeBankPassKeyFile } from '@ejdesk/db';
import { startingWith } from '@ejdesk/settings';
import { loadConfig } from '../config.ts';
import { openConfiguredDatabase } from '../database.ts';
import { apiMayBeRunning } from './embedded.ts';

const usage =
  'Usage: pnpm rekey [--new-key]   (seals every stored secret again with the first key of BANK_PASS_KEY; --new-key: a new key for the embedded database in EJDESK_DATA_DIR)';
const args = (() => {
  try {
    return parseArgs({ options: { 'new-key': { type: 'boolean' } } });
  } catch {
    return null;
  }
})();
if (!args) {
  console.error(usage);
  process.exit(2);
}
const newKey = args.values['new-key'] === true;

const config = startingWith('EJ Desk', loadConfig);
const refuse = (why: string, code = 2): never => {
  console.error(`EJ Desk rekey: ${why} Nothing was changed.`);
  process.exit(code);
};
if (newKey && config.databaseUrl) {
  refuse(
    '--new-key makes a key for the embedded database only. With DATABASE_URL, make one (openssl rand -base64 32), put it first in BANK_PASS_KEY (NEW,OLD) on every API and ingester, restart them, then run pnpm rekey.',
  );
}
if (newKey && config.bankPassKey) {
  refuse('BANK_PASS_KEY is set, so the data folder’s key is not used: put a new key first in BANK_PASS_KEY (NEW,OLD) and run pnpm rekey without --new-key.');
}

if (!config.databaseUrl) {
  if (!existsSync(join(config.dataDir, 'pg', 'PG_VERSION'))) refuse(`${config.dataDir} holds no embedded database: there is nothing to seal again.`, 1);
  if (await apiMayBeRunning(config)) {
    refuse(
      `The API answers on port ${config.port} (API_PORT): while it runs, the embedded database in ${config.dataDir} is that process's alone. Stop it (pnpm start, pnpm api), run pnpm rekey, then start it again.`,
      1,
    );
  }
}

// The ring to seal with: BANK_PASS_KEY's, or the data folder's key, a new one first with --new-key.
const keyFile = join(config.dataDir, bankPassKeyFile);
const stored = config.databaseUrl || config.bankPassKey ? undefined : storedSecret(config.dataDir, bankPassKeyFile);
if (!config.databaseUrl && !config.bankPassKey && stored === undefined && !newKey) {
  refuse(`${keyFile} does not exist: no key to seal with (the API makes one when it first starts).`, 1);
}
const fresh = newKey ? randomBytes(32) : undefined;
const current = stored === undefined && fresh ? undefined : startingWith('EJ Desk', () => bankPassKeyFrom(config, config.dataDir));
const ring = bankPassKeyRing([...(fresh ? [fresh] : []), ...(current ? [current] : [])]);

const database = await openConfiguredDatabase(config);
try {
  await database.migrate();
  const done = await resealAll(
    database.db,
    ring,
    // Written before the commit: should this process die between the two, every value still opens.
    fresh && (() => writeBankPassKeyFile(config.dataDir, [fresh.toString('base64'), ...(stored ? [stored] : [])])),
  );
  // The data folder's key file keeps the first key alone (a ring there is an interrupted --new-key's).
  const first = fresh?.toString('base64') ?? (stored?.includes(',') ? stored.split(',')[0]!.trim() : undefined);
  if (first) writeBankPassKeyFile(config.dataDir, [first]);
  console.log(`EJ Desk rekey: ${describeResealed(done)}.`);
  if (first) {
    console.log(`${keyFile} now holds ${fresh ? 'the new key' : 'its first key'} alone. Backups made before keep the previous key, and restore with it.`);
  } else if (ring.length > 32) {
    console.log(
      'Every value now opens with the first key of BANK_PASS_KEY alone: once every API and ingester runs with it first, the previous keys can leave it.',
    );
  }
} catch (error) {
  if (!(error instanceof UnopenedValues)) throw error;
  console.error(`EJ Desk rekey: ${error.message} Nothing was changed: add the key that sealed them to the ring (after the first), or enter them again.`);
  process.exitCode = 1;
} finally {
  await database.close();
}
