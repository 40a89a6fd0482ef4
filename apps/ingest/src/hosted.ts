// The ingester hosted inside another process on the same database handle: `pnpm start` runs it in
// the API process when IMAP_* is set, since the embedded database can be opened by one process only.
// (The API loads this module by path, from EJDESK_HOSTED_WORKER, so it does not depend on it.)
import { loadIngestRules, type Db } from '@ejdesk/db';
import { createLogger } from './log.ts';
import { watchImap } from './run.ts';
import { imapSettingsFromEnv, mailboxName } from './sources/imap.ts';

export async function start(host: { db: Db; bankPassKey: Buffer }): Promise<() => Promise<void>> {
  const settings = imapSettingsFromEnv();
  if (!settings) return async () => undefined;
  const log = createLogger();
  const controller = new AbortController();
  log.info(`watching ${mailboxName(settings)} beside the API`);
  const watching = watchImap(settings, {
    db: host.db,
    loadRules: () => loadIngestRules(host.db, host.bankPassKey),
    log,
    lanes: 1,
    signal: controller.signal,
  });
  return async () => {
    controller.abort();
    await watching;
  };
}
