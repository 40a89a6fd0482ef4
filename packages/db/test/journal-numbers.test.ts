// A complaint's transaction number as its sender wrote it: a journal prints its own serial as it
// counts (TXN SN NO=985) and a STAN with its six digits, while a bank's complaint pads the serial
// (0985) or drops the STAN's zeros (4512). Both name the same transaction; a longer number whose
// first digits are a serial does not.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows, receiveJournal, type Database, type Db } from '../src/index.ts';
import { backends, migrated } from './backends.ts';
import { ncrJournal } from './journal-text.ts';

const ATM = 'S1AB054321';

describe.each(backends)('transaction numbers on %s', (backend) => {
  let database: Database;
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await migrated(backend));
    db = database.db;
  }, 60_000);
  afterAll(() => drop());
  beforeEach(async () => {
    for (const table of ['journals', 'ej_records', 'disputes']) await db.execute(sql`delete from ${sql.identifier(table)}`);
  });

  /** A complaint as the ingester leaves it: its dispute's evidence once the journal is in. */
  const complaint = async (txn: string) => {
    await db.execute(
      sql`insert into ej_records (kind, atm_id, txt_no, bank_name, transaction_date) values ('dispute', ${ATM}, ${txn}, 'Harbor Bank', '2025-03-16')`,
    );
    await db.execute(sql`select dispute_records_link(null)`);
  };
  const evidence = () =>
    queryRows<{ txt_no: string; match: string; verdict: string | null }>(
      db,
      sql`select d.txt_no, e.match, e.verdict from disputes d left join dispute_evidence e on e.dispute_id = d.id order by d.txt_no`,
    );

  it('matches a padded serial and an unpadded STAN, and not a number that only begins like a serial', async () => {
    for (const txn of ['0985', '4512', '98577']) await complaint(txn);
    const journal = ncrJournal(ATM, '16/03/2025', [
      { time: '09:00:00', serial: '985', card: '1234', amount: 2000, outcome: 'failed' },
      { time: '09:10:00', serial: '986', card: '2222', amount: 1000, stan: '004512', outcome: 'dispensed' },
    ]);
    await receiveJournal(db, { bytes: new TextEncoder().encode(journal.join('\n') + '\n'), fileName: 'ej.txt', source: 'upload' });
    expect(await evidence()).toEqual([
      { txt_no: '0985', match: 'serial', verdict: 'not_dispensed' },
      { txt_no: '4512', match: 'stan', verdict: 'dispensed' },
      { txt_no: '98577', match: 'none', verdict: null },
    ]);
  });
});
