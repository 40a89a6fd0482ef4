// The ingester hosted inside another process on the same database handle: `pnpm start` runs it in
// the API process, since the embedded database can be opened by one process only. It watches the
// mailbox in IMAP_* when that is set and every enabled mailbox on the Mailboxes screen, and
// processes the queue when asked (an admin's Reprocess).
// (The API loads this module by path, from EJDESK_HOSTED_WORKER, so it does not depend on it.)
import { loadIngestRules, type Db } from '@ejdesk/db';
import { createLogger } from './log.ts';
import { processStored, type RunOptions } from './run.ts';
import { watchMailboxes } from './mailboxes.ts';
import { watchAlerts } from './alerts/send.ts';
import { watchRetention } from './retention.ts';
import { mailboxName } from '@ejdesk/mailbox';
import { loadIngestConfig } from './config.ts';
import { startingWith } from '@ejdesk/settings';

// Read as the hosting process imports this module, before it listens: a bad value stops it, named.
const config = startingWith('EJ Desk ingester', loadIngestConfig);

const rotatedWarning =
  'the identity provider replaced the refresh token in IMAP_OAUTH_REFRESH_TOKEN: the new one is used until this process stops, and the old one may no longer work after a restart';

export async function start(host: { db: Db; bankPassKey: Buffer; embedded?: boolean }): Promise<{ stop(): Promise<void>; processQueued(): Promise<void> }> {
  const settings = config.mailbox;
  const log = createLogger(config.logLevel);
  const controller = new AbortController();
  const options: RunOptions = {
    db: host.db,
    loadRules: () => loadIngestRules(host.db, host.bankPassKey, config.clockTimeZone),
    log,
    lanes: 1,
    signal: controller.signal,
    onRefreshTokenRotated: async () => log.warn(rotatedWarning),
  };
  if (settings) log.info(`watching ${mailboxName(settings)} beside the API`);
  // The embedded database is one process's: leases an earlier run left (killed, then restarted) are
  // its own, and are taken at once rather than after they lapse.
  const watching = watchMailboxes({
    ...options,
    pollMs: config.pollMs,
    leaseSeconds: config.leaseSeconds,
    bankPassKey: host.bankPassKey,
    bootstrap: settings,
    soleWorker: host.embedded,
  });
  const rounds = watchAlerts({
    db: host.db,
    settings: config.alerts,
    bankPassKey: host.bankPassKey,
    clockTimeZone: config.clockTimeZone,
    log,
    signal: controller.signal,
  });
  const nights = watchRetention({
    db: host.db,
    policy: config.retention,
    hour: config.retention.hour,
    clockTimeZone: config.clockTimeZone,
    log,
    signal: controller.signal,
  });
  return {
    async stop() {
      controller.abort();
      await Promise.all([watching, rounds, nights]);
    },
    async processQueued() {
      const summary = await processStored(options);
      if (summary.processed) log.info(summary.toText());
    },
  };
}
