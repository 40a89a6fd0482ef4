// What the journal says of a dispute: its matched transaction's verdict and amounts, the journal,
// the transaction's lines (the evidence marked), its neighbours and the nearest cassette counts;
// and the verdicts of a page of EJ records.
import { sql } from 'drizzle-orm';
import { type Db, namedRows, queryRows } from '../client.ts';
import { type DisputeTarget, pickedDisputes } from '../disputes/index.ts';
import { type JournalLine, readRange } from './lines.ts';
import { transactionFields, type JournalTransactionRow } from './lists.ts';
import type { PagedCharset } from './pages.ts';
import type { EvidenceMatch } from './schema.ts';

export interface ExcerptLine {
  /** The journal the line is in: the continuation's, for the lines of a transaction's second file. */
  journal_id: number;
  no: number;
  text: string;
  evidence: boolean;
}

export interface NeighbourTransaction {
  id: number;
  seq: number;
  kind: string;
  at: string | null;
  verdict: string | null;
  requested_amount: string | null;
  dispensed_amount: string | null;
  lines: { from: number; to: number };
  excerpt: ExcerptLine[];
}

export interface DisputeEvidence {
  verdict: string | null;
  match: EvidenceMatch;
  /** How many journal transactions fitted (more than one: ambiguous). */
  candidates: number;
  requested_amount: string | null;
  dispensed_amount: string | null;
  reason: string | null;
  at: string | null;
  matched_at: string;
  transaction_id: number | null;
  journal: { id: number; file_name: string; atm_id: string | null; day: string | null; sha256: string } | null;
  lines: { from: number; to: number } | null;
  /** The rest of a transaction cut between two files: the second file and its lines. */
  continuation: { journal: { id: number; file_name: string; sha256: string }; lines: { from: number; to: number } } | null;
  excerpt: ExcerptLine[];
  before: NeighbourTransaction[];
  after: NeighbourTransaction[];
  counters: { line: number; at: string | null; cassettes: unknown[] } | null;
}

/** Transactions either side of the matched one. */
const NEIGHBOURS = 3;

interface JournalInfo {
  id: number;
  file_name: string;
  atm_id: string | null;
  day: string | null;
  sha256: string;
  charset: PagedCharset;
}

const journalInfo = (db: Db, id: number) =>
  queryRows<JournalInfo>(db, sql`select id::float8 as id, file_name, atm_id, day::text as day, sha256, charset from journals where id = ${id}`).then(
    (r) => r[0] ?? null,
  );

const marked = (journalId: number, lines: JournalLine[], evidence: number[] | null): ExcerptLine[] =>
  lines.map((l) => ({ journal_id: journalId, no: l.no, text: l.text, evidence: (evidence ?? []).includes(l.no) }));

/**
 * The evidence of a dispute; null when no journal has spoken of it yet. An ambiguous match, or a
 * journal of the day without the transaction ('none'), has no transaction: no journal, lines or excerpt.
 */
export async function disputeEvidence(db: Db, disputeId: number): Promise<DisputeEvidence | null> {
  const [row] = await queryRows<
    {
      match: EvidenceMatch;
      candidates: number;
      verdict: string | null;
      dispensed_amount: string | null;
      matched_at: string;
      journal_id: number | null;
    } & Partial<JournalTransactionRow>
  >(
    db,
    sql`select e.match, e.candidates, e.verdict, e.dispensed_amount::text as dispensed_amount, e.matched_at::text as matched_at,
               t.journal_id::float8 as journal_id, ${transactionFields}
        from dispute_evidence e left join journal_transactions t on t.id = e.transaction_id
        where e.dispute_id = ${disputeId}`,
  );
  if (!row) return null;
  const empty: DisputeEvidence = {
    verdict: row.verdict,
    match: row.match,
    candidates: row.candidates,
    requested_amount: null,
    dispensed_amount: row.dispensed_amount,
    reason: null,
    at: null,
    matched_at: row.matched_at,
    transaction_id: null,
    journal: null,
    lines: null,
    continuation: null,
    excerpt: [],
    before: [],
    after: [],
    counters: null,
  };
  if (row.journal_id === null || row.id === null || row.id === undefined) return empty;
  const t = row as JournalTransactionRow & { journal_id: number };
  const journal = await journalInfo(db, t.journal_id);
  if (!journal) return empty;
  const neighbours = await queryRows<JournalTransactionRow>(
    db,
    sql`select ${transactionFields} from journal_transactions t
        where t.journal_id = ${t.journal_id} and t.seq between ${t.seq - NEIGHBOURS} and ${t.seq + NEIGHBOURS} and t.seq <> ${t.seq}
        order by t.seq`,
  );
  // One read of the lines from the first neighbour's to the last's (the pages holding them).
  const from = Math.min(t.line_from, ...neighbours.map((n) => n.line_from));
  const to = Math.max(t.line_to, ...neighbours.map((n) => n.line_to));
  const lines = await readRange(db, t.journal_id, journal.charset, from, to);
  const within = (a: number, b: number) => lines.filter((l) => l.no >= a && l.no <= b);
  let continuation: DisputeEvidence['continuation'] = null;
  let rest: ExcerptLine[] = [];
  if (t.continuation_journal_id !== null && t.continuation_line_from !== null && t.continuation_line_to !== null) {
    const second = await journalInfo(db, t.continuation_journal_id);
    if (second) {
      continuation = {
        journal: { id: second.id, file_name: second.file_name, sha256: second.sha256 },
        lines: { from: t.continuation_line_from, to: t.continuation_line_to },
      };
      rest = marked(second.id, await readRange(db, second.id, second.charset, t.continuation_line_from, t.continuation_line_to), t.continuation_evidence);
    }
  }
  const neighbour = (n: JournalTransactionRow): NeighbourTransaction => ({
    id: n.id,
    seq: n.seq,
    kind: n.kind,
    at: n.at,
    verdict: n.verdict,
    requested_amount: n.requested_amount,
    dispensed_amount: n.dispensed_amount,
    lines: { from: n.line_from, to: n.line_to },
    excerpt: marked(journal.id, within(n.line_from, n.line_to), n.evidence),
  });
  const [counters] = await queryRows<DisputeEvidence['counters'] & object>(
    db,
    sql`select line, to_char(at, 'YYYY-MM-DD"T"HH24:MI:SS') as at, cassettes from journal_counters
        where journal_id = ${t.journal_id} order by abs(line - ${t.line_from}), line limit 1`,
  );
  return {
    ...empty,
    requested_amount: t.requested_amount ?? null,
    reason: t.reason ?? null,
    at: t.at ?? null,
    transaction_id: t.id,
    journal: { id: journal.id, file_name: journal.file_name, atm_id: journal.atm_id, day: journal.day, sha256: journal.sha256 },
    lines: { from: t.line_from, to: t.line_to },
    continuation,
    excerpt: [...marked(journal.id, within(t.line_from, t.line_to), t.evidence), ...rest],
    before: neighbours.filter((n) => n.seq < t.seq).map(neighbour),
    after: neighbours.filter((n) => n.seq > t.seq).map(neighbour),
    counters: counters ?? null,
  };
}

export interface RecordVerdict {
  verdict: string | null;
  dispensed_amount: string | null;
  match: EvidenceMatch;
}

/** Each record's evidence (through its dispute), for a page of the EJ table: by the records' ids. */
export async function verdictsOfRecords(db: Db, recordIds: number[]): Promise<Map<number, RecordVerdict>> {
  if (recordIds.length === 0) return new Map();
  const rows = await namedRows<RecordVerdict & { record_id: number }>(
    db,
    'verdicts_of_records',
    sql`select l.record_id::float8 as record_id, e.verdict, e.dispensed_amount::text as dispensed_amount, e.match
        from dispute_records l join dispute_evidence e on e.dispute_id = l.dispute_id
        where l.record_id = any(${sql.param(recordIds)}::bigint[])`,
  );
  return new Map(rows.map(({ record_id, ...v }) => [record_id, v]));
}

/**
 * The disputes of the target that have evidence, in id order: the ids alone (a million is 8 MB),
 * read once, so a ZIP of their packs follows one reading of the filters however long it streams.
 */
export async function disputesWithEvidence(db: Db, target: DisputeTarget): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select dispute_id::float8 as id from dispute_evidence where dispute_id in (${pickedDisputes(target)}) order by dispute_id`,
  );
  return rows.map((row) => row.id);
}
