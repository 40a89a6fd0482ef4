// Electronic journals arriving by mail and from a folder, made by an independent generator
// (tools/journal-gen/ejgen.py: Python's email package and zipfile, written from the public
// descriptions of NCR, Diebold and Hyosung journals, not from our parser), checked against the
// verdicts its manifest decided before a line was printed: journals plain, in a ZIP, several per
// mail, CRLF and Windows-1252, without the ATM ID in their names; arriving before and after the
// complaints; the same journal in several mails stored once; `--from` a folder of journals.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadIngestRules, queryRows } from '@ejdesk/db';
import { backends, createTestApp, type TestApp } from '@ejdesk/api/test-helpers';
import { createLogger, ingestFromPath, type RunOptions } from '../src/index.ts';
import { prepareRules } from './support/corpus.ts';

interface Withdrawal {
  id: string;
  atm_id: string;
  kind: 'withdrawal' | 'declined';
  verdict: string | null;
  scenario: string;
  local_time: string;
  card_last4: string;
  requested_amount: string;
  shown: string[];
}
interface ComplaintRow {
  withdrawal: string;
  atm_id: string;
  txn_no: string;
  txn_no_shown: boolean;
  transaction_date: string;
  transaction_amount: string;
}
interface Manifest {
  files: { name: string; atm_id: string; sha256: string }[];
  withdrawals: Withdrawal[];
  zips: { name: string; members: string[] }[];
  mails: { file: string; kind: 'complaint' | 'journal'; format: string; rows: ComplaintRow[]; attachments: { filename: string; journals: string[] }[] }[];
}

const ejgen = new URL('../../../tools/journal-gen/ejgen.py', import.meta.url).pathname;
/** The folders this file makes, removed when it ends. */
const made: string[] = [];
const folderIn = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
};
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function generate(args: string[]): { dir: string; manifest: Manifest } {
  const dir = folderIn('ejdesk-ejgen-');
  execFileSync('/usr/bin/python3', [ejgen, '--out', dir, ...args], { stdio: 'pipe' });
  return { dir, manifest: JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest };
}

// Mail: CRLF, Windows-1252, no ATM ID in the journals' names (the journal says it).
const windows = generate(['--seed', '41', '--mail', '--crlf', '--encoding', 'cp1252', '--no-atm-in-name']);
// A folder: UTF-8, LF, the journals and a ZIP of them beside the complaint mail.
const folder = generate(['--seed', '42', '--mail', '--zip']);
// One family, one journal: every journal mail carries the same file.
const single = generate(['--seed', '43', '--mail', '--family', 'hyosung']);
// A Diebold journal, mailed by Python's email package as a binary file named without an extension.
const unnamed = generate(['--seed', '44', '--family', 'diebold']);
const exportMail = join(unnamed.dir, 'export.eml');
execFileSync('/usr/bin/python3', [
  '-c',
  `import sys
from email.message import EmailMessage
m = EmailMessage()
m['From'] = 'MSP Operations <ops@atlas-atm.example>'
m['To'] = 'ej-desk@operations.example'
m['Subject'] = 'EJ export'
m['Message-ID'] = '<ej-export@atlas-atm.example>'
m.set_content('EJ attached.')
m.add_attachment(open(sys.argv[1], 'rb').read(), maintype='application', subtype='octet-stream', filename='EJ_EXPORT')
open(sys.argv[2], 'wb').write(bytes(m))`,
  join(unnamed.dir, unnamed.manifest.files[0]!.name),
  exportMail,
]);

/**
 * What the dispute of a complaint row must say, from the manifest: the withdrawal's verdict when the
 * complaint's number is one the journal prints; else by card, amount and day where exactly one
 * withdrawal fits, none where several do (a near twin never stands in); `either` where a declined
 * attempt with the same card and amount makes both answers defensible.
 */
function expected(manifest: Manifest, row: ComplaintRow): { verdict: string | null; either?: boolean } {
  const w = manifest.withdrawals.find((x) => x.id === row.withdrawal)!;
  if (row.txn_no_shown) return { verdict: w.verdict };
  const twins = manifest.withdrawals.filter(
    (x) =>
      x.atm_id === w.atm_id &&
      x.local_time.slice(0, 10) === row.transaction_date &&
      x.card_last4 === w.card_last4 &&
      x.requested_amount === row.transaction_amount &&
      x.shown.includes('card_last4'),
  );
  if (!w.shown.includes('card_last4')) return { verdict: null };
  const withdrawals = twins.filter((x) => x.kind === 'withdrawal').length;
  if (withdrawals > 1) return { verdict: null };
  return twins.length === 1 ? { verdict: w.verdict } : { verdict: w.verdict, either: true };
}

/** A folder holding the generator's files named (mail by its manifest path). */
function folderOf(dir: string, names: string[]): string {
  const out = folderIn('ejdesk-journal-mail-');
  for (const name of names) copyFileSync(join(dir, name), join(out, name.split('/').pop()!));
  return out;
}
const mailsOf = (manifest: Manifest, pick: (m: Manifest['mails'][number]) => boolean) => manifest.mails.filter(pick).map((m) => m.file);
const complaintsOf = (manifest: Manifest, family: string) => mailsOf(manifest, (m) => m.kind === 'complaint' && m.file.includes(`-${family}-`));

describe.each(backends)('journals from the mail and a folder, on %s', (backend) => {
  let t: TestApp;
  let options: RunOptions;
  const ingest = async (dir: string, names: string[], lanes = 1) => {
    const summary = await ingestFromPath(folderOf(dir, names), { ...options, lanes });
    expect(summary.failures).toEqual([]);
    return summary;
  };
  const verdicts = async (manifest: Manifest, mails: string[]) => {
    const rows = manifest.mails.filter((m) => mails.includes(m.file)).flatMap((m) => m.rows);
    expect(rows.length).toBeGreaterThan(0);
    const found = await queryRows<{ atm_id: string; txt_no: string; verdict: string | null; match: string | null }>(
      t.database.db,
      sql`select d.atm_id, d.txt_no, e.verdict, e.match from disputes d left join dispute_evidence e on e.dispute_id = d.id`,
    );
    const byKey = new Map(found.map((f) => [`${f.atm_id}/${f.txt_no}`, f]));
    // Every row's disagreement at once: a wrong verdict is named with the withdrawal it is about.
    const wrong = rows.flatMap((row) => {
      const dispute = byKey.get(`${row.atm_id}/${row.txn_no}`);
      const want = expected(manifest, row);
      const fits = dispute && (dispute.verdict === want.verdict || (want.either && dispute.verdict === null));
      return fits
        ? []
        : [`${row.withdrawal} (${row.txn_no_shown ? 'by number' : 'by card'}): want ${want.verdict}, got ${JSON.stringify(dispute ?? 'no dispute')}`];
    });
    expect(wrong).toEqual([]);
    return rows.length;
  };
  const journalRows = () =>
    queryRows<{ file_name: string; sha256: string; source: string; email_id: number | null; atm_id: string | null }>(
      t.database.db,
      sql`select file_name, sha256, source, email_id::float8 as email_id, atm_id from journals order by id`,
    );
  const emailOf = async (subject: string) =>
    (
      await queryRows<{ category: string; processing_error: string | null }>(
        t.database.db,
        sql`select category, processing_error from emails where subject = ${subject} order by id desc limit 1`,
      )
    )[0]!;

  beforeAll(async () => {
    t = await createTestApp(backend);
    await prepareRules(t.database.db, t.secrets.bankPassKey);
    options = { db: t.database.db, loadRules: () => loadIngestRules(t.database.db, t.secrets.bankPassKey), log: createLogger('error'), lanes: 1 };
  }, 120_000);
  afterAll(() => t?.close());

  test('a journal mailed after its complaints gives them their verdicts (CRLF, Windows-1252, no ATM ID in its name)', async () => {
    const { dir, manifest } = windows;
    const complaints = complaintsOf(manifest, 'ncr');
    await ingest(dir, complaints);
    const plain = mailsOf(manifest, (m) => m.format === 'plain');
    const summary = await ingest(dir, plain);
    expect(summary.journals).toEqual({ received: 1, created: 1 });
    const [journal] = await journalRows();
    const ncr = manifest.files.find((f) => f.name === manifest.mails.find((m) => m.format === 'plain')!.attachments[0]!.filename)!;
    expect(journal).toMatchObject({ file_name: ncr.name, sha256: ncr.sha256, source: 'mail', atm_id: ncr.atm_id });
    expect(ncr.name).not.toContain(ncr.atm_id);
    expect(await emailOf('EJ for disputed transactions (plain)')).toEqual({ category: 'processed', processing_error: `Journals: 1 (1 new): ${ncr.name}` });
    expect(await verdicts(manifest, complaints)).toBe(14);
  });

  test('journals mailed before their complaints are found by them; several in one mail', async () => {
    const { dir, manifest } = windows;
    const several = mailsOf(manifest, (m) => m.format === 'several');
    expect(manifest.mails.find((m) => m.format === 'several')!.attachments.length).toBeGreaterThan(1);
    expect((await ingest(dir, several)).journals).toEqual({ received: 2, created: 2 });
    const complaints = [...complaintsOf(manifest, 'diebold'), ...complaintsOf(manifest, 'hyosung')];
    const summary = await ingest(dir, complaints);
    // The CSV complaints are text attachments that are no journal: read as dispute tables, as ever.
    expect(summary.rows).toMatchObject({ dispute: 28, text: 14 });
    expect(summary.journals).toEqual({ received: 0, created: 0 });
    expect(await verdicts(manifest, complaints)).toBe(28);
  });

  test('the same journals mailed again, in a ZIP and without a charset, are stored once', async () => {
    const { dir, manifest } = windows;
    const again = mailsOf(manifest, (m) => m.format === 'zip' || m.format === 'nocharset');
    const summary = await ingest(dir, again);
    expect(summary.journals).toEqual({ received: 4, created: 0 });
    expect(await journalRows()).toHaveLength(3);
    const zip = manifest.mails.find((m) => m.format === 'zip')!.attachments[0]!;
    const note = await emailOf('EJ for disputed transactions (zip)');
    expect(note.category).toBe('processed');
    expect(note.processing_error).toBe(`Journals: 3 (0 new): ${zip.journals.map((n) => `${zip.filename}/${n} (stored already)`).join(', ')}`);
    // No journal became a data file or a dispute.
    const files = await queryRows<{ name: string }>(
      t.database.db,
      sql`select name from data_files where name like '%.zip/%' or name like '%.jrn' or name like '%.log'`,
    );
    expect(files).toEqual([]);
  });

  test('a journal named anything, sent as a binary file, is kept whole and received', async () => {
    const summary = await ingest(unnamed.dir, ['export.eml']);
    expect(summary.journals).toEqual({ received: 1, created: 1 });
    const [file] = unnamed.manifest.files;
    expect((await journalRows()).find((j) => j.file_name === 'EJ_EXPORT')).toMatchObject({ sha256: file!.sha256, atm_id: file!.atm_id, source: 'mail' });
    expect(await emailOf('EJ export')).toEqual({ category: 'processed', processing_error: 'Journals: 1 (1 new): EJ_EXPORT' });
  });

  test('one journal in four mails processed side by side is stored once, and one mail says it was new', async () => {
    const { dir, manifest } = single;
    const journalMails = mailsOf(manifest, (m) => m.kind === 'journal');
    expect(journalMails).toHaveLength(4);
    const before = (await journalRows()).length;
    const summary = await ingest(dir, journalMails, backend === 'pglite' ? 1 : 4);
    expect(summary.journals).toEqual({ received: 4, created: 1 });
    expect((await journalRows()).length).toBe(before + 1);
    await ingest(dir, complaintsOf(manifest, 'hyosung'));
    expect(await verdicts(manifest, complaintsOf(manifest, 'hyosung'))).toBe(14);
  });

  test('--from a folder: its journal files and ZIP received (source folder), beside its mail', async () => {
    const { dir, manifest } = folder;
    const journals = manifest.files.map((f) => f.name);
    const complaints = mailsOf(manifest, (m) => m.kind === 'complaint');
    const path = folderOf(dir, [...journals, manifest.zips[0]!.name, ...complaints]);
    writeFileSync(join(path, 'README.txt'), 'EJ for 04/02/2025, as requested.\n');
    mkdirSync(join(path, 'old')); // subfolders are not entered
    const summary = await ingestFromPath(path, options);
    expect(summary.failures).toEqual([]);
    expect(summary.journalFailures).toEqual([]);
    expect(summary.processed).toBe(6);
    expect(summary.journals).toEqual({ received: journals.length + manifest.zips[0]!.members.length, created: journals.length });
    expect(summary.notJournals).toEqual(['README.txt']);
    const stored = (await journalRows()).filter((j) => journals.includes(j.file_name));
    // Received in the folder's name order.
    expect(stored.map((j) => [j.file_name, j.source, j.email_id])).toEqual([...journals].sort().map((n) => [n, 'folder', null]));
    expect(summary.toText()).toContain(`Journals received: 6, new: 3, already stored: 3`);
    expect(await verdicts(manifest, complaints)).toBe(41);
  });
});
