// `pnpm audit-log verify`: walks the audit log's hash chain in the configured database and names
// the first entry changed, removed or inserted (exit 1), or says the chain holds (exit 0). It reads
// only. Not `pnpm audit`, which is pnpm's own command.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { verifyAuditChain } from '@ejdesk/db';
import { startingWith } from '@ejdesk/settings';
import { loadConfig } from '../config.ts';
import { openConfiguredDatabase } from '../database.ts';
import { apiMayBeRunning } from './embedded.ts';

const usage = "Usage: pnpm audit-log verify   (walks the audit log's hash chain and names the first entry changed, removed or inserted)";
if (process.argv[2] !== 'verify' || process.argv.length > 3) {
  console.error(usage);
  process.exit(2);
}

const config = startingWith('EJ Desk', loadConfig);
if (!config.databaseUrl) {
  if (!existsSync(join(config.dataDir, 'pg', 'PG_VERSION'))) {
    console.error(`EJ Desk audit-log: ${config.dataDir} holds no embedded database: there is no audit log to verify.`);
    process.exit(1);
  }
  if (await apiMayBeRunning(config)) {
    console.error(
      `EJ Desk audit-log: the API answers on port ${config.port} (API_PORT), and while it runs the embedded database is that process's alone. Ask it instead: GET /api/admin/audit-log/verify/ (an admin's token), or stop it and run this again.`,
    );
    process.exit(1);
  }
}

const database = await openConfiguredDatabase(config);
try {
  await database.migrate();
  const report = await verifyAuditChain(database.db);
  if (report.ok) {
    console.log(`EJ Desk audit-log: the chain holds: ${report.entries} entries, the last hash ${report.last_hash}.`);
  } else {
    console.error(`EJ Desk audit-log: the chain is broken. ${report.first!.detail}`);
    for (const problem of report.problems.slice(1)) console.error(`  also: ${problem.detail}`);
    console.error(`${report.entries} entries read. The first problem is entry ${report.first!.id} (${report.first!.kind}).`);
    process.exitCode = 1;
  }
} finally {
  await database.close();
}
