// A journal's file and its lines, read from its pages: the whole file (byte-exact), or a range of
// lines decoded as the parser decodes them, inflating only the pages that hold them.
import { sql } from 'drizzle-orm';
import { decodeJournal } from '@ejdesk/journal';
import { type Db, queryRows } from '../client.ts';
import { RuleProblem } from '../refusals.ts';
import { decodablePage, inflatePage, type PagedCharset } from './pages.ts';

/** The most lines one read returns. */
export const maxLinesRead = 5000;

export interface JournalLine {
  no: number;
  text: string;
}

/** The journal's file as received (its pages inflated and joined), or null when there is no such journal. */
export async function journalBytes(db: Db, journalId: number): Promise<Buffer | null> {
  const pages = await queryRows<{ data: Buffer | Uint8Array }>(db, sql`select data from journal_pages where journal_id = ${journalId} order by first_line`);
  if (pages.length === 0) {
    const [known] = await queryRows<{ id: number }>(db, sql`select id from journals where id = ${journalId}`);
    return known ? Buffer.alloc(0) : null;
  }
  return Buffer.concat(pages.map((p) => inflatePage(p.data)));
}

/**
 * Lines `from` to `to` (1-based, inclusive) of a journal, at most maxLinesRead of them, with the
 * journal's line count; null when there is no such journal. A range past the end gives fewer lines;
 * a range that is not one (not whole numbers, from below 1, to before from) is a RuleProblem.
 */
export async function journalLines(
  db: Db,
  journalId: number,
  from: number,
  to: number,
): Promise<{ from: number; to: number; total: number; lines: JournalLine[] } | null> {
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from < 1 || to < from)
    throw new RuleProblem('from and to must be line numbers, from 1, with to not before from');
  const [journal] = await queryRows<{ line_count: number; charset: PagedCharset }>(db, sql`select line_count, charset from journals where id = ${journalId}`);
  if (!journal) return null;
  const first = from;
  const last = Math.min(to, first + maxLinesRead - 1, journal.line_count);
  if (last < first) return { from: first, to: first - 1, total: journal.line_count, lines: [] };
  return { from: first, to: last, total: journal.line_count, lines: await readRange(db, journalId, journal.charset, first, last) };
}

/** The lines of the range, from the pages that hold them (each page decoded alone). */
export async function readRange(db: Db, journalId: number, charset: PagedCharset, from: number, to: number): Promise<JournalLine[]> {
  const pages = await queryRows<{ first_line: number; data: Buffer | Uint8Array }>(
    db,
    sql`select first_line, data from journal_pages
        where journal_id = ${journalId} and first_line <= ${to}
          and first_line >= coalesce((select max(first_line) from journal_pages where journal_id = ${journalId} and first_line <= ${from}), 1)
        order by first_line`,
  );
  const lines: JournalLine[] = [];
  for (const page of pages) {
    const text = decodeJournal(decodablePage(inflatePage(page.data), page.first_line, charset));
    const pageLines = text.split('\n');
    for (let i = 0; i < pageLines.length; i++) {
      const no = page.first_line + i;
      if (no >= from && no <= to) lines.push({ no, text: pageLines[i]! });
    }
  }
  return lines;
}
