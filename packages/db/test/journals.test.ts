// Journals on both backends: a journal stored once (16 parallel receives of one file too), its pages
// giving the file back byte for byte and any range of lines as the parser decodes them, disputes
// matched by number and by card, amount and day (a near twin leaving it ambiguous), whichever of
// journal and complaint arrives first, a transaction cut between two files judged whole, the
// evidence a dispute page shows, the EJ list's verdict filter, and a suggestion applied but never
// over an operator's status.
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeJournal } from '@ejdesk/journal';
import {
  applySuggestion,
  createUser,
  disputeEvidence,
  emails,
  journalBytes,
  journalDetail,
  journalLines,
  listEjRecords,
  listJournals,
  matchDisputes,
  queryRows,
  receiveJournal,
  RuleProblem,
  saveProcessedMessage,
  setDisputeStatus,
  verdictsOfRecords,
  type Database,
  type Db,
  type Operator,
  type ReceiveResult,
} from '../src/index.ts';
import { splitPages } from '../src/journals/pages.ts';
import { backends, migrated } from './backends.ts';
import { ncrJournal, type Withdrawal } from './journal-text.ts';

const ATM = 'S1AB012345';
const DAY = '15/03/2025';
const ISO_DAY = '2025-03-15';

/** A day with each verdict, and a near twin (the failed 3,000 of card 4321, dispensed a minute later). */
const day: Withdrawal[] = [
  { time: '10:00:00', serial: '6437', card: '1234', amount: 2000, rrn: '507410000001', stan: '100001', outcome: 'dispensed' },
  { time: '10:05:00', serial: '6438', card: '4321', amount: 3000, rrn: '507410000002', outcome: 'failed' },
  { time: '10:06:00', serial: '6439', card: '4321', amount: 3000, rrn: '507410000003', outcome: 'dispensed' },
  { time: '10:10:00', serial: '6440', card: '5555', amount: 1000, outcome: 'retracted' },
  { time: '10:20:00', serial: '6441', card: '6666', amount: 1500, outcome: 'reversed', notes: 3 },
  { time: '10:30:00', serial: '6442', card: '7777', amount: 2500, stan: '100042', outcome: 'dispensed', notes: 3 }, // partial
];

const bytesOf = (lines: string[], end = '\n') => new TextEncoder().encode(lines.join(end) + end);
const journalOf = (withdrawals: Withdrawal[], atm = ATM, date = DAY) => bytesOf(ncrJournal(atm, date, withdrawals));

const stored = (result: ReceiveResult) => {
  if ('notJournal' in result) throw new Error(result.notJournal);
  return result.journal;
};

describe.each(backends)('journals on %s', (backend) => {
  let database: Database;
  let db: Db;
  let drop: () => Promise<void>;
  let operator: Operator;
  let counter = 0;
  beforeAll(async () => {
    ({ database, drop } = await migrated(backend));
    db = database.db;
    const user = await createUser(db, 'journals@example.com', 'x');
    operator = { id: user!.id, email: 'journals@example.com' };
  }, 60_000);
  afterAll(() => drop());
  beforeEach(async () => {
    for (const table of ['journals', 'ej_records', 'disputes', 'emails']) await db.execute(sql`delete from ${sql.identifier(table)}`);
  });

  /** A complaint as the ingester leaves it (a record linked to its dispute): the dispute's id. */
  const complaint = async (r: { atm?: string; txn?: string; card?: string; date?: string | null; amount?: string | null }) => {
    const [row] = await queryRows<{ id: string }>(
      db,
      sql`insert into ej_records (kind, atm_id, txt_no, card_no, bank_name, transaction_date, transaction_amt)
          values ('dispute', ${r.atm ?? ATM}, ${r.txn ?? `C${++counter}`}, ${r.card ?? ''}, 'Harbor Bank', ${r.date === undefined ? ISO_DAY : r.date}::date,
                  ${r.amount ?? null}::numeric)
          returning id`,
    );
    await db.execute(sql`select dispute_records_link(null)`);
    const [dispute] = await queryRows<{ id: number }>(db, sql`select dispute_id::float8 as id from dispute_records where record_id = ${Number(row!.id)}`);
    return dispute!.id;
  };

  const evidenceRow = async (disputeId: number) =>
    (
      await queryRows<{ match: string; verdict: string | null; candidates: number }>(
        db,
        sql`select match, verdict, candidates from dispute_evidence where dispute_id = ${disputeId}`,
      )
    )[0] ?? null;

  it('stores a journal once, with its transactions, counters and pages; a file that is not a journal stores nothing', async () => {
    const bytes = journalOf(day);
    const journal = stored(await receiveJournal(db, { bytes, fileName: 'EJ_S1AB012345_20250315.txt', source: 'upload', uploadedBy: operator.id }));
    expect(journal).toMatchObject({ atm_id: ATM, day: ISO_DAY, family: 'ncr', transactions: 6, source: 'upload', file_name: 'EJ_S1AB012345_20250315.txt' });
    expect(journal.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(journal.anomaly_kinds).toEqual(['dispense_failure', 'retract']);
    const detail = await journalDetail(db, journal.id);
    expect(detail!.transactions.map((t) => [t.serial, t.verdict, t.requested_amount, t.dispensed_amount])).toEqual([
      ['6437', 'dispensed', '2000.00', '2000.00'],
      ['6438', 'not_dispensed', '3000.00', '0.00'],
      ['6439', 'dispensed', '3000.00', '3000.00'],
      ['6440', 'retracted', '1000.00', '0.00'],
      ['6441', 'reversed', '1500.00', '0.00'],
      ['6442', 'partial', '2500.00', '1500.00'],
    ]);
    expect(detail!.transactions[0]).toMatchObject({
      at: '2025-03-15T10:00:00',
      day: ISO_DAY,
      card_last4: '1234',
      rrn: '507410000001',
      stan: '100001',
      cut: null,
    });
    expect(detail!.counters).toHaveLength(1);
    expect(detail!.journal.anomalies.length).toBeGreaterThan(0);
    const again = await receiveJournal(db, { bytes, fileName: 'copy.txt', source: 'mail' });
    expect(again).toEqual({ journal, created: false });

    const prose = await receiveJournal(db, {
      bytes: new TextEncoder().encode('Dear team,\nplease find the journal attached.\n'),
      fileName: 'EJ_S1AB012345_20250316.txt',
      source: 'mail',
    });
    expect(prose).toHaveProperty('notJournal');
    expect((await listJournals(db, { page: 1, pageSize: 10 })).count).toBe(1);
  });

  it('stores one file received 16 times at once once, every receive answering that journal', async () => {
    const bytes = journalOf(day.slice(0, 3));
    const results = await Promise.all(Array.from({ length: 16 }, (_, i) => receiveJournal(db, { bytes, fileName: `copy-${i}.txt`, source: 'folder' })));
    const ids = new Set(results.map((r) => stored(r).id));
    expect(ids.size).toBe(1);
    expect(results.filter((r) => 'created' in r && r.created)).toHaveLength(1);
    const [counts] = await queryRows<{ journals: number; transactions: number; pages: number }>(
      db,
      sql`select (select count(*)::int from journals) as journals, (select count(*)::int from journal_transactions) as transactions,
                 (select count(*)::int from journal_pages) as pages`,
    );
    expect(counts).toEqual({ journals: 1, transactions: 3, pages: 1 });
  });

  it('gives the file back byte for byte from its pages, and any range of lines as the parser decodes it', async () => {
    // 150 withdrawals (over 2,000 lines: two pages), CRLF, a Windows-1252 byte, no line end at the end.
    const many = Array.from({ length: 150 }, (_, i): Withdrawal => {
      const minute = 6 * 60 + i * 5;
      const time = `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:00`;
      return { time, serial: String(7000 + i), card: String(1000 + i), amount: 1000, outcome: 'dispensed' };
    });
    const text = ncrJournal(ATM, DAY, many).join('\r\n').replace('PRIMARY CARD READER', 'CAF\u00c9 CARD READER');
    const bytes = Buffer.from(text, 'latin1');
    expect(bytes.includes(0xc9)).toBe(true);
    const journal = stored(await receiveJournal(db, { bytes, fileName: 'big.txt', source: 'upload' }));
    expect(journal.line_count).toBeGreaterThan(2000);
    const back = await journalBytes(db, journal.id);
    expect(Buffer.compare(back!, bytes)).toBe(0);
    expect(createHash('sha256').update(back!).digest('hex')).toBe(journal.sha256);
    const [pages] = await queryRows<{ n: number; lines: number }>(
      db,
      sql`select count(*)::int as n, sum(line_count)::int as lines from journal_pages where journal_id = ${journal.id}`,
    );
    expect(pages).toEqual({ n: 2, lines: journal.line_count });

    const all = decodeJournal(bytes).split('\n');
    const range = await journalLines(db, journal.id, 1995, 2005);
    expect(range!.lines).toEqual(all.slice(1994, 2005).map((text, i) => ({ no: 1995 + i, text })));
    expect((await journalLines(db, journal.id, 1, 3))!.lines[1]!.text).toBe('*CAF\u00c9 CARD READER ACTIVATED*');
    const last = await journalLines(db, journal.id, journal.line_count - 1, journal.line_count + 50);
    expect(last!.lines.map((l) => l.text)).toEqual(all.slice(-2));
    expect(last!.to).toBe(journal.line_count);
    expect((await journalLines(db, journal.id, journal.line_count + 1, journal.line_count + 10))!.lines).toEqual([]);
    const capped = await journalLines(db, journal.id, 1, 100_000);
    expect(capped!.lines.length).toBe(Math.min(5000, journal.line_count));
    expect(await journalLines(db, journal.id + 1000, 1, 10)).toBeNull();
    for (const [from, to] of [
      [0, 10],
      [10, 9],
      [1.5, 3],
      [Number.NaN, 3],
    ])
      await expect(journalLines(db, journal.id, from!, to!)).rejects.toBeInstanceOf(RuleProblem);
  });

  it('pages split at CR, LF and CRLF, and at UTF-16 line ends', () => {
    const crlf = Buffer.from('a\r\nb\rc\nd\r\ne');
    expect(splitPages(crlf, 2).map((p) => [p.firstLine, p.lineCount, crlf.subarray(p.start, p.end).toString()])).toEqual([
      [1, 2, 'a\r\nb\r'],
      [3, 2, 'c\nd\r\n'],
      [5, 1, 'e'],
    ]);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('one\r\ntwo\nthree\n', 'utf16le')]);
    const pages = splitPages(utf16, 2);
    expect(pages.map((p) => [p.firstLine, p.lineCount])).toEqual([
      [1, 2],
      [3, 1],
    ]);
    expect(utf16.subarray(pages[1]!.start).toString('utf16le')).toBe('three\n');
  });

  it('gives a complaint its verdict when its journal arrives, and a complaint arriving after its journal finds it', async () => {
    const before = await complaint({ txn: '507410000002' });
    expect(await evidenceRow(before)).toBeNull();
    const journal = stored(await receiveJournal(db, { bytes: journalOf(day), fileName: 'ej.txt', source: 'mail' }));
    expect(await evidenceRow(before)).toEqual({ match: 'rrn', verdict: 'not_dispensed', candidates: 1 });

    // After the journal, through the ingester's own write of a message.
    const [email] = await db.insert(emails).values({ subject: 'complaint', receivedAt: new Date() }).returning({ id: emails.id });
    const row = { atmId: ATM, cardNo: '608001XXXXXX5555', txtNo: '', txtDate: ISO_DAY, txtAmt: '1000', disputeAmt: '1000', overage: null };
    await db.transaction(async (tx) =>
      saveProcessedMessage(tx as never, {
        emailId: email!.id,
        fields: {
          emailFrom: 'bank@example.com',
          emailTo: 'desk@example.com',
          subject: 'complaint',
          emailBody: '',
          emailBodyHtml: '',
          receivedAt: new Date(),
          numOfEmail: 1,
        },
        category: 'processed',
        jsonLoadData: [],
        processingError: null,
        bankName: 'Harbor Bank',
        msp: null,
        clockDay: '2025-03-16',
        bodyRows: [{ ...blankRow, ...row }],
        files: [],
      }),
    );
    const [after] = await queryRows<{ id: number }>(
      db,
      sql`select d.id::float8 as id from disputes d join ej_records r on r.id = d.first_record_id where r.email_id = ${email!.id}`,
    );
    expect(await evidenceRow(after!.id)).toEqual({ match: 'card_amount_day', verdict: 'retracted', candidates: 1 });
    expect((await journalDetail(db, journal.id))!.transactions).toHaveLength(6);
  });

  it('matches by RRN, STAN or serial on the ATM, else by card, amount and day; a near twin leaves it ambiguous', async () => {
    const byStan = await complaint({ txn: '100042' });
    const bySerial = await complaint({ txn: '6441' });
    const serialElsewhere = await complaint({ txn: '6441', atm: 'OTHER01' });
    const twin = await complaint({ card: '608001XXXXXX4321', amount: '3000' });
    const byCard = await complaint({ card: '6080011111111234', amount: '2000' });
    const wrongDay = await complaint({ txn: '507410000001', date: '2025-03-20' });
    const notInJournal = await complaint({ txn: '999999999999' });
    await receiveJournal(db, { bytes: journalOf(day), fileName: 'ej.txt', source: 'mail' });
    expect(await evidenceRow(byStan)).toEqual({ match: 'stan', verdict: 'partial', candidates: 1 });
    expect(await evidenceRow(bySerial)).toEqual({ match: 'serial', verdict: 'reversed', candidates: 1 });
    expect(await evidenceRow(serialElsewhere)).toBeNull();
    expect(await evidenceRow(twin)).toEqual({ match: 'ambiguous', verdict: null, candidates: 2 });
    expect(await evidenceRow(byCard)).toEqual({ match: 'card_amount_day', verdict: 'dispensed', candidates: 1 });
    expect(await evidenceRow(wrongDay)).toBeNull();
    expect(await evidenceRow(notInJournal)).toEqual({ match: 'none', verdict: null, candidates: 0 });
    // The failed one's own number picks it out of the twins.
    const failed = await complaint({ txn: '507410000002', card: '608001XXXXXX4321', amount: '3000' });
    expect(await matchDisputes(db, { disputeIds: [failed] })).toEqual([expect.objectContaining({ disputeId: failed, match: 'rrn', verdict: 'not_dispensed' })]);
  });

  it('judges a transaction cut between two files as the whole journal would, whichever file arrives first', async () => {
    const lines = ncrJournal(ATM, DAY, day);
    // Cut inside the failed withdrawal: its dispense failure and receipt (RRN) are in the second file.
    const cutAt = lines.findIndex((l) => l.includes('UNABLE TO DISPENSE')) - 1;
    const first = bytesOf(lines.slice(0, cutAt));
    const second = bytesOf(lines.slice(cutAt));
    for (const order of [
      [first, second],
      [second, first],
    ]) {
      await db.execute(sql`delete from journals`);
      await db.execute(sql`delete from disputes`);
      const dispute = await complaint({ txn: '507410000002' });
      const ids: number[] = [];
      for (const bytes of order)
        ids.push(stored(await receiveJournal(db, { bytes, fileName: bytes === first ? 'part1.txt' : 'part2.txt', source: 'upload' })).id);
      const [firstId, secondId] = order[0] === first ? ids : [ids[1]!, ids[0]!];
      const cut = (await journalDetail(db, firstId!))!.transactions.at(-1)!;
      expect(cut).toMatchObject({ serial: '6438', cut: 'end', verdict: 'not_dispensed', rrn: '507410000002', continuation_journal_id: secondId });
      expect(cut.line_to).toBe(cutAt);
      expect(cut.continuation_line_from).toBe(1);
      const rest = (await journalDetail(db, secondId!))!.transactions[0]!;
      expect(rest).toMatchObject({ cut: 'start', joined_to: cut.id });
      expect(cut.continuation_line_to).toBe(rest.line_to);
      expect(await evidenceRow(dispute)).toEqual({ match: 'rrn', verdict: 'not_dispensed', candidates: 1 });
      const evidence = await disputeEvidence(db, dispute);
      expect(evidence!.journal!.id).toBe(firstId);
      expect(evidence!.continuation).toMatchObject({ journal: { id: secondId, file_name: 'part2.txt' }, lines: { from: 1, to: rest.line_to } });
      // Each file's lines in its own numbering: the first file's from the transaction's start, the second's from 1.
      const parts = evidence!.excerpt.map((l) => [l.journal_id, l.no]);
      expect(parts[0]).toEqual([firstId, cut.line_from]);
      expect(parts.find(([id]) => id === secondId)).toEqual([secondId, 1]);
      expect(evidence!.excerpt.some((l) => l.journal_id === secondId && l.evidence && l.text.includes('UNABLE TO DISPENSE'))).toBe(true);
    }
  });

  it('shows a dispute its evidence: verdict, amounts, journal, lines, excerpt, neighbours and counters', async () => {
    const dispute = await complaint({ txn: '6440' });
    expect(await disputeEvidence(db, dispute)).toBeNull();
    const journal = stored(await receiveJournal(db, { bytes: journalOf(day), fileName: 'ej.txt', source: 'mail' }));
    const evidence = await disputeEvidence(db, dispute);
    const t = (await journalDetail(db, journal.id))!.transactions[3]!;
    expect(evidence).toMatchObject({
      verdict: 'retracted',
      match: 'serial',
      requested_amount: '1000.00',
      dispensed_amount: '0.00',
      journal: { id: journal.id, file_name: 'ej.txt', atm_id: ATM, day: ISO_DAY, sha256: journal.sha256 },
      lines: { from: t.line_from, to: t.line_to },
      continuation: null,
    });
    expect(evidence!.excerpt.map((l) => l.no)).toEqual(Array.from({ length: t.line_to - t.line_from + 1 }, (_, i) => t.line_from + i));
    expect(evidence!.excerpt.filter((l) => l.evidence).map((l) => l.no)).toEqual(t.evidence);
    expect(evidence!.excerpt.find((l) => l.evidence && l.text.includes('RETRACTED'))).toBeTruthy();
    expect(evidence!.before.map((n) => n.verdict)).toEqual(['dispensed', 'not_dispensed', 'dispensed']);
    expect(evidence!.after.map((n) => n.verdict)).toEqual(['reversed', 'partial']);
    expect(evidence!.before[2]!.excerpt.some((l) => l.text.includes('TXN SN NO=6439'))).toBe(true);
    expect(evidence!.counters).toMatchObject({ cassettes: [{ position: 1, denomination: 100 }, { position: 2, denomination: 500 }, {}, {}] });

    const twin = await complaint({ card: '608001XXXXXX4321', amount: '3000' });
    await matchDisputes(db, { disputeIds: [twin] });
    expect(await disputeEvidence(db, twin)).toMatchObject({ verdict: null, match: 'ambiguous', candidates: 2, journal: null, excerpt: [], before: [] });
  });

  it('filters the EJ table by verdict, alone and beside dates, the clock and an ATM, and gives each record its verdict', async () => {
    const dispensed = [await complaint({ txn: '507410000001' }), await complaint({ txn: '6439' })];
    const failed = await complaint({ txn: '507410000002' });
    await complaint({ txn: '999999999999' });
    await complaint({ atm: 'OTHER01' });
    await receiveJournal(db, { bytes: journalOf(day), fileName: 'ej.txt', source: 'mail' });
    const page = { page: 1, pageSize: 10 };
    const recordsOf = async (ids: number[]) =>
      (
        await queryRows<{ id: number }>(
          db,
          sql`select record_id::float8 as id from dispute_records where dispute_id = any(${sql.param(ids)}::bigint[]) order by record_id desc`,
        )
      ).map((r) => r.id);
    const list = await listEjRecords(db, { kind: 'dispute', verdict: 'dispensed' }, page);
    expect(list.count).toBe(2);
    expect(list.rows.map((r) => r.id)).toEqual(await recordsOf(dispensed));
    expect((await listEjRecords(db, { kind: 'dispute', verdict: 'not_dispensed', atmId: ATM }, page)).rows.map((r) => r.id)).toEqual(await recordsOf([failed]));
    expect((await listEjRecords(db, { kind: 'dispute', verdict: 'not_dispensed', atmId: 'OTHER01' }, page)).count).toBe(0);
    expect((await listEjRecords(db, { kind: 'dispute', verdict: 'retracted' }, page)).count).toBe(0);
    // With dates and the clock's filters: dispute_records' copies alone.
    const dated = await listEjRecords(db, { kind: 'dispute', verdict: 'dispensed', startDate: ISO_DAY, endDate: ISO_DAY }, page);
    expect([dated.count, dated.rows.map((r) => r.id)]).toEqual([2, await recordsOf(dispensed)]);
    expect((await listEjRecords(db, { kind: 'dispute', verdict: 'dispensed', startDate: '2025-03-16' }, page)).count).toBe(0);
    const open = await listEjRecords(db, { kind: 'dispute', verdict: 'not_dispensed', tat: 'open', today: '2025-03-20' }, page);
    expect([open.count, open.rows.map((r) => r.id)]).toEqual([1, await recordsOf([failed])]);
    expect((await listEjRecords(db, { kind: 'dispute', verdict: 'not_dispensed', tat: 'resolved', today: '2025-03-20' }, page)).count).toBe(0);
    const ordered = await listEjRecords(db, { kind: 'dispute', verdict: 'dispensed', today: '2025-03-20' }, page, { field: 'due_date', descending: false });
    expect(ordered.count).toBe(2);
    expect(new Set(ordered.rows.map((r) => r.id))).toEqual(new Set(await recordsOf(dispensed)));
    const all = await listEjRecords(db, { kind: 'dispute' }, page);
    const verdicts = await verdictsOfRecords(
      db,
      all.rows.map((r) => r.id),
    );
    expect([...verdicts.values()].map((v) => v.verdict).sort()).toEqual(['dispensed', 'dispensed', 'not_dispensed', null]);
    expect(verdicts.get((await recordsOf([failed]))[0]!)).toEqual({ verdict: 'not_dispensed', dispensed_amount: '0.00', match: 'rrn' });
  });

  it('keeps each dispute record’s copy of its verdict exact, and dispute_counts untouched by it', async () => {
    /** Each dispute record's copy beside its dispute's evidence: [copy, evidence] per record, in id order. */
    const copies = async () =>
      (
        await queryRows<{ copy: string | null; evidence: string | null }>(
          db,
          sql`select l.verdict as copy, e.verdict as evidence from dispute_records l
              left join dispute_evidence e on e.dispute_id = l.dispute_id order by l.record_id`,
        )
      ).map((r) => [r.copy, r.evidence]);
    const counts = () => queryRows<{ xmin: string; n: string }>(db, sql`select xmin::text as xmin, n::text as n from dispute_counts order by 1, 2`);
    const page = { page: 1, pageSize: 10 };
    const verdictCount = async (verdict: string) => (await listEjRecords(db, { kind: 'dispute', verdict }, page)).count;

    // Evidence written after the record.
    const failed = await complaint({ txn: '507410000002' });
    expect(await copies()).toEqual([[null, null]]);
    await receiveJournal(db, { bytes: journalOf(day), fileName: 'ej.txt', source: 'mail' });
    expect(await copies()).toEqual([['not_dispensed', 'not_dispensed']]);
    // A record whose evidence is written after it, and one linked to a dispute already holding evidence.
    const dispensed = await complaint({ txn: '507410000001' });
    expect(await copies()).toEqual([
      ['not_dispensed', 'not_dispensed'],
      [null, null],
    ]);
    await matchDisputes(db, { disputeIds: [dispensed] });
    expect(await complaint({ txn: '507410000001' })).toBe(dispensed);
    expect(await copies()).toEqual([
      ['not_dispensed', 'not_dispensed'],
      ['dispensed', 'dispensed'],
      ['dispensed', 'dispensed'],
    ]);
    expect(await verdictCount('dispensed')).toBe(2);

    // Changed: the dispute's records follow, and dispute_counts (which holds no verdict) is not written.
    const before = await counts();
    await db.execute(sql`update dispute_evidence set verdict = 'partial' where dispute_id = ${dispensed}`);
    expect(await copies()).toEqual([
      ['not_dispensed', 'not_dispensed'],
      ['partial', 'partial'],
      ['partial', 'partial'],
    ]);
    expect(await counts()).toEqual(before);
    expect([await verdictCount('partial'), await verdictCount('dispensed')]).toEqual([2, 0]);

    // A record moved to another dispute takes that dispute's verdict.
    const [moved] = await queryRows<{ id: number }>(db, sql`select max(record_id)::float8 as id from dispute_records where dispute_id = ${dispensed}`);
    await db.execute(sql`update dispute_records set dispute_id = ${failed} where record_id = ${moved!.id}`);
    expect(await copies()).toEqual([
      ['not_dispensed', 'not_dispensed'],
      ['partial', 'partial'],
      ['not_dispensed', 'not_dispensed'],
    ]);
    expect(await verdictCount('not_dispensed')).toBe(2);

    // Removed: the copies are cleared; one statement over several disputes.
    await db.execute(sql`delete from dispute_evidence where dispute_id in (${failed}, ${dispensed})`);
    expect(await copies()).toEqual([
      [null, null],
      [null, null],
      [null, null],
    ]);
    expect([await verdictCount('not_dispensed'), await verdictCount('partial')]).toEqual([0, 0]);
    // Written again in one statement for both.
    await matchDisputes(db, { disputeIds: [failed, dispensed] });
    expect(await copies()).toEqual([
      ['not_dispensed', 'not_dispensed'],
      ['dispensed', 'dispensed'],
      ['not_dispensed', 'not_dispensed'],
    ]);
  });

  it('applies the suggested outcome, audited with the file, but never over an operator’s status', async () => {
    const credited = await complaint({ txn: '507410000002' });
    const rejected = await complaint({ txn: '507410000001' });
    const reversed = await complaint({ txn: '6441' });
    const operators = await complaint({ txn: '6440' });
    const twin = await complaint({ card: '608001XXXXXX4321', amount: '3000' });
    await receiveJournal(db, { bytes: journalOf(day), fileName: 'EJ_S1AB012345_20250315.txt', source: 'mail' });
    await setDisputeStatus(db, { ids: [operators] }, { status: 'awaiting_msp', outcome: null, note: 'asked the MSP' }, operator, '2025-03-16');
    const result = await applySuggestion(db, { ids: [credited, rejected, reversed, operators, twin] }, operator, '2025-03-16');
    expect(result.applied.sort((a, b) => a.disputeId - b.disputeId)).toEqual([
      { disputeId: credited, status: 'resolved', outcome: 'credited' },
      { disputeId: rejected, status: 'resolved', outcome: 'rejected' },
      { disputeId: reversed, status: 'resolved', outcome: 'other' },
    ]);
    expect(result.skipped.sort((a, b) => a.disputeId - b.disputeId)).toEqual([
      { disputeId: operators, why: 'operator' },
      { disputeId: twin, why: 'no_suggestion' },
    ]);
    const statuses = await queryRows<{ id: number; status: string; outcome: string | null }>(
      db,
      sql`select id::float8 as id, status, outcome from disputes where id = any(${sql.param([operators, twin])}::bigint[]) order by id`,
    );
    expect(statuses).toEqual([
      { id: operators, status: 'awaiting_msp', outcome: null },
      { id: twin, status: 'open', outcome: null },
    ]);
    const [event] = await queryRows<{ note: string }>(db, sql`select note from dispute_events where dispute_id = ${credited} order by id desc limit 1`);
    expect(event!.note).toMatch(/^Journal EJ_S1AB012345_20250315\.txt: not dispensed; credit the customer/);
    const audit = await queryRows<{ detail: string }>(
      db,
      sql`select detail from audit_log where action = 'status' and detail like '%EJ_S1AB012345_20250315.txt%'`,
    );
    expect(audit.length).toBeGreaterThanOrEqual(3);
    // Applied again: the same status, nothing to change (and now the operator's).
    expect((await applySuggestion(db, { ids: [credited] }, operator, '2025-03-17')).applied).toEqual([]);
  });

  it('lists journals by ATM, day, range, anomaly and family', async () => {
    await receiveJournal(db, { bytes: journalOf(day), fileName: 'a.txt', source: 'mail' });
    await receiveJournal(db, { bytes: journalOf(day.slice(0, 1), ATM, '16/03/2025'), fileName: 'b.txt', source: 'mail' });
    await receiveJournal(db, { bytes: journalOf(day.slice(0, 1), 'S1AB099999', '16/03/2025'), fileName: 'c.txt', source: 'mail' });
    const names = async (f: Parameters<typeof listJournals>[1]) => (await listJournals(db, f)).rows.map((r) => r.file_name);
    const page = { page: 1, pageSize: 10 };
    expect(await names(page)).toEqual(['c.txt', 'b.txt', 'a.txt']);
    expect(await names({ ...page, atmId: ATM })).toEqual(['b.txt', 'a.txt']);
    expect(await names({ ...page, atmId: '0999' })).toEqual(['c.txt']);
    expect(await names({ ...page, day: '2025-03-15' })).toEqual(['a.txt']);
    expect(await names({ ...page, dayFrom: '2025-03-16', dayTo: '2025-03-31' })).toEqual(['c.txt', 'b.txt']);
    expect(await names({ ...page, anomaly: 'retract' })).toEqual(['a.txt']);
    expect(await names({ ...page, family: 'diebold' })).toEqual([]);
    const second = await listJournals(db, { page: 2, pageSize: 2 });
    expect([second.count, second.rows.map((r) => r.file_name)]).toEqual([3, ['a.txt']]);
  });
});

const blankRow = {
  atmId: '',
  cardNo: '',
  txtNo: '',
  txtDate: null,
  txtAmt: null,
  disputeAmt: null,
  overage: null,
  mspRemarks: '',
  mspRefNo: '',
  shortDesc: '',
  ejError: '',
  complaintDate: null,
  shortDescription: '',
  mailReceivedFrom: 'bank@example.com',
  mailSubject: 'complaint',
  responseCode: '',
};
