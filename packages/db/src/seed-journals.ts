// The demo's journal evidence: three journals, one of each family, made by the independent
// generator (tools/journal-gen/ejgen.py --seed 13 --family all --atms 1 --days 1 --txns 40
// --start 2026-11-20), and a complaint for each of their withdrawals whose cash is in question
// (and two that were dispensed). The complaints arrive first and the journals after, as mail
// often brings them: receiving each journal gives the disputes waiting for it their verdicts.
import { readdirSync, readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { parseJournal } from '@ejdesk/journal';
import { queryRows, type Db } from './client.ts';
import { receiveJournal } from './journals/index.ts';
import { insertBatches } from './seed-batches.ts';

const folder = new URL('./seed-journals/', import.meta.url);
/** Dispensed withdrawals complained of per journal: the desk rejects these, the journal as evidence. */
const dispensedComplaints = 2;

interface DemoJournals {
  journals: number;
  disputes: number;
}

/** Receives the demo journals and their complaints, once: nothing when any journal is stored. */
export async function seedDemoJournals(db: Db, bank = { name: 'Apex Bank', domain: 'apexbank.example' }): Promise<DemoJournals> {
  const [stored] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from journals`);
  if (stored!.n > 0) return { journals: 0, disputes: 0 };
  const files = readdirSync(folder)
    .sort()
    .map((name) => ({ name, bytes: readFileSync(new URL(name, folder)) }));
  const complaints: Record<string, unknown>[] = [];
  for (const file of files) {
    const parsed = await parseJournal(file.bytes, { fileName: file.name });
    if (!parsed) throw new Error(`The demo journal ${file.name} is not a journal.`);
    let dispensed = 0;
    for (const t of parsed.transactions) {
      const number = t.rrn ?? t.stan ?? t.serial;
      if (t.kind !== 'withdrawal' || !t.verdict || !t.cardLast4 || !t.requestedAmount || !number) continue;
      if (t.verdict === 'dispensed' && ++dispensed > dispensedComplaints) continue;
      const day = t.at?.slice(0, 10) ?? parsed.day;
      complaints.push({
        kind: 'dispute',
        atm_id: t.atmId ?? parsed.atmId,
        card_no: `XXXXXXXXXXXX${t.cardLast4}`,
        txt_no: number,
        transaction_date: day,
        transaction_amt: t.requestedAmount,
        dispute_amt: t.requestedAmount,
        bank_name: bank.name,
        mail_received_from: `disputes@${bank.domain}`,
        mail_subject: `ATM complaints ${day}`,
      });
    }
  }
  const text = 'text';
  await insertBatches(
    db,
    'ej_records',
    {
      kind: text,
      atm_id: text,
      card_no: text,
      txt_no: text,
      transaction_date: 'date',
      transaction_amt: 'numeric',
      dispute_amt: 'numeric',
      bank_name: text,
      mail_received_from: text,
      mail_subject: text,
    },
    complaints.length,
    (i) => complaints[i]!,
    {},
  );
  // As the ingester does: each new dispute record joins (or opens) its dispute.
  await db.execute(sql`select dispute_records_link(null)`);
  for (const file of files) await receiveJournal(db, { bytes: file.bytes, fileName: file.name, source: 'folder' });
  return { journals: files.length, disputes: complaints.length };
}
