// The nightly retention run (the worker's, and `pnpm archive run` by hand): next month's partition
// made ahead, then every month of EJ records past RETENTION_RECORD_MONTHS archived to
// RETENTION_ARCHIVE_DIR and dropped, oldest first; a month with an open dispute is kept, and the
// refusal audited. Without an archive folder and passphrase nothing is ever removed.
import { join } from 'node:path';
import { integer, text } from '@ejdesk/settings';
import { audit } from '../audit/index.ts';
import type { Db } from '../client.ts';
import { archiveRecordMonth, makeRecordPartitions, recordMonthsBefore, RetentionRefusal, type ArchivedMonth } from './archive.ts';

export const retentionSettings = {
  RETENTION_RECORD_MONTHS: integer({
    minimum: 1,
    maximum: 1200,
    default: 84,
    description:
      'How many months of EJ records (and their disputes) are kept, counted from the month they were received: an older month is archived to RETENTION_ARCHIVE_DIR and dropped each night, unless one of its disputes is still open.',
  }),
  RETENTION_ARCHIVE_DIR: text({
    description:
      'The folder the worker writes a month’s archive to before it drops the month (one sealed file each, ej-records-YYYY-MM.ejarchive); unset, nothing is archived or dropped.',
  }),
  ARCHIVE_PASSPHRASE: text({
    secret: true,
    pattern: '^.{12,}$',
    accepts: 'at least 12 characters',
    description:
      'The passphrase the archives are sealed with, and `pnpm archive restore` opens them with; required for retention to run. Keep it apart from the archives.',
  }),
  RETENTION_HOUR: integer({
    minimum: 0,
    maximum: 23,
    default: 2,
    description: 'From this hour (TAT_TIME_ZONE) the worker runs the night’s retention, once a day.',
  }),
};

export interface RetentionPolicy {
  months: number;
  archiveDir: string | undefined;
  passphrase: string | undefined;
}

/** The first instant of the UTC month `offset` months from `now`'s. */
const monthStart = (now: Date, offset: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));

export interface RetentionRun {
  archived: ArchivedMonth[];
  /** The months kept past their retention, and why. */
  kept: { month: string; why: string }[];
  /** Why nothing was archived, when retention is not set up. */
  off?: string;
}

/** One night's retention as of `now`. A month that fails for another reason than an open dispute stops the run (it is told). */
export async function applyRetention(db: Db, policy: RetentionPolicy, now: Date = new Date()): Promise<RetentionRun> {
  await makeRecordPartitions(db, [monthStart(now, 0), monthStart(now, 1)]);
  if (!policy.archiveDir || !policy.passphrase) {
    return { archived: [], kept: [], off: 'RETENTION_ARCHIVE_DIR and ARCHIVE_PASSPHRASE are not both set: nothing is archived or dropped' };
  }
  const run: RetentionRun = { archived: [], kept: [] };
  for (const { month } of await recordMonthsBefore(db, monthStart(now, -policy.months))) {
    try {
      const file = join(policy.archiveDir, `ej-records-${month}.ejarchive`);
      run.archived.push(await archiveRecordMonth(db, month, { file, passphrase: policy.passphrase, userId: null }));
    } catch (error) {
      if (!(error instanceof RetentionRefusal)) throw error;
      await audit(db, { userId: null, action: 'retention.kept', entity: 'ej_records', entityId: month, detail: error.message });
      run.kept.push({ month, why: error.message });
    }
  }
  return run;
}
