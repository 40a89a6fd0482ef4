// A day's journal in two files, cut anywhere: the transaction cut at the end of the first file and
// the one cut at the start of the second are one transaction. Both files are read again as one
// (the first's lines, then the second's), and the whole's verdict is kept on the first part, with
// the lines of each file in that file's own numbering.
import { sql } from 'drizzle-orm';
import { parseJournal } from '@ejdesk/journal';
import { type Db, queryRows } from '../client.ts';
import { journalBytes } from './lines.ts';

interface CutPart {
  journal_id: number;
  id: number;
  line_from: number;
  file_name: string;
  line_count: number;
}

interface FileInfo {
  journal_id: number;
  atm_id: string;
  day: string;
  first_at: string | null;
  /** Its first transaction, when the file begins inside it (it joins the first part's). */
  start_id: number | null;
}

/** The first part: a journal's last transaction cut at its end, not joined yet. */
const endCut = sql`t.cut = 'end' and t.continuation_journal_id is null and t.seq = (select max(seq) from journal_transactions x where x.journal_id = t.journal_id)`;
const partFields = sql`t.journal_id::float8 as journal_id, t.id::float8 as id, t.line_from, j.file_name, j.line_count`;
const fileFields = sql`j.id::float8 as journal_id, j.atm_id, j.day::text as day,
  (select min(at)::text from journal_transactions x where x.journal_id = j.id) as first_at,
  (select x.id::float8 from journal_transactions x where x.journal_id = j.id and x.cut = 'start' and x.joined_to is null order by x.seq limit 1) as start_id`;

/**
 * Join the journal to the ATM's neighbouring files where a transaction was cut between them: the
 * previous file's (the day before or the same day) last transaction cut at its end, continued in
 * this one; this one's last, continued in the next file. The ids of the other journals joined
 * (their disputes are matched again).
 */
export async function joinSplits(tx: Db, journalId: number): Promise<number[]> {
  const joined: number[] = [];
  const [self] = await queryRows<FileInfo>(
    tx,
    sql`select ${fileFields} from journals j where j.id = ${journalId} and j.atm_id is not null and j.day is not null`,
  );
  if (!self) return joined;
  // The latest earlier file of its ATM that ends mid-transaction, begun before this file's first.
  const [first] = await queryRows<CutPart>(
    tx,
    sql`select ${partFields} from journals j join journal_transactions t on t.journal_id = j.id
        where j.atm_id = ${self.atm_id} and j.day between ${self.day}::date - 1 and ${self.day}::date and j.id <> ${journalId}
          and ${endCut} and (t.at is null or ${self.first_at}::timestamp is null or t.at <= ${self.first_at}::timestamp)
        order by j.day desc, t.at desc nulls last, j.id desc limit 1`,
  );
  if (first && (await join(tx, first, self))) joined.push(first.journal_id);
  // This file ends mid-transaction: the earliest later file of its ATM with nothing before that transaction.
  const [cut] = await queryRows<CutPart & { at: string | null }>(
    tx,
    sql`select ${partFields}, t.at::text as at from journal_transactions t join journals j on j.id = t.journal_id
        where t.journal_id = ${journalId} and ${endCut}`,
  );
  if (cut) {
    const [next] = await queryRows<FileInfo>(
      tx,
      sql`select ${fileFields} from journals j
          where j.atm_id = ${self.atm_id} and j.day between ${self.day}::date and ${self.day}::date + 1 and j.id <> ${journalId}
            and (${cut.at}::timestamp is null or not exists (select 1 from journal_transactions x where x.journal_id = j.id and x.at < ${cut.at}::timestamp))
            and not exists (select 1 from journal_transactions x where x.continuation_journal_id = j.id)
          order by j.day, first_at nulls last, j.id limit 1`,
    );
    if (next && (await join(tx, cut, next))) joined.push(next.journal_id);
  }
  return joined;
}

/**
 * Read the two files as one and keep the whole transaction's verdict on the first part, when the
 * whole transaction reaches into the second file.
 */
async function join(tx: Db, first: CutPart, second: FileInfo): Promise<boolean> {
  const [a, b] = await Promise.all([journalBytes(tx, first.journal_id), journalBytes(tx, second.journal_id)]);
  if (!a || !b) return false;
  const endsLine = a.length === 0 || a[a.length - 1] === 0x0a || a[a.length - 1] === 0x0d;
  // The second file's BOM would be text in the middle of the first's.
  const bom = b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : (b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff) ? 2 : 0;
  const whole = Buffer.concat([a, endsLine ? Buffer.alloc(0) : Buffer.from('\n'), b.subarray(bom)]);
  const parsed = await parseJournal(whole, { fileName: first.file_name });
  const n = first.line_count;
  const t = parsed?.transactions.find((x) => x.lines.from <= first.line_from && x.lines.to >= first.line_from);
  if (!t || t.lines.to <= n || t.cut === 'end') return false;
  const own = t.evidence.filter((line) => line <= n);
  const theirs = t.evidence.filter((line) => line > n).map((line) => line - n);
  await tx.execute(sql`update journal_transactions set
      kind = ${t.kind}, verdict = ${t.verdict}, reason = ${t.reason}, dispensed_amount = ${t.dispensedAmount}::numeric,
      presented = ${t.presented ? sql`${sql.param(t.presented)}::int[]` : sql`presented`},
      response_code = coalesce(${t.responseCode}::text, response_code), requested_amount = coalesce(${t.requestedAmount}::numeric, requested_amount),
      rrn = coalesce(rrn, ${t.rrn}::text), stan = coalesce(stan, ${t.stan}::text), serial = coalesce(serial, ${t.serial}::text),
      card_last4 = coalesce(card_last4, ${t.cardLast4}::text), evidence = ${sql.param(own)}::int[],
      continuation_journal_id = ${second.journal_id}, continuation_line_from = ${Math.max(1, t.lines.from - n)},
      continuation_line_to = ${t.lines.to - n}, continuation_evidence = ${sql.param(theirs)}::int[]
    where id = ${first.id}`);
  if (second.start_id !== null) await tx.execute(sql`update journal_transactions set joined_to = ${first.id} where id = ${second.start_id}`);
  return true;
}
