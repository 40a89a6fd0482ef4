// Receiving a journal: parsed, stored once per distinct file (its pages, transactions, cassette
// counts), joined to the ATM's other part when a transaction was cut between two files, then
// matched to the disputes of its ATM and days.
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { parseJournal, type ParsedJournal } from '@ejdesk/journal';
import { type Db, queryRows } from '../client.ts';
import { matchDisputes, matchLock } from './match.ts';
import { charsetOf, deflatePage, splitPages } from './pages.ts';
import { joinSplits } from './splits.ts';
import { type JournalSource, journalPages } from './schema.ts';

export interface ReceivedJournal {
  id: number;
  sha256: string;
  file_name: string;
  atm_id: string | null;
  day: string | null;
  family: string;
  line_count: number;
  transactions: number;
  anomaly_kinds: string[];
  source: JournalSource;
}

export type ReceiveResult = { journal: ReceivedJournal; created: boolean } | { notJournal: string };

export interface ReceiveInput {
  bytes: Uint8Array;
  fileName: string;
  source: JournalSource;
  emailId?: number | null | undefined;
  uploadedBy?: number | null | undefined;
}

const journalFields = sql`id::float8 as id, sha256, file_name, atm_id, day::text as day, family, line_count, transactions, anomaly_kinds, source`;

/** Transactions per insert statement (one JSON parameter each). */
const TRANSACTION_BATCH = 2000;
/** Pages per insert statement: about 2 MB of deflated bytes. */
const PAGE_BATCH = 50;

async function existing(db: Db, sha256: string): Promise<ReceivedJournal | null> {
  const [row] = await queryRows<ReceivedJournal>(db, sql`select ${journalFields} from journals where sha256 = ${sha256}`);
  return row ?? null;
}

/**
 * Parse and store a journal. Null from the parser (not a journal of any family) stores nothing.
 * The same bytes again (by SHA-256) answer the journal stored first, however many arrive at once:
 * the row is inserted ON CONFLICT DO NOTHING, and a loser reads the winner's row once it commits.
 * The file, its transactions and counters, the join of a split and the disputes' evidence are
 * written in one transaction.
 */
export async function receiveJournal(db: Db, input: ReceiveInput): Promise<ReceiveResult> {
  const sha256 = createHash('sha256').update(input.bytes).digest('hex');
  const known = await existing(db, sha256);
  if (known) return { journal: known, created: false };
  const parsed = await parseJournal(input.bytes, { fileName: input.fileName });
  if (!parsed) return { notJournal: 'The file is not an ATM electronic journal of a known family (NCR, Diebold, Hyosung).' };
  return db.transaction(async (trx) => {
    const tx = trx as unknown as Db;
    const [made] = await queryRows<ReceivedJournal>(
      tx,
      sql`insert into journals (sha256, file_name, atm_id, day, family, line_count, unknown_lines, size_bytes, transactions,
            anomalies, anomaly_kinds, charset, source, email_id, uploaded_by)
          values (${sha256}, ${input.fileName}, ${parsed.atmId}, ${parsed.day}::date, ${parsed.family}, ${parsed.lineCount}, ${parsed.unknownLines},
            ${input.bytes.length}, ${parsed.transactions.length}, ${JSON.stringify(parsed.anomalies)}::jsonb,
            ${sql.param([...new Set(parsed.anomalies.map((a) => a.kind))].sort())}::text[], ${charsetOf(input.bytes)}::text, ${input.source},
            ${input.emailId ?? null}::bigint, ${input.uploadedBy ?? null}::int)
          on conflict (sha256) do nothing
          returning ${journalFields}`,
    );
    if (!made) {
      const winner = await existing(tx, sha256);
      if (!winner) throw new Error(`journal ${sha256} was neither inserted nor found`);
      return { journal: winner, created: false };
    }
    await storePages(tx, made.id, input.bytes);
    await storeTransactions(tx, made.id, parsed);
    if (parsed.counters.length)
      await tx.execute(sql`insert into journal_counters (journal_id, line, at, cassettes)
        select ${made.id}::bigint, c.line, c.at::timestamp, c.cassettes
        from jsonb_to_recordset(${JSON.stringify(parsed.counters)}::jsonb) as c(line int, at text, cassettes jsonb)
        on conflict do nothing`);
    // Joining and matching read other journals and the disputes: one at a time with the linking of
    // new complaints (the same lock), so a journal and a complaint arriving together find each other.
    await tx.execute(matchLock);
    const joined = await joinSplits(tx, made.id);
    await matchDisputes(tx, { journalIds: [made.id, ...joined] });
    return { journal: made, created: true };
  });
}

async function storePages(tx: Db, journalId: number, bytes: Uint8Array): Promise<void> {
  const pages = splitPages(bytes).map((p) => ({
    journalId,
    firstLine: p.firstLine,
    lineCount: p.lineCount,
    data: deflatePage(bytes.subarray(p.start, p.end)),
  }));
  for (let at = 0; at < pages.length; at += PAGE_BATCH) await tx.insert(journalPages).values(pages.slice(at, at + PAGE_BATCH));
}

/** The journal's transactions as rows: each one's ATM and day default to the journal's. */
async function storeTransactions(tx: Db, journalId: number, parsed: ParsedJournal): Promise<void> {
  const rows = parsed.transactions.map((t) => ({
    seq: t.seq,
    kind: t.kind,
    atm_id: t.atmId ?? parsed.atmId,
    at: t.at,
    day: t.at ? t.at.slice(0, 10) : parsed.day,
    card_last4: t.cardLast4,
    rrn: t.rrn,
    stan: t.stan,
    serial: t.serial,
    response_code: t.responseCode,
    requested_amount: t.requestedAmount,
    presented: t.presented,
    dispensed_amount: t.dispensedAmount,
    verdict: t.verdict,
    reason: t.reason,
    line_from: t.lines.from,
    line_to: t.lines.to,
    evidence: t.evidence,
    cut: t.cut,
  }));
  for (let at = 0; at < rows.length; at += TRANSACTION_BATCH) {
    await tx.execute(sql`insert into journal_transactions (journal_id, seq, kind, atm_id, at, day, card_last4, rrn, stan, serial, response_code,
        requested_amount, presented, dispensed_amount, verdict, reason, line_from, line_to, evidence, cut)
      select ${journalId}::bigint, seq, kind, atm_id, at::timestamp, day::date, card_last4, rrn, stan, serial, response_code,
        requested_amount::numeric,
        case when jsonb_typeof(presented) = 'array' then array(select jsonb_array_elements_text(presented)::int) end, dispensed_amount::numeric, verdict, reason,
        line_from, line_to, array(select jsonb_array_elements_text(evidence)::int), cut
      from jsonb_to_recordset(${JSON.stringify(rows.slice(at, at + TRANSACTION_BATCH))}::jsonb) as r(seq int, kind text, atm_id text, at text,
        day text, card_last4 text, rrn text, stan text, serial text, response_code text, requested_amount text, presented jsonb,
        dispensed_amount text, verdict text, reason text, line_from int, line_to int, evidence jsonb, cut text)`);
  }
}
