// The nightly retention run (the worker's, and `pnpm archive run` by hand): next month's partitions
// made ahead, then every month of each kind past its retention (EJ records, journals, ignored mail)
// archived to RETENTION_ARCHIVE_DIR and dropped, oldest first; a month a dispute still open rests
// on is kept, and the refusal audited. Without an archive folder and passphrase nothing is removed.
import { join } from 'node:path';
import { integer, text } from '@ejdesk/settings';
import { sql } from 'drizzle-orm';
import { audit } from '../audit/index.ts';
import type { Db } from '../client.ts';
import { archiveMonth, makeMonthPartitions, monthsBefore, RetentionRefusal, type ArchivedMonth, type RetentionKind } from './archive.ts';

export const retentionSettings = {
  RETENTION_RECORD_MONTHS: integer({
    minimum: 1,
    maximum: 1200,
    default: 84,
    description:
      'How many months of EJ records (and their disputes) are kept, counted from the month they were received: an older month is archived to RETENTION_ARCHIVE_DIR and dropped each night, unless one of its disputes is still open.',
  }),
  RETENTION_JOURNAL_MONTHS: integer({
    minimum: 1,
    maximum: 1200,
    default: 24,
    description:
      'How many months of journals (their files, transactions and counters) are kept, counted from the month they were received; an older month is archived and dropped each night, unless a dispute still open rests on one of its transactions.',
  }),
  RETENTION_IGNORED_MAIL_MONTHS: integer({
    minimum: 1,
    maximum: 1200,
    default: 12,
    description: 'How many months of ignored mail (and its raw messages) are kept; an older month is archived and dropped each night.',
  }),
  RETENTION_ARCHIVE_DIR: text({
    description:
      'The folder the worker writes a month’s archive to before it drops the month (one sealed file per kind and month, e.g. ej-records-2019-01.ejarchive); unset, nothing is archived or dropped.',
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
    description: 'The hour (TAT_TIME_ZONE) within which the worker runs the night’s retention, once a day; a worker not running then skips that day.',
  }),
};

export interface RetentionPolicy {
  /** How many months of each kind are kept. */
  months: Record<RetentionKind, number>;
  archiveDir: string | undefined;
  passphrase: string | undefined;
}

/** The first instant of the UTC month `offset` months from `now`'s. */
const monthStart = (now: Date, offset: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));

export interface RetentionRun {
  archived: ArchivedMonth[];
  /** The months kept past their retention, and why. */
  kept: { kind: RetentionKind; month: string; why: string }[];
  /** Why nothing was archived, when retention is not set up. */
  off?: string;
}

/** Each kind's months from the settings. */
export const retentionMonths = (s: {
  RETENTION_RECORD_MONTHS: number;
  RETENTION_JOURNAL_MONTHS: number;
  RETENTION_IGNORED_MAIL_MONTHS: number;
}): Record<RetentionKind, number> => ({
  'ej-records': s.RETENTION_RECORD_MONTHS,
  journals: s.RETENTION_JOURNAL_MONTHS,
  'ignored-mail': s.RETENTION_IGNORED_MAIL_MONTHS,
});

/** One night's retention as of `now`. A month that fails for another reason than an open dispute stops the run (it is told). */
export async function applyRetention(db: Db, policy: RetentionPolicy, now: Date = new Date()): Promise<RetentionRun> {
  await makeMonthPartitions(db, [monthStart(now, 0), monthStart(now, 1)]);
  if (!policy.archiveDir || !policy.passphrase) {
    return { archived: [], kept: [], off: 'RETENTION_ARCHIVE_DIR and ARCHIVE_PASSPHRASE are not both set: nothing is archived or dropped' };
  }
  const run: RetentionRun = { archived: [], kept: [] };
  for (const kind of Object.keys(policy.months) as RetentionKind[]) {
    const keepFrom = monthStart(now, -policy.months[kind]);
    for (const { month } of await monthsBefore(db, kind, keepFrom)) {
      try {
        const file = join(policy.archiveDir, `${kind}-${month}.ejarchive`);
        // Null: another worker archived it first.
        const archived = await archiveMonth(db, kind, month, { file, passphrase: policy.passphrase, userId: null, keepFrom });
        if (archived) run.archived.push(archived);
      } catch (error) {
        if (!(error instanceof RetentionRefusal)) throw error;
        await audit(db, { userId: null, action: 'retention.kept', entity: kind, entityId: month, detail: error.message });
        run.kept.push({ kind, month, why: error.message });
      }
    }
  }
  // The planner's statistics of the tables stored by month: autovacuum analyzes their partitions, never the tables themselves.
  await db.execute(sql`analyze ej_records, journal_transactions`);
  return run;
}
