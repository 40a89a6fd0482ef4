// The worker's night: once a day, within RETENTION_HOUR in the clock's time zone, the retention run
// (@ejdesk/db applyRetention: next month's partitions made, the months past their retention archived
// and dropped). Every worker checks each quarter hour; two at once take turns on the database's
// lock, and the second finds nothing left to do. Only within that hour: a worker restarted at noon
// waits for the night, and a failed run is tried again within the hour, then the next night.
import { applyRetention, dayIn, type Db, type RetentionPolicy } from '@ejdesk/db';
import type { Logger } from './log.ts';

interface RetentionOptions {
  db: Db;
  policy: RetentionPolicy;
  hour: number;
  clockTimeZone: string;
  log: Logger;
  signal?: AbortSignal;
  /** How often the hour is looked at (tests shorten it). */
  checkMs?: number;
}

/** The hour of an instant in a time zone (0-23). */
const hourIn = (timeZone: string, instant: Date) => Number(new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' }).format(instant));

/** Run the night's retention once a day until stopped. */
export async function watchRetention(options: RetentionOptions): Promise<void> {
  const { log } = options;
  let lastDay: string | null = null;
  while (!options.signal?.aborted) {
    const now = new Date();
    const today = dayIn(options.clockTimeZone, now);
    if (today !== lastDay && hourIn(options.clockTimeZone, now) === options.hour) {
      try {
        const run = await applyRetention(options.db, options.policy, now);
        lastDay = today;
        if (run.off) log.info(`retention: ${run.off}`);
        for (const m of run.archived)
          log.info(`retention: ${m.kind} of ${m.month} archived to ${m.file} (${m.tables.map((t) => `${t.rows} ${t.name}`).join(', ')}) and dropped`);
        for (const k of run.kept) log.warn(`retention: ${k.why}`);
      } catch (error) {
        log.warn(`retention: ${error instanceof Error ? error.message : String(error)}; trying again at the next check`);
      }
    }
    await new Promise<void>((resolve) => {
      // One listener at a time: each wait removes its own (a worker runs for months).
      const stop = () => (clearTimeout(timer), resolve());
      const timer = setTimeout(() => (options.signal?.removeEventListener('abort', stop), resolve()), options.checkMs ?? 15 * 60_000);
      options.signal?.addEventListener('abort', stop, { once: true });
    });
  }
}
