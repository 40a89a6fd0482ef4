// @ejdesk/journal: reads an ATM's electronic journal (EJ) and says what happened to each
// withdrawal's cash, with the lines that show it. Pure parsing: no database, no network.
import { chunksOf, LineSplitter, type Line } from './decode.ts';
import { JournalReader } from './engine.ts';
import { families } from './families/index.ts';
import type { Family } from './families/family.ts';
import type { ParsedJournal } from './types.ts';

export * from './types.ts';
export { decodeJournal } from './decode.ts';
export { families } from './families/index.ts';
export type { EventKind, Family, LinePattern } from './families/family.ts';

/** How many of a journal's first lines are read to recognise its family. */
const detectLines = 2000;
/**
 * A family that leads clearly in the first lines (three identifying lines at least, two more than
 * any other family) is taken without reading the rest of the 2,000: a day's journal is about that
 * long, and searching all of it for every family's lines cost a fifth of its parse.
 */
const quickLines = 250;
const quickScore = 3;
const quickLead = 2;

/**
 * Each identifying pattern also as one search over all the first lines at once (multiline): most of
 * a journal's patterns are another family's, and one search of the joined text rules each of those
 * out at a fraction of a test per line. Only a pattern the text matches is tested line by line,
 * which decides exactly as before (a match within one line).
 */
const wholeText = new Map<RegExp, RegExp>(
  families.flatMap((f) => f.detect.map((re): [RegExp, RegExp] => [re, new RegExp(re.source, `${re.flags.replace(/[gy]/g, '')}m`)])),
);

function scores(lines: readonly string[]): { family: Family; score: number }[] {
  const text = lines.join('\n');
  const found = (re: RegExp) => wholeText.get(re)!.test(text) && lines.some((line) => re.test(line));
  return families.map((family) => ({ family, score: family.detect.filter(found).length }));
}

/** The family with the most identifying lines (the first listed on a tie), and its lead over the next. */
function leader(lines: readonly string[]): { family: Family; score: number; lead: number } {
  const ranked = scores(lines).sort((x, y) => y.score - x.score);
  return { family: ranked[0]!.family, score: ranked[0]!.score, lead: ranked[0]!.score - (ranked[1]?.score ?? 0) };
}

function best(lines: readonly string[]): Family | null {
  if (lines.length > quickLines) {
    const quick = leader(lines.slice(0, quickLines));
    if (quick.score >= quickScore && quick.lead >= quickLead) return quick.family;
  }
  const top = leader(lines);
  // Two different identifying lines at least: one word in prose is not a journal.
  return top.score >= 2 ? top.family : null;
}

/** The family whose identifying lines the journal's first lines match best; null when none does. */
export function detectFamily(firstLines: string[]): string | null {
  return best(firstLines.slice(0, detectLines))?.name ?? null;
}

/**
 * Reads a journal (whole, or streamed in chunks) into its transactions, verdicts, cassette counts and
 * anomalies. Null when the content is not a journal of any family: it is recognised by content,
 * never by its name (the name only fills in an ATM ID and a day the journal does not print).
 */
export async function parseJournal(source: Uint8Array | AsyncIterable<Uint8Array>, options: { fileName?: string } = {}): Promise<ParsedJournal | null> {
  const splitter = new LineSplitter();
  let head: Line[] | null = [];
  let reader: JournalReader | null = null;
  /** Recognises the family from the first lines; after that, lines go straight to the reader. */
  const decide = (): boolean => {
    const family = best(head!.map((l) => l.text));
    if (!family) return false;
    const r = new JournalReader(family, options.fileName);
    for (const line of head!) r.line(line.no, line.text);
    head = null;
    reader = r;
    splitter.sink = (no, text) => r.line(no, text);
    return true;
  };
  for await (const chunk of chunksOf(source)) {
    splitter.push(chunk, head ?? undefined);
    if (head && head.length >= detectLines && !decide()) return null;
  }
  splitter.end(head ?? undefined);
  if (head && !decide()) return null;
  return (reader as JournalReader | null)?.finish() ?? null;
}
