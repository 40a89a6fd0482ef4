// The queue as a worker process serves it (`pnpm worker`): processed as soon as the database says
// something changed (an admin's Reprocess puts an email back and notifies, as stored mail does),
// and swept every minute for what a worker that died mid-message left behind. The API's hosted
// ingester needs none of this: the API calls it directly.
import { mailChannel, type Database } from '@ejdesk/db';
import { reasonOf } from '@ejdesk/mailbox';
import { processStored, type RunOptions } from './run.ts';

export async function serveQueue(database: Database, options: RunOptions & { sweepMs?: number }): Promise<void> {
  const { log, signal } = options;
  let asked = true;
  let wake = () => undefined as void;
  const unlisten = await database.listen(
    mailChannel,
    () => {
      asked = true;
      wake();
    },
    (err) => log.warn(`the queue's notifications were lost (${reasonOf(err)}); the minute's sweep still runs`),
  );
  try {
    while (!signal?.aborted) {
      if (asked) {
        asked = false;
        try {
          const summary = await processStored(options);
          if (summary.processed) log.info(summary.toText());
        } catch (err) {
          log.warn(`the queue could not be processed (${reasonOf(err)}); trying again`);
        }
        continue;
      }
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          wake = () => undefined;
          resolve();
        };
        const timer = setTimeout(() => ((asked = true), done()), options.sweepMs ?? 60_000);
        wake = done;
        signal?.addEventListener('abort', done, { once: true });
      });
    }
  } finally {
    await unlisten().catch(() => undefined);
  }
}
