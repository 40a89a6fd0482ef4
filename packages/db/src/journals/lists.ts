// The journals received (a page of them, filtered) and one journal with its transactions.
import { and, eq, gte, lte, or, sql, type SQL } from 'drizzle-orm';
import { type Db, queryRows } from '../client.ts';
import { type Counting, countRows } from '../counts/index.ts';
import { containsText, type Page, type PageOf } from '../filters.ts';
import { journals } from './schema.ts';

export interface JournalFilters {
  atmId?: string | undefined;
  /** One day, or a range of days (YYYY-MM-DD), of the journal's first day. */
  day?: string | undefined;
  dayFrom?: string | undefined;
  dayTo?: string | undefined;
  /** Journals showing this kind of anomaly (dispense_failure, retract, restart, cut, contradiction, gap). */
  anomaly?: string | undefined;
  family?: string | undefined;
  /** How the count reads the journals (counts/counts.ts): the list's bound unless given. */
  counting?: Counting | undefined;
}

export interface JournalRow {
  id: number;
  sha256: string;
  file_name: string;
  atm_id: string | null;
  day: string | null;
  family: string;
  line_count: number;
  unknown_lines: number;
  size_bytes: number;
  transactions: number;
  anomaly_count: number;
  anomaly_kinds: string[];
  source: string;
  email_id: number | null;
  uploaded_by: number | null;
  create_at: string;
}

const rowFields = sql`id::float8 as id, sha256, file_name, atm_id, day::text as day, family, line_count, unknown_lines, size_bytes::float8 as size_bytes,
  transactions, jsonb_array_length(anomalies) as anomaly_count, anomaly_kinds, source, email_id::float8 as email_id, uploaded_by, create_at`;

function journalConditions(f: JournalFilters): SQL | undefined {
  return and(
    f.atmId ? or(eq(journals.atmId, f.atmId), containsText(journals.atmId, f.atmId)) : undefined,
    f.day ? eq(journals.day, f.day) : undefined,
    f.dayFrom ? gte(journals.day, f.dayFrom) : undefined,
    f.dayTo ? lte(journals.day, f.dayTo) : undefined,
    f.anomaly ? sql`${journals.anomalyKinds} @> array[${f.anomaly}]::text[]` : undefined,
    f.family ? eq(journals.family, f.family) : undefined,
  );
}

/** A page of journals, the latest day first (then the latest received), with the filter's count. */
export async function listJournals(db: Db, query: Page & JournalFilters): Promise<PageOf<JournalRow>> {
  const where = journalConditions(query);
  const whereSql = where ? sql`where ${where}` : sql``;
  const { n: count, exact } = await countRows(db, sql`${journals}`, where, ['journals'], query.counting);
  if (count === 0) return { count, rows: [] };
  const rows = await queryRows<JournalRow>(
    db,
    // Ordered by the columns (qualified): bare day and id would name the output's text and float8
    // casts, which no index holds, and sort every journal to find the first page.
    sql`select ${rowFields} from journals ${whereSql} order by journals.day desc, journals.id desc
        limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}`,
  );
  return { count, exact, rows };
}

export interface JournalTransactionRow {
  id: number;
  seq: number;
  kind: string;
  atm_id: string | null;
  at: string | null;
  day: string | null;
  card_last4: string | null;
  rrn: string | null;
  stan: string | null;
  serial: string | null;
  response_code: string | null;
  requested_amount: string | null;
  presented: number[] | null;
  dispensed_amount: string | null;
  verdict: string | null;
  reason: string;
  line_from: number;
  line_to: number;
  evidence: number[];
  cut: 'start' | 'end' | null;
  continuation_journal_id: number | null;
  continuation_line_from: number | null;
  continuation_line_to: number | null;
  continuation_evidence: number[] | null;
  joined_to: number | null;
}

export const transactionFields = sql`t.id::float8 as id, t.seq, t.kind, t.atm_id, to_char(t.at, 'YYYY-MM-DD"T"HH24:MI:SS') as at, t.day::text as day,
  t.card_last4, t.rrn, t.stan, t.serial, t.response_code, t.requested_amount::text as requested_amount, t.presented,
  t.dispensed_amount::text as dispensed_amount, t.verdict, t.reason, t.line_from, t.line_to, t.evidence, t.cut,
  t.continuation_journal_id::float8 as continuation_journal_id, t.continuation_line_from, t.continuation_line_to, t.continuation_evidence,
  t.joined_to::float8 as joined_to`;

export interface JournalDetail {
  journal: JournalRow & { anomalies: { line: number; kind: string; text: string }[] };
  transactions: JournalTransactionRow[];
  counters: { line: number; at: string | null; cassettes: unknown[] }[];
}

/** A journal with its anomalies, transactions (in order) and cassette counts; null when there is none. */
export async function journalDetail(db: Db, id: number): Promise<JournalDetail | null> {
  const [journal] = await queryRows<JournalDetail['journal']>(db, sql`select ${rowFields}, anomalies from journals where id = ${id}`);
  if (!journal) return null;
  const [transactions, counters] = await Promise.all([
    queryRows<JournalTransactionRow>(db, sql`select ${transactionFields} from journal_transactions t where t.journal_id = ${id} order by t.seq`),
    queryRows<JournalDetail['counters'][number]>(
      db,
      sql`select line, to_char(at, 'YYYY-MM-DD"T"HH24:MI:SS') as at, cassettes from journal_counters where journal_id = ${id} order by line`,
    ),
  ]);
  return { journal, transactions, counters };
}
