// Deterministic demo and benchmark data for every table. Rows are generated in JS from a seeded PRNG
// and inserted in batches through json_to_recordset: one parameter per batch, the same SQL on PGlite
// and PostgreSQL, and fast enough for 1,000,000 rows in minutes.
import { sql } from 'drizzle-orm';
import { type Db } from './client.ts';
import { insertBatches, maxId } from './seed-batches.ts';
import { insertHostileSample } from './seed-samples.ts';
import { encryptBankPass } from './bank-pass-cipher.ts';
import { dataFileKinds, type DataFileKind, type EmailCategory } from './schema.ts';

export { seedDemoJournals } from './seed-journals.ts';

export interface SeedOptions {
  emails: number;
  ej: number;
  /** Data files per kind; defaults to emails / 50 (at least 3). */
  filesPerKind?: number;
  /** Whether each file gets its 5 to 40 extracted rows (default); the file lists' benchmark at a million files lists none. */
  fileRows?: boolean;
  /** Reference "today"; dates fall in the 12 months up to it. */
  now?: Date;
  seed?: number;
  /** Key for the stored bank passwords; without one they are not seeded. */
  bankPassKey?: Buffer;
  batchSize?: number;
  onProgress?: (table: string, done: number, total: number) => void;
}

/** The banks, MSPs and dispute wording of generated data (bench/scale-seed.ts draws from them too). */
export const seedBanks = [
  { name: 'Apex Bank', code: 'APX', domain: 'apexbank.example' },
  { name: 'Coastal Co-operative Bank', code: 'CCB', domain: 'coastalbank.example' },
  { name: 'Harbor Bank', code: 'HRB', domain: 'harborbank.example' },
  { name: 'Meridian Bank', code: 'MRD', domain: 'meridianbank.example' },
  { name: 'Summit National Bank', code: 'SNB', domain: 'summitnational.example' },
  { name: 'Unity Bank', code: 'UNB', domain: 'unitybank.example' },
  { name: 'Crescent Bank', code: 'CRS', domain: 'crescentbank.example' },
  { name: 'Pioneer Bank', code: 'PNR', domain: 'pioneerbank.example' },
] as const;

export const seedMsps = [
  { name: 'Atlas ATM Services', domain: 'atlas-atm.example' },
  { name: 'Keystone Managed Services', domain: 'keystone-ms.example' },
  { name: 'Orbit Cash Logistics', domain: 'orbitcash.example' },
  { name: 'Vertex Payments', domain: 'vertexpay.example' },
] as const;

export const seedErrors = [
  ['CASH NOT DISPENSED', 'Cash retracted after timeout'],
  ['PARTIAL DISPENSE', 'Notes rejected to purge bin'],
  ['HOST TIMEOUT', 'Reversal not received from switch'],
  ['CARD CAPTURED', 'Card retained, customer debited'],
  ['SUSPECT TXN', 'Presenter error, cash present sensor'],
  ['DOUBLE DEBIT', 'Duplicate authorisation at host'],
] as const;
export const seedRemarks = [
  'Refund processed',
  'EJ shows successful dispense',
  'Cash found excess in ATM',
  'Under review',
  'Chargeback raised',
  'Customer credited',
];
export const seedResponseCodes = ['00', '05', '51', '68', '91', '96'];

/** mulberry32: small, fast and deterministic. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  return { next, int, pick };
}
type Rng = ReturnType<typeof prng>;

const day = 86_400_000;
const isoDate = (d: Date) => d.toISOString().slice(0, 10);

function randomInstant(rng: Rng, now: Date): Date {
  // Spread over the last 365 days, weighted a little towards recent months.
  const ageDays = Math.floor(365 * Math.pow(rng.next(), 1.3));
  return new Date(now.getTime() - ageDays * day - rng.int(0, day - 1));
}

function dispute(rng: Rng, now: Date) {
  const bank = rng.pick(seedBanks);
  const [shortDesc, ejError] = rng.pick(seedErrors);
  const txn = randomInstant(rng, now);
  const amount = rng.int(1, 200) * 100;
  return {
    bank,
    atm_id: `${bank.code}${String(rng.int(1, 2500)).padStart(5, '0')}`,
    card_no: `${rng.int(400000, 559999)}XXXXXX${String(rng.int(0, 9999)).padStart(4, '0')}`,
    txt_no: String(rng.int(1000, 999999)).padStart(6, '0'),
    date: txn,
    amount,
    dispute_amt: rng.next() < 0.7 ? amount : rng.int(1, amount / 100) * 100,
    overage: rng.next() < 0.2 ? rng.int(1, 50) * 100 : 0,
    msp_remarks: rng.pick(seedRemarks),
    msp_ref_no: `REF${rng.int(100000, 999999)}`,
    short_desc: shortDesc,
    ej_error: ejError,
    complaint: new Date(Math.min(now.getTime(), txn.getTime() + rng.int(0, 10) * day)),
    short_description: `${shortDesc.toLowerCase()} at ATM`,
    response_code: rng.pick(seedResponseCodes),
  };
}

const categoryWeights: [EmailCategory, number][] = [
  ['processed', 0.5],
  ['ej_not_found', 0.15],
  ['same_subject', 0.15],
  ['same_subject_processing', 0.1],
  ['ignored', 0.1],
];
function category(rng: Rng): EmailCategory {
  let r = rng.next();
  for (const [name, weight] of categoryWeights) if ((r -= weight) < 0) return name;
  return 'processed';
}

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

export async function seed(db: Db, options: SeedOptions): Promise<void> {
  const now = options.now ?? new Date();
  const rng = prng(options.seed ?? 20240101);
  const filesPerKind = options.filesPerKind ?? Math.max(3, Math.floor(options.emails / 50));

  // Admin lists: each bank mapped to one or two MSPs, one stored password per bank.
  const mappings = seedBanks.flatMap((bank, i) =>
    [seedMsps[i % seedMsps.length]!, ...(i % 3 === 0 ? [seedMsps[(i + 1) % seedMsps.length]!] : [])].map((msp) => ({
      msp: msp.name,
      bank_name: bank.name,
    })),
  );
  await insertBatches(db, 'bank_msps', { msp: 'text', bank_name: 'text' }, mappings.length, (i) => mappings[i]!, options, true);
  if (options.bankPassKey) {
    const key = options.bankPassKey;
    await insertBatches(
      db,
      'bank_passwords',
      { bank_name: 'text', bank_pass_encrypted: 'bytea' },
      seedBanks.length,
      (i) => ({
        bank_name: seedBanks[i]!.name,
        // json_to_recordset reads bytea in the hex input format.
        bank_pass_encrypted: '\\x' + encryptBankPass(key, `${seedBanks[i]!.code}@${2024 + i}`).toString('hex'),
      }),
      options,
      true,
    );
  }

  const emailBase = await maxId(db, 'emails');
  await insertBatches(
    db,
    'emails',
    {
      message_id: 'text',
      email_from: 'text',
      email_to: 'text',
      subject: 'text',
      normalized_subject: 'text',
      email_body: 'text',
      email_body_html: 'text',
      num_of_email: 'int',
      received_at: 'timestamptz',
      category: 'text',
      is_read: 'boolean',
      json_load_data: 'json',
      create_at: 'timestamptz',
      update_at: 'timestamptz',
    },
    options.emails,
    (i) => {
      const d = dispute(rng, now);
      const cat = category(rng);
      const fromMsp = rng.next() < 0.6;
      const sender = fromMsp ? rng.pick(seedMsps).domain : d.bank.domain;
      const subject = `${cat === 'ignored' ? 'Newsletter' : 'ATM dispute'} ${d.bank.code} ${d.atm_id} ${isoDate(d.complaint)}`;
      const received = randomInstant(rng, now);
      const records = Array.from({ length: rng.int(1, 3) }, () => {
        const r = dispute(rng, now);
        const record: Record<string, unknown> = {
          'ATM ID': r.atm_id,
          'Card No': r.card_no,
          'Txn No': r.txt_no,
          'Txn Date': isoDate(r.date),
          Amount: r.amount,
        };
        // Some senders leave columns out; the screens fill those cells with 'N/A'.
        if (rng.next() < 0.8) record.Remarks = r.msp_remarks;
        return record;
      });
      return {
        message_id: `<seed-${emailBase + i + 1}@ejdesk.example>`,
        email_from: `disputes@${sender}`,
        email_to: 'ej-desk@operations.example',
        subject,
        normalized_subject: subject.toLowerCase(),
        email_body: `Dear team,\nPlease check the EJ for ATM ${d.atm_id}, card ${d.card_no}, txn ${d.txt_no}: ${d.short_desc}.\nRegards`,
        email_body_html: `<p>Dear team,</p><p>Please check the EJ for ATM <b>${escapeHtml(d.atm_id)}</b>:</p><table border="1"><tr><th>Card No</th><th>Txn No</th><th>Amount</th></tr><tr><td>${d.card_no}</td><td>${d.txt_no}</td><td>${d.amount}</td></tr></table><p>Regards</p>`,
        num_of_email: cat === 'same_subject' || cat === 'same_subject_processing' ? rng.int(2, 5) : 1,
        received_at: received.toISOString(),
        category: cat,
        is_read: cat !== 'ej_not_found' && rng.next() < 0.85,
        json_load_data: records,
        create_at: new Date(Math.min(now.getTime(), received.getTime() + rng.int(5, 600) * 1000)).toISOString(),
        update_at: new Date(Math.min(now.getTime(), received.getTime() + rng.int(600, 3600) * 1000)).toISOString(),
      };
    },
    options,
  );
  if (options.emails > 0) await insertHostileSample(db, now, options);
  const emailCount = (await maxId(db, 'emails')) - emailBase;
  const emailId = () => (emailCount > 0 ? emailBase + rng.int(1, emailCount) : null);

  const kinds = ['dispute', 'overage', 'succeeding'] as const;
  await insertBatches(
    db,
    'ej_records',
    {
      kind: 'text',
      atm_id: 'text',
      card_no: 'text',
      txt_no: 'text',
      transaction_date: 'date',
      transaction_amt: 'numeric',
      dispute_amt: 'numeric',
      overage: 'numeric',
      msp_remarks: 'text',
      msp_ref_no: 'text',
      short_desc_ej_error: 'text',
      ej_error: 'text',
      complaint_date: 'date',
      short_description: 'text',
      response_code: 'text',
      mail_received_from: 'text',
      mail_subject: 'text',
      bank_name: 'text',
      file_name: 'text',
      email_id: 'bigint',
    },
    options.ej,
    () => {
      const d = dispute(rng, now);
      const r = rng.next();
      const kind = r < 0.8 ? kinds[0] : r < 0.9 ? kinds[1] : kinds[2];
      const msp = rng.pick(seedMsps);
      return {
        kind,
        atm_id: d.atm_id,
        card_no: d.card_no,
        txt_no: d.txt_no,
        transaction_date: isoDate(d.date),
        transaction_amt: d.amount,
        dispute_amt: d.dispute_amt,
        overage: kind === 'overage' ? d.overage || 100 : d.overage,
        msp_remarks: d.msp_remarks,
        msp_ref_no: d.msp_ref_no,
        short_desc_ej_error: d.short_desc,
        ej_error: d.ej_error,
        complaint_date: isoDate(d.complaint),
        short_description: d.short_description,
        response_code: d.response_code,
        mail_received_from: `disputes@${msp.domain}`,
        mail_subject: `ATM dispute ${d.bank.code} ${d.atm_id}`,
        bank_name: d.bank.name,
        file_name: kind === 'dispute' ? '' : `${kind}_${d.bank.code}_${isoDate(d.date).replaceAll('-', '')}.txt`,
        email_id: emailId(),
      };
    },
    options,
  );

  // Each dispute record joins its dispute (a clock from the rules); most disputes whose clock
  // started over ten days ago were resolved some days after it started, about one in ten of them late.
  await db.execute(sql`select dispute_records_link(null)`);
  await db.execute(sql`
    update disputes set status = 'resolved',
      outcome = (array['credited', 'credited', 'rejected', 'other'])[1 + id % 4],
      stopped_on = clock_started_on + (case when id % 10 = 0 then 8 else id % 5 end)::int,
      status_reason = 'Resolved before the demo data was made', status_at = now()
    where clock_started_on < ${isoDate(now)}::date - 10 and id % 10 < 8`);

  const extension: Record<DataFileKind, string> = {
    text: 'txt',
    missing: 'txt',
    missing_txn: 'txt',
    between_successful: 'txt',
    excel: 'xlsx',
    pdf: 'pdf',
    other: 'zip',
  };
  for (const kind of dataFileKinds) {
    const fileBase = await maxId(db, 'data_files');
    const sizes: number[] = [];
    await insertBatches(
      db,
      'data_files',
      { kind: 'text', name: 'text', subject_name: 'text', email_id: 'bigint', create_at: 'timestamptz', update_at: 'timestamptz' },
      filesPerKind,
      (i) => {
        const bank = rng.pick(seedBanks);
        const created = randomInstant(rng, now);
        sizes.push(rng.int(5, 40));
        return {
          kind,
          name: `${kind}_${bank.code}_${isoDate(created).replaceAll('-', '')}_${i + 1}.${extension[kind]}`,
          subject_name: `${kind.replaceAll('_', ' ')} data ${bank.name} ${isoDate(created)}`,
          email_id: emailId(),
          create_at: created.toISOString(),
          update_at: new Date(Math.min(now.getTime(), created.getTime() + rng.int(1, 48) * 3600_000)).toISOString(),
        };
      },
      options,
    );
    if (options.fileRows === false) continue;
    const fileRows = sizes.flatMap((size, f) => Array.from({ length: size }, (_, p) => [fileBase + f + 1, p + 1] as const));
    await insertBatches(
      db,
      'data_file_rows',
      {
        data_file_id: 'bigint',
        position: 'int',
        atm_id: 'text',
        card_no: 'text',
        txt_no: 'text',
        txt_date: 'date',
        txt_amt: 'numeric',
        dispute_amt: 'numeric',
        overage: 'numeric',
        msp_remarks: 'text',
        msp_ref_no: 'text',
        short_desc: 'text',
        ej_error: 'text',
        complaint_date: 'date',
        short_description: 'text',
        mail_received_from: 'text',
        mail_subject: 'text',
        response_code: 'text',
      },
      fileRows.length,
      (i) => {
        const [fileId, position] = fileRows[i]!;
        const d = dispute(rng, now);
        return {
          data_file_id: fileId,
          position,
          atm_id: d.atm_id,
          card_no: d.card_no,
          txt_no: d.txt_no,
          txt_date: isoDate(d.date),
          txt_amt: d.amount,
          dispute_amt: d.dispute_amt,
          overage: d.overage,
          msp_remarks: d.msp_remarks,
          msp_ref_no: d.msp_ref_no,
          short_desc: d.short_desc,
          ej_error: d.ej_error,
          complaint_date: isoDate(d.complaint),
          short_description: d.short_description,
          mail_received_from: `disputes@${rng.pick(seedMsps).domain}`,
          mail_subject: `${kind.replaceAll('_', ' ')} data ${d.bank.name}`,
          response_code: d.response_code,
        };
      },
      options,
    );
  }
  // The value counts were upserted once per inserted batch, and their index carries the count
  // (INCLUDE n), so every upsert left a dead index entry: after 1,000,000 records the index was
  // 328 MB instead of 101, and a broad subject match read 12,694 pages instead of 279 (15 -> 5 ms).
  // A bulk load rebuilds it, as a bulk load of any database would.
  if (options.ej > 0) await db.execute(sql`reindex table ej_values`);
  if (filesPerKind > 0) await db.execute(sql`reindex table file_values`);
  // Fresh planner statistics: without them the first broad queries after a bulk load took 1.8 s.
  await db.execute(sql`analyze`);
}
