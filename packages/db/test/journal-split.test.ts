// A day's journal mailed in two parts, cut inside a withdrawal, by the independent generator
// (tools/journal-gen/ejgen.py --split), in each family: received in either order, and with the
// complaint before or after them, the cut withdrawal gets the verdict the whole journal gives (the
// generator's, decided before it printed a line), and its evidence shows the second file's lines in
// that file's own numbering.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disputeEvidence, matchDisputes, queryRows, receiveJournal, type Database, type Db } from '../src/index.ts';
import { backends, migrated } from './backends.ts';

interface Segment {
  file: string;
  lines: [number, number];
  evidence_lines: number[];
}
interface Withdrawal {
  id: string;
  family: string;
  atm_id: string;
  verdict: string | null;
  rrn: string | null;
  stan: string | null;
  serial: string | null;
  shown: string[];
  local_time: string;
  dispensed_amount: string | null;
  segments: Segment[];
}
interface Manifest {
  splits: { parts: [string, string]; transaction: string }[];
  withdrawals: Withdrawal[];
}

const generator = join(import.meta.dirname, '../../../tools/journal-gen/ejgen.py');
let out: string;
let manifest: Manifest;
beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), 'ejdesk-split-'));
  execFileSync('python3', [generator, '--out', out, '--seed', '5', '--family', 'all', '--atms', '1', '--days', '1', '--split', '--crlf']);
  manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe.each(backends)('a journal split over two files on %s', (backend) => {
  let database: Database;
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await migrated(backend));
    db = database.db;
  }, 60_000);
  afterAll(() => drop());

  const receive = async (name: string) => {
    const answer = await receiveJournal(db, { bytes: readFileSync(join(out, name)), fileName: name, source: 'folder' });
    if ('notJournal' in answer) throw new Error(`${name}: ${answer.notJournal}`);
    return answer.journal.id;
  };
  /** A complaint naming the withdrawal by a number its journal prints: its dispute's id. */
  const complain = async (w: Withdrawal) => {
    const number = (['rrn', 'stan', 'serial'] as const).find((field) => w.shown.includes(field) && w[field]);
    expect(number, `${w.id} prints a number a complaint can give`).toBeDefined();
    await db.execute(
      sql`insert into ej_records (kind, atm_id, txt_no, bank_name, transaction_date) values ('dispute', ${w.atm_id}, ${w[number!]}, 'Split Bank', ${w.local_time.slice(0, 10)}::date)`,
    );
    await db.execute(sql`select dispute_records_link(null)`);
    const [row] = await queryRows<{ id: number }>(db, sql`select id::float8 as id from disputes where atm_id = ${w.atm_id} and txt_no = ${w[number!]}`);
    // As the ingester does once a complaint's records are saved: it finds a journal already in.
    await matchDisputes(db, { disputeIds: [row!.id] });
    return row!.id;
  };

  it('judges the cut withdrawal whole, whichever part and whichever of journal and complaint comes first', async () => {
    expect(manifest.splits.map((s) => manifest.withdrawals.find((w) => w.id === s.transaction)!.family).sort()).toEqual(['diebold', 'hyosung', 'ncr']);
    for (const [i, split] of manifest.splits.entries()) {
      const w = manifest.withdrawals.find((x) => x.id === split.transaction)!;
      expect(w.segments.map((s) => s.file)).toEqual(split.parts);
      // The first family's complaint arrives before its journal; the second's parts come in reverse.
      const early = i === 0 ? await complain(w) : null;
      const order = i === 1 ? [...split.parts].reverse() : split.parts;
      const ids: Record<string, number> = {};
      for (const part of order) ids[part] = await receive(part);
      const disputeId = early ?? (await complain(w));
      const evidence = await disputeEvidence(db, disputeId);
      expect(evidence, w.id).not.toBeNull();
      expect({ id: w.id, verdict: evidence!.verdict, dispensed: evidence!.dispensed_amount }).toEqual({
        id: w.id,
        verdict: w.verdict,
        dispensed: w.dispensed_amount,
      });
      const [first, second] = w.segments as [Segment, Segment];
      expect(evidence!.journal!.id).toBe(ids[first.file]);
      // The second file's lines in that file's numbering: from its first line through the lines that
      // prove the verdict (the generator counts a trailing header after TRANSACTION END as the
      // transaction's; the journal's own end is TRANSACTION END: docs/journals.md).
      const proof = Math.max(second.lines[0], ...second.evidence_lines);
      expect(evidence!.continuation!.journal.id).toBe(ids[second.file]);
      expect(evidence!.continuation!.lines.from).toBe(second.lines[0]);
      expect(evidence!.continuation!.lines.to).toBeGreaterThanOrEqual(proof);
      expect(evidence!.continuation!.lines.to).toBeLessThanOrEqual(second.lines[1]);
      const rest = evidence!.excerpt.filter((line) => line.journal_id === ids[second.file]);
      expect(rest.map((line) => line.no)).toEqual(
        Array.from({ length: evidence!.continuation!.lines.to - second.lines[0] + 1 }, (_, k) => second.lines[0] + k),
      );
      for (const line of second.evidence_lines) expect(rest.find((l) => l.no === line)?.evidence, `${w.id}: line ${line} of ${second.file} marked`).toBe(true);
      const lines = readFileSync(join(out, second.file), 'latin1').split('\r\n');
      for (const line of evidence!.excerpt.filter((l) => l.journal_id === ids[second.file])) expect(line.text.trimEnd()).toBe(lines[line.no - 1]!.trimEnd());
    }
  }, 120_000);
});
