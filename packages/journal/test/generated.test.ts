// Journals this package did not write: tools/journal-gen/ejgen.py makes them from public descriptions
// of the three families, with the verdict of every withdrawal decided before its lines were printed
// (manifest.json). Every withdrawal's verdict, amounts, line range and ids are compared.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeJournal, parseJournal, type JournalTransaction, type ParsedJournal } from '../src/index.ts';

const generator = join(import.meta.dirname, '../../../tools/journal-gen/ejgen.py');
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

interface Segment {
  file: string;
  lines: [number, number];
}
interface Withdrawal {
  id: string;
  kind: 'withdrawal' | 'declined';
  verdict: string | null;
  scenario: string;
  local_time: string;
  card_last4: string;
  rrn: string;
  stan: string;
  serial: string;
  requested_amount: string;
  dispensed_amount: string | null;
  shown: string[];
  segments: Segment[];
}
interface Manifest {
  files: { name: string; atm_id: string; day: string; part: 1 | 2 | null }[];
  withdrawals: Withdrawal[];
  splits: { journal: string; parts: [string, string] }[];
}

function generate(args: string[]): { dir: string; manifest: Manifest } {
  const dir = mkdtempSync(join(tmpdir(), 'ejdesk-journal-gen-'));
  dirs.push(dir);
  execFileSync('python3', [generator, '--out', dir, ...args], { stdio: 'pipe' });
  return { dir, manifest: JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest };
}

/** A journal as the desk would read it: a split's two parts are one journal, numbered on from part 1. */
interface Read {
  parsed: ParsedJournal;
  lines: string[];
  /** A file's line number in `parsed`. */
  offset: Map<string, number>;
}

async function readAll(dir: string, manifest: Manifest): Promise<Map<string, Read>> {
  const reads = new Map<string, Read>();
  const partOf = new Map(manifest.splits.flatMap((s) => s.parts.map((p) => [p, s] as const)));
  for (const file of manifest.files) {
    if (file.part === 2) continue;
    const split = partOf.get(file.name);
    const names = split ? split.parts : [file.name];
    const bytes = Buffer.concat(names.map((n) => readFileSync(join(dir, n))));
    const parsed = await parseJournal(bytes, { fileName: file.name });
    if (!parsed) throw new Error(`${file.name}: not read as a journal`);
    const lines = decodeJournal(bytes).split('\n');
    const offset = new Map<string, number>([[names[0]!, 0]]);
    if (names[1]) offset.set(names[1], decodeJournal(readFileSync(join(dir, names[0]!))).split('\n').length);
    const read = { parsed, lines, offset };
    for (const n of names) reads.set(n, read);
    // The journal's own ATM and day, whatever its file name says.
    expect([file.name, parsed.atmId, parsed.day]).toEqual([file.name, file.atm_id, file.day]);
  }
  return reads;
}

// The generator counts an NCR sequence header and `*PRIMARY CARD READER ACTIVATED*` printed after
// TRANSACTION END as the transaction's last lines; the parser ends a transaction at its end line (the
// public samples print that block between transactions, or with the next one).
const betweenTransactions = new RegExp(
  String.raw`^[\s\x1b]*(?:\[\d{2,3}[a-z])?(?:\*\d+\*\d\d\/\d\d\/\d{4}\*[\d:]+\*|\s*\*PRIMARY CARD READER ACTIVATED\*)\s*$|^\s*$`,
);

/** Numbers the journal prints in more than one form (TXN SN NO=317, TXN NO : 0317) compare by value. */
const sameNumber = (a: string | null, b: string | null) => (a === null || b === null ? a === b : a.replace(/^0+/, '') === b.replace(/^0+/, ''));

function differences(w: Withdrawal, read: Read): string[] {
  const seg = w.segments[0]!;
  const base = read.offset.get(seg.file)!;
  const [from, to] = [seg.lines[0] + base, (w.segments.at(-1)!.lines[1] ?? 0) + read.offset.get(w.segments.at(-1)!.file)!];
  const t: JournalTransaction | undefined = read.parsed.transactions.find((x) => x.kind !== 'other' && x.lines.from <= to && x.lines.to >= from);
  if (!t) return [`${w.id}: no transaction at lines ${from}-${to}`];
  const out: string[] = [];
  const check = (what: string, want: unknown, got: unknown, same = want === got) => {
    if (!same) out.push(`${w.id} (${w.scenario}) ${what}: want ${String(want)}, got ${String(got)}`);
  };
  check('kind', w.kind, t.kind);
  check('verdict', w.verdict, t.verdict);
  check('requested', w.requested_amount, t.requestedAmount);
  check('dispensed', w.dispensed_amount, t.dispensedAmount);
  check('from', from, t.lines.from);
  const tail = read.lines.slice(t.lines.to, to);
  check('to', to, t.lines.to, t.lines.to === to || (t.lines.to < to && tail.every((l) => betweenTransactions.test(l))));
  // The session's first line prints minutes only on some terminals: compared to the minute.
  check('at', w.local_time.slice(0, 16), t.at?.slice(0, 16));
  if (w.shown.includes('card_last4')) check('card', w.card_last4, t.cardLast4);
  if (w.shown.includes('rrn')) check('rrn', w.rrn, t.rrn);
  if (w.shown.includes('stan')) check('stan', w.stan, t.stan);
  if (w.shown.includes('serial')) check('serial', w.serial, t.serial, sameNumber(w.serial, t.serial));
  return out;
}

describe('journals from the independent generator (tools/journal-gen)', () => {
  const runs: [string, string[]][] = [
    ['seed 1, every family', ['--seed', '1', '--family', 'all']],
    ['seed 2, two ATMs over two days', ['--seed', '2', '--family', 'all', '--atms', '2', '--days', '2']],
    ['seed 3, CRLF and Windows-1252', ['--seed', '3', '--family', 'all', '--crlf', '--encoding', 'cp1252']],
    ['seed 4, split journals, no ATM ID in the file names', ['--seed', '4', '--family', 'all', '--split', '--no-atm-in-name']],
  ];
  it.each(runs)('%s: every withdrawal as the manifest says', { timeout: 120_000 }, async (_name, args) => {
    const { dir, manifest } = generate(args);
    const reads = await readAll(dir, manifest);
    const problems = manifest.withdrawals.flatMap((w) => differences(w, reads.get(w.segments[0]!.file)!));
    expect(problems).toEqual([]);
    // Every verdict was met.
    expect(new Set(manifest.withdrawals.map((w) => w.verdict))).toEqual(
      new Set(['dispensed', 'partial', 'not_dispensed', 'retracted', 'reversed', 'indeterminate', null]),
    );
  });

  it("reads a split's first part alone as cut at its end", { timeout: 60_000 }, async () => {
    const { dir, manifest } = generate(['--seed', '6', '--family', 'all', '--split']);
    expect(manifest.splits.length).toBe(3);
    for (const split of manifest.splits) {
      const first = await parseJournal(readFileSync(join(dir, split.parts[0])), { fileName: split.parts[0] });
      const last = first?.transactions.at(-1);
      expect(last?.cut).toBe('end');
      // Cut before its amount, it is not yet known to be a withdrawal: no verdict either way.
      expect(last?.verdict).toBe(last?.kind === 'withdrawal' ? 'indeterminate' : null);
    }
  });
});
