// `pnpm ingest --imap [--watch] | --from PATH | --reprocess [--rules FILE] [--lanes N]`
// Reads the same DATABASE_URL / embedded default as the API, and IMAP_* for the mailbox.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { bankPassKeyFrom, openConfiguredDatabase, replaceIngestRules } from '@ejdesk/db';
import { startingWith } from '@ejdesk/settings';
import { loadIngestConfig } from './config.ts';
import { reasonOf } from '@ejdesk/mailbox';
import { createLogger } from './log.ts';
import { parseRulesFile } from './rules-file.ts';
import { ingestFromImap, ingestFromPath, processStored, watchImap, type RunOptions } from './run.ts';
import { watchMailboxes } from './mailboxes.ts';
import { watchAlerts } from './alerts/send.ts';
import { watchRetention } from './retention.ts';
import { serveQueue } from './queue.ts';
import { requeueStoredMessages, loadIngestRules } from '@ejdesk/db';

/**
 * This process's own peak resident memory. Linux's getrusage maxRSS counts the parent's memory at
 * fork (it survives exec), so a process spawned by a big parent would report the parent's peak;
 * VmHWM in /proc is this program's alone.
 */
function peakMemoryKb(): number {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Number(hwm[1]);
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS;
}

const usage = `Usage:
  pnpm ingest --watch            a worker (pnpm worker): watch every enabled mailbox of the Mailboxes screen
                                 and the one in IMAP_* (one worker per mailbox), and process the queue
                                 whenever it changes (an admin's Reprocess)
  pnpm ingest --imap [--watch]   sync the mailbox in IMAP_HOST, IMAP_PORT, IMAP_USER, IMAP_TLS (true/false),
                                 IMAP_MAILBOX (default INBOX), signed in to as IMAP_AUTH says (IMAP_PASSWORD,
                                 or IMAP_OAUTH_*: see docs/ingester.md); --watch keeps going
  pnpm ingest --from PATH        import a folder (its .eml files, mbox files, and electronic journals: journal
                                 files of any name and ZIPs of them, recognised by their content), or one file
  pnpm ingest --reprocess        extract again from every stored message
Options:
  --rules FILE   replace the sender mapping and ignore rules with FILE's (JSON, see README)
  --lanes N      messages processed concurrently (default 4 on PostgreSQL, 1 embedded)`;

let args;
try {
  args = parseArgs({
    options: {
      imap: { type: 'boolean' },
      watch: { type: 'boolean' },
      from: { type: 'string' },
      reprocess: { type: 'boolean' },
      rules: { type: 'string' },
      lanes: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  }).values;
} catch (err) {
  console.error(`${(err as Error).message}\n\n${usage}`);
  process.exit(2);
}
const modes = [args.imap, args.from !== undefined, args.reprocess].filter(Boolean).length;
const everyMailbox = args.watch && !args.imap;
if (args.help || (modes !== 1 && !args.rules && !everyMailbox) || modes > 1 || (everyMailbox && modes > 0)) {
  console.log(usage);
  process.exit(args.help ? 0 : 2);
}

const config = startingWith('EJ Desk ingester', loadIngestConfig);
const log = createLogger(config.logLevel);
const settings = args.imap ? config.mailbox : null;
if (args.imap && !settings) {
  console.error('--imap needs IMAP_HOST and IMAP_USER (and IMAP_PASSWORD or IMAP_OAUTH_*) in the environment');
  process.exit(2);
}
const bankPassKey = startingWith('EJ Desk ingester', () => bankPassKeyFrom(config, config.dataDir));
const database = await openConfiguredDatabase(config.databaseUrl, config.dataDir, { asynchronousCommit: true });
await database.migrate();

const controller = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    log.info(`${signal}: finishing the message in hand`);
    controller.abort();
  });
}

let failed = false;
try {
  if (args.rules) {
    await replaceIngestRules(database.db, parseRulesFile(await readFile(args.rules, 'utf8')));
    console.log(`Rules replaced from ${args.rules}`);
  }
  const lanes = Number(args.lanes ?? config.lanes ?? (database.backend === 'pglite' ? 1 : 4));
  const options: RunOptions = {
    db: database.db,
    loadRules: () => loadIngestRules(database.db, bankPassKey, config.clockTimeZone),
    log,
    lanes: Number.isInteger(lanes) && lanes > 0 ? lanes : 1,
    signal: controller.signal,
    onRefreshTokenRotated: async () =>
      log.warn(
        'the identity provider replaced the refresh token in IMAP_OAUTH_REFRESH_TOKEN: the new one is used until this run ends, and the old one may no longer work',
      ),
  };
  let summary;
  const started = performance.now();
  if (everyMailbox) {
    // A worker: every mailbox it holds, the queue whenever the database says it changed, and the
    // alerts due (warnings before a clock runs out, the owners' digests), and the night's retention.
    await Promise.all([
      watchMailboxes({ ...options, pollMs: config.pollMs, leaseSeconds: config.leaseSeconds, bankPassKey, bootstrap: config.mailbox }),
      serveQueue(database, options),
      watchAlerts({ db: database.db, settings: config.alerts, bankPassKey, clockTimeZone: config.clockTimeZone, log, signal: controller.signal }),
      watchRetention({
        db: database.db,
        policy: config.retention,
        hour: config.retention.hour,
        clockTimeZone: config.clockTimeZone,
        log,
        signal: controller.signal,
      }),
    ]);
  } else if (settings && args.watch) await watchImap(settings, { ...options, pollMs: config.pollMs });
  else if (settings) summary = await ingestFromImap(settings, options);
  else if (args.from !== undefined) summary = await ingestFromPath(args.from, options);
  else if (args.reprocess) {
    console.log(`Queued ${await requeueStoredMessages(database.db)} stored messages for processing again`);
    summary = await processStored(options);
  }
  if (summary) {
    console.log(summary.toText());
    const seconds = (performance.now() - started) / 1000;
    const peakMb = peakMemoryKb() / 1024;
    const journals = summary.journals.received ? `, ${(summary.journals.received / seconds).toFixed(1)} journals/s received` : '';
    console.log(
      `Time: ${seconds.toFixed(1)} s (${(summary.processed / seconds).toFixed(0)} messages/s processed${journals}), peak memory ${peakMb.toFixed(0)} MB`,
    );
    failed = summary.hardFailures.length > 0;
  }
} catch (err) {
  console.error(`FAILED: ${reasonOf(err)}`);
  failed = true;
} finally {
  await database.close();
}
process.exit(failed ? 1 : 0);
