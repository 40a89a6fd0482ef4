// The ingester hosted inside another process on the same database handle: `pnpm start` runs it in
// the API process, since the embedded database can be opened by one process only. It watches the
// mailbox in IMAP_* when that is set, and processes the queue when asked (an admin's Reprocess).
// (The API loads this module by path, from EJDESK_HOSTED_WORKER, so it does not depend on it.)
import { loadIngestRules, type Db } from '@ejdesk/db';
import { createLogger } from './log.ts';
import { processStored, watchImap, type RunOptions } from './run.ts';
import { mailboxName } from './sources/imap.ts';
import { loadIngestConfig } from './config.ts';
import { startingWith } from '@ejdesk/settings';

// Read as the hosting process imports this module, before it listens: a bad value stops it, named.
const config = startingWith('EJ Desk ingester', loadIngestConfig);

export async function start(host: { db: Db; bankPassKey: Buffer }): Promise<{ stop(): Promise<void>; processQueued(): Promise<void> }> {
  const settings = config.mailbox;
  const log = createLogger(config.logLevel);
  const controller = new AbortController();
  const options: RunOptions = {
    db: host.db,
    loadRules: () => loadIngestRules(host.db, host.bankPassKey),
    log,
    lanes: 1,
    signal: controller.signal,
  };
  if (settings) log.info(`watching ${mailboxName(settings)} beside the API`);
  const watching = settings ? watchImap(settings, { ...options, pollMs: config.pollMs }) : Promise.resolve();
  return {
    async stop() {
      controller.abort();
      await watching;
    },
    async processQueued() {
      const summary = await processStored(options);
      if (summary.processed) log.info(summary.toText());
    },
  };
}
