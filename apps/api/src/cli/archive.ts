// `pnpm archive`: retention by hand (docs/operations.md, "Partitions, retention and archives").
// `run` does what the worker does each night; `month KIND YYYY-MM FILE` archives one month of a kind
// (ej-records, journals, ignored-mail) past or within its retention (a DBA's choice, refused like
// the night's while a dispute still open rests on it); `restore FILE` puts an archive's rows back. The archives are sealed with ARCHIVE_PASSPHRASE. On the embedded
// database, EJ Desk must be stopped: while it runs, the database is its process's alone.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  applyRetention,
  archiveMonth,
  BackupError,
  restoreArchive,
  retentionKinds,
  retentionMonths,
  retentionSettings,
  RetentionRefusal,
  type RetentionKind,
} from '@ejdesk/db';
import { readSettings, SettingError, startingWith } from '@ejdesk/settings';
import { loadConfig } from '../config.ts';
import { openConfiguredDatabase } from '../database.ts';
import { apiMayBeRunning } from './embedded.ts';

const usage =
  'Usage: pnpm archive run | pnpm archive month ej-records|journals|ignored-mail YYYY-MM FILE | pnpm archive restore FILE   (sealed with ARCHIVE_PASSPHRASE)';
const [mode, ...rest] = process.argv.slice(2);
const wanted: Record<string, number> = { run: 0, month: 3, restore: 1 };
if (
  mode === undefined ||
  wanted[mode] === undefined ||
  rest.length !== wanted[mode] ||
  (mode === 'month' && !retentionKinds.includes(rest[0] as RetentionKind))
) {
  console.error(usage);
  process.exit(2);
}

const config = startingWith('EJ Desk', loadConfig);
const settings = startingWith('EJ Desk', () => readSettings(retentionSettings));
const fail = (message: string): never => {
  console.error(`EJ Desk archive: ${message}`);
  process.exit(1);
};
if (!settings.ARCHIVE_PASSPHRASE) fail('ARCHIVE_PASSPHRASE is not set: the archives are sealed with it, and opened with it.');
if (!config.databaseUrl) {
  if (!existsSync(join(config.dataDir, 'pg', 'PG_VERSION'))) fail(`${config.dataDir} holds no embedded database.`);
  if (await apiMayBeRunning(config))
    fail(`the API answers on port ${config.port} (API_PORT): stop EJ Desk first, the embedded database is that process's alone while it runs.`);
}

const database = await openConfiguredDatabase(config);
try {
  await database.migrate();
  const passphrase = settings.ARCHIVE_PASSPHRASE!;
  if (mode === 'run') {
    const run = await applyRetention(database.db, { months: retentionMonths(settings), archiveDir: settings.RETENTION_ARCHIVE_DIR, passphrase });
    if (run.off) console.log(`EJ Desk archive: ${run.off}.`);
    for (const m of run.archived)
      console.log(`${m.kind} of ${m.month}: archived to ${m.file} (${m.tables.map((t) => `${t.rows} ${t.name}`).join(', ')}) and dropped.`);
    for (const k of run.kept) console.log(k.why);
    if (!run.off && run.archived.length + run.kept.length === 0) console.log('Nothing is past its retention.');
  } else if (mode === 'month') {
    const m = await archiveMonth(database.db, rest[0] as RetentionKind, rest[1]!, { file: resolve(rest[2]!), passphrase, userId: null });
    if (!m) console.log(`${rest[0]} of ${rest[1]}: nothing was received that month; no file written.`);
    else {
      const rows = m.tables.map((t) => `${t.rows} ${t.name}`).join(', ');
      console.log(`${m.kind} of ${m.month}: archived to ${m.file} (${rows})${m.dropped ? ' and its partition dropped' : ''}.`);
    }
  } else {
    const restored = await restoreArchive(database.db, resolve(rest[0]!), passphrase, null);
    console.log(
      `${restored.kind} of ${restored.month}: restored from the archive of ${restored.madeAt} (${restored.tables.map((t) => `${t.rows} ${t.name}`).join(', ')}).`,
    );
  }
} catch (error) {
  const known =
    error instanceof BackupError || error instanceof RetentionRefusal || error instanceof SettingError || (error as NodeJS.ErrnoException).code === 'ENOENT';
  console.error(`EJ Desk archive: ${known ? (error as Error).message : `failed: ${String(error)}`}`);
  process.exitCode = 1;
} finally {
  await database.close();
}
