// A database at scale, generated in SQL (set-based, never row by row): `records` EJ records with
// their disputes, `records / 10` emails, as many data files, and `records` journal transactions in journals of 200
// (50 days of journals from records / 10,000 ATMs). The values follow the seed generator's
// distributions (src/seed.ts: eight banks of 2,500 ATMs, four MSPs, a year of transactions weighted
// towards recent months, 80% disputes), drawn from hashes of the row number instead of a JS PRNG.
// Each row is received in its month (create_at): the month partitions are made first, so every
// month is its own partition as in a desk that has run a year. The derived tables (value counts,
// id blocks, dispute counts) are kept by their own triggers, per statement; the secondary indexes
// of the tables written are dropped for the load and built again after, as a bulk load does.
import pg from 'pg';
import { seedBanks, seedErrors, seedMsps, seedRemarks, seedResponseCodes } from '@ejdesk/db/seed';

const banks = seedBanks.map((b) => [b.name, b.code, b.domain] as const);
const msps = seedMsps.map((m) => m.domain);

const array = (values: readonly string[]) => `array[${values.map((v) => pg.escapeLiteral(v)).join(', ')}]`;
/** A non-negative 31-bit hash of row i's k-th draw. */
const h = (i: string, k: number) => `(hashint8(${i} * 32 + ${k})::bigint & 2147483647)`;
/** Rows per statement: each one transaction, its derived tables applied from one transition table. */
const chunk = 1_000_000;
const perJournal = 200;
const journalDays = 50;
const journalStart = '2026-10-01';

const seconds = (started: number) => `${((Date.now() - started) / 1000).toFixed(0)} s`;

/**
 * The indexes of a table a bulk load may go without (built again after, with the same definitions):
 * neither a constraint's nor a unique one (ON CONFLICT and the keys need those while rows come in).
 */
async function secondaryIndexes(db: pg.Client, table: string): Promise<{ name: string; definition: string }[]> {
  return (
    await db.query<{ name: string; definition: string }>(
      `select indexname as name, indexdef as definition from pg_indexes
       where schemaname = 'public' and tablename = $1 and indexdef not like 'CREATE UNIQUE %'
         and indexname not in (select conname from pg_constraint where conrelid = $1::regclass)`,
      [table],
    )
  ).rows.map((index) => ({
    ...index,
    // A partitioned table's index reads "ON ONLY" (the parent alone, invalid until each partition
    // has its own): built again as the table's, it is built on every partition.
    definition: index.definition.replace(' ON ONLY ', ' ON '),
  }));
}

type Reference = { name: string; definition: string };

/** A table's foreign keys, dropped for a load: checked once for the whole table after it instead of row by row. */
async function dropReferences(db: pg.Client, table: string): Promise<Reference[]> {
  const references = (
    await db.query<Reference>(
      `select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint where conrelid = $1::regclass and contype = 'f'`,
      [table],
    )
  ).rows;
  for (const { name } of references) await db.query(`alter table ${pg.escapeIdentifier(table)} drop constraint ${pg.escapeIdentifier(name)}`);
  return references;
}

async function addReferences(db: pg.Client, table: string, references: Reference[]): Promise<void> {
  for (const { name, definition } of references) {
    await db.query(`alter table ${pg.escapeIdentifier(table)} add constraint ${pg.escapeIdentifier(name)} ${definition}`);
  }
}

/**
 * The tables a load writes, and the derived tables their triggers write: their secondary indexes
 * (the trigram ones most: a GIN insert per distinct card value) dropped for the load. The records'
 * tables are loaded on one connection, the others on a second.
 */
const recordTables = ['ej_records', 'ej_values', 'ej_counts'];
const mailTables = ['emails', 'email_subjects', 'email_subject_words', 'data_files', 'file_values', 'journal_transactions'];

/**
 * Runs statements taken from `queue` until it is empty. Connections given the same queue each take
 * the next statement when they have finished one: two index builds at a time keep both cores busy
 * (a trigram index is built by one process, and a table's partitions one after the other).
 */
async function takeEach(c: pg.Client, queue: string[]): Promise<void> {
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) await c.query(next);
}

const onEach = (connections: pg.Client[], statements: string[]) => {
  const queue = [...statements];
  return Promise.all(connections.map((c) => takeEach(c, queue)));
};

/**
 * Fills a freshly migrated database on two connections (the records on one while the mail, files
 * and journals load on the other; the index builds shared); prints each step's time.
 */
export async function seedScale(url: string, records: number, log: (line: string) => void = console.log): Promise<void> {
  const started = Date.now();
  const emails = Math.max(1, Math.floor(records / 10));
  const files = Math.max(7, Math.floor(records / 10));
  const transactions = records;
  const atms = Math.max(1, Math.round(transactions / (perJournal * journalDays)));
  const connections = [new pg.Client({ connectionString: url }), new pg.Client({ connectionString: url })];
  try {
    for (const c of connections) {
      await c.connect();
      await c.query(`set maintenance_work_mem = '1GB'`);
      await c.query(`set work_mem = '256MB'`);
    }
    await fill(connections as [pg.Client, pg.Client], { records, emails, files, atms }, started, log);
  } finally {
    await Promise.all(connections.map((c) => c.end()));
  }
}

type Sizes = { records: number; emails: number; files: number; atms: number };

async function fill([db, other]: [pg.Client, pg.Client], { records, emails, files, atms }: Sizes, started: number, log: (line: string) => void): Promise<void> {
  // The admin lists: each bank mapped to one or two MSPs, as the seed generator does.
  await db.query(
    `insert into bank_msps (msp, bank_name)
     select (${array(seedMsps.map((m) => m.name))})[1 + (b + x) % 4], (${array(banks.map((b) => b[0]))})[1 + b]
     from generate_series(0, 7) b, generate_series(0, 1) x where x = 0 or b % 3 = 0`,
  );
  // Every month of the year behind and the next: each its own partition before a row arrives.
  await db.query(
    `select month_partition(t, m::date) from unnest(array['ej_records', 'journal_transactions']) t,
       generate_series(date_trunc('month', now() at time zone 'UTC') - interval '13 months', date_trunc('month', now() at time zone 'UTC') + interval '1 month', interval '1 month') m`,
  );

  // The records' references to their email and file, checked once for the whole table after the
  // load instead of row by row (a tenth of the insert's time).
  const references = await dropReferences(db, 'ej_records');
  const dropIndexes = async (tables: string[]) => {
    const dropped: string[] = [];
    for (const table of tables) {
      const indexes = await secondaryIndexes(db, table);
      for (const { name } of indexes) await db.query(`drop index ${pg.escapeIdentifier(name)}`);
      dropped.push(...indexes.map((index) => index.definition));
    }
    // The trigram indexes first: the longest builds.
    return dropped.sort((a, b) => Number(b.includes('gin_trgm_ops')) - Number(a.includes('gin_trgm_ops')));
  };
  const recordIndexes = await dropIndexes(recordTables);
  const mailIndexes = await dropIndexes(mailTables);
  const built = recordIndexes.length + mailIndexes.length;

  // The records on one connection, the mail, files and journals on the other: no table is written
  // by both (data_versions keeps a row per connection). The second, done first, builds its own
  // tables' indexes and then shares the records'.
  const [emailBase] = (await db.query<{ n: string }>('select coalesce(max(id), 0) as n from emails')).rows;
  await Promise.all([
    (async () => {
      await loadRecords(db, records, emails, emailBase!.n, started, log);
      await takeEach(db, recordIndexes);
    })(),
    (async () => {
      await loadMail(other, { records, emails, files, atms }, emailBase!.n, started, log);
      await takeEach(other, mailIndexes);
      log(`  emails, files and journal transactions: indexes built, ${seconds(started)}`);
      await takeEach(other, recordIndexes);
    })(),
  ]);
  log(`  ${built} indexes built, ${seconds(started)}`);
  await addReferences(db, 'ej_records', references);
  log(`  ej_records: ${references.length} references checked, ${seconds(started)}`);
  await onEach(
    [db, other],
    ['ej_records', 'ej_values, ej_counts, journals', 'journal_transactions', 'emails, email_subjects, email_subject_words, data_files, file_values'].map(
      (tables) => `vacuum analyze ${tables}`,
    ),
  );
  log(`  vacuumed and analyzed, ${seconds(started)}`);
  await openDisputes([db, other], started, log);
  await linkRecords([db, other], started, log);
  await onEach([db, other], ['vacuum analyze dispute_records', 'vacuum analyze disputes, dispute_counts']);
  log(`  seeded in ${seconds(started)}`);
}

/** Emails, data files, journals and their transactions. */
async function loadMail(db: pg.Client, { emails, files, atms }: Sizes, emailBase: string, started: number, log: (line: string) => void): Promise<void> {
  // Emails: received over the last year, weighted to recent months as src/seed.ts's are, in the
  // order of their ids (as mail arrives; so are the files and records below).
  for (let from = 1; from <= emails; from += chunk) {
    const to = Math.min(emails, from + chunk - 1);
    await db.query(
      `insert into emails (message_id, email_from, email_to, subject, normalized_subject, email_body, email_body_html, num_of_email,
                           received_at, category, is_read, json_load_data, create_at, update_at)
       select '<scale-' || i || '@ejdesk.example>', 'disputes@' || case when ${h('i', 1)} % 10 < 6 then (${array(msps)})[1 + ${h('i', 2)} % 4] else domain end,
              'ej-desk@operations.example', subject, lower(subject),
              'Dear team,' || chr(10) || 'Please check the EJ for ATM ' || atm || ', txn ' || lpad((1000 + ${h('i', 3)} % 999000)::text, 6, '0') || '.' || chr(10) || 'Regards',
              '<p>Dear team,</p><p>Please check the EJ for ATM <b>' || atm || '</b></p><p>Regards</p>',
              case when category in ('same_subject', 'same_subject_processing') then 2 + ${h('i', 4)} % 4 else 1 end,
              received, category, category <> 'ej_not_found' and ${h('i', 5)} % 100 < 85,
              json_build_array(json_build_object('ATM ID', atm, 'Card No', '4' || lpad((${h('i', 6)} % 100000)::text, 5, '0') || 'XXXXXX' || lpad((${h('i', 7)} % 10000)::text, 4, '0'),
                                                 'Txn No', lpad((1000 + ${h('i', 3)} % 999000)::text, 6, '0'), 'Amount', (1 + ${h('i', 8)} % 200) * 100)),
              least(now(), received + (5 + ${h('i', 9)} % 600) * interval '1 second'), least(now(), received + (600 + ${h('i', 10)} % 3000) * interval '1 second')
       from (
         select i, b.domain, b.atm, case when c.category = 'ignored' then 'Newsletter ' else 'ATM dispute ' end || b.code || ' ' || b.atm || ' ' || to_char(received, 'YYYY-MM-DD') as subject,
                c.category, received
         from generate_series(${from}::bigint, ${to}::bigint) i
         cross join lateral (select now() - 365 * power(1 - (i - 0.5) / ${emails}::float8, 1.3) * interval '1 day' as received) r
         cross join lateral (select (${array(banks.map((b) => b[2]))})[1 + ${h('i', 13)} % 8] as domain, code, code || lpad((1 + ${h('i', 14)} % 2500)::text, 5, '0') as atm
                             from (select (${array(banks.map((b) => b[1]))})[1 + ${h('i', 13)} % 8] as code) c) b
         cross join lateral (select case when ${h('i', 15)} % 100 < 50 then 'processed' when ${h('i', 15)} % 100 < 65 then 'ej_not_found'
                                         when ${h('i', 15)} % 100 < 80 then 'same_subject' when ${h('i', 15)} % 100 < 90 then 'same_subject_processing' else 'ignored' end as category) c
       ) e`,
    );
    log(`  emails: ${to.toLocaleString('en')} of ${emails.toLocaleString('en')} in, ${seconds(started)}`);
  }

  // Data files: seven kinds alike, each a bank's file of a day in the last year.
  const kinds = ['text', 'missing', 'missing_txn', 'between_successful', 'excel', 'pdf', 'other'];
  const extensions = ['txt', 'txt', 'txt', 'txt', 'xlsx', 'pdf', 'zip'];
  await db.query(
    `insert into data_files (kind, name, subject_name, email_id, create_at, update_at)
     select (${array(kinds)})[1 + k], (${array(kinds)})[1 + k] || '_' || code || '_' || to_char(created, 'YYYYMMDD') || '_' || i || '.' || (${array(extensions)})[1 + k],
            replace((${array(kinds)})[1 + k], '_', ' ') || ' data ' || bank || ' ' || to_char(created, 'YYYY-MM-DD'),
            ${emailBase}::bigint + 1 + ${h('i', 1)} % ${emails}, created, least(now(), created + (1 + ${h('i', 2)} % 48) * interval '1 hour')
     from generate_series(1, ${files}) i
     cross join lateral (select (i % 7)::int as k, (${array(banks.map((b) => b[1]))})[1 + ${h('i', 3)} % 8] as code, (${array(banks.map((b) => b[0]))})[1 + ${h('i', 3)} % 8] as bank,
                                now() - 365 * power(1 - (i - 0.5) / ${files}::float8, 1.3) * interval '1 day' as created) f`,
  );
  log(`  data files: ${files.toLocaleString('en')} in, ${seconds(started)}`);
  await loadJournals(db, atms, started, log);
}

async function loadRecords(db: pg.Client, records: number, emails: number, emailBase: string, started: number, log: (line: string) => void): Promise<void> {
  // EJ records: 80% disputes, 10% overage, 10% succeeding; received (create_at) on the complaint's
  // day, up to ten days after the transaction.
  for (let from = 1; from <= records; from += chunk) {
    const to = Math.min(records, from + chunk - 1);
    await db.query(
      `insert into ej_records (kind, atm_id, card_no, txt_no, transaction_date, transaction_amt, dispute_amt, overage, msp_remarks, msp_ref_no,
                               short_desc_ej_error, ej_error, complaint_date, short_description, response_code, mail_received_from, mail_subject,
                               bank_name, file_name, email_id, create_at, update_at)
       select kind, atm, (400000 + ${h('i', 1)} % 160000)::text || 'XXXXXX' || lpad((${h('i', 2)} % 10000)::text, 4, '0'),
              lpad((1000 + ${h('i', 3)} % 999000)::text, 6, '0'), txn, amount,
              case when ${h('i', 4)} % 10 < 7 then amount else (1 + ${h('i', 5)} % (amount / 100)::int) * 100 end,
              case when kind = 'overage' or ${h('i', 6)} % 10 < 2 then (1 + ${h('i', 7)} % 50) * 100 else 0 end,
              (${array(seedRemarks)})[1 + ${h('i', 8)} % 6], 'REF' || (100000 + ${h('i', 9)} % 900000),
              (${array(seedErrors.map((e) => e[0]!))})[1 + err], (${array(seedErrors.map((e) => e[1]!))})[1 + err], complaint,
              lower((${array(seedErrors.map((e) => e[0]!))})[1 + err]) || ' at ATM', (${array(seedResponseCodes)})[1 + ${h('i', 10)} % 6],
              'disputes@' || (${array(msps)})[1 + ${h('i', 11)} % 4], 'ATM dispute ' || code || ' ' || atm, bank,
              case when kind = 'dispute' then '' else kind || '_' || code || '_' || to_char(txn, 'YYYYMMDD') || '.txt' end,
              ${emailBase}::bigint + 1 + ${h('i', 12)} % ${emails},
              received, received
       from (
         select i, b.code, b.bank, b.code || lpad((1 + ${h('i', 13)} % 2500)::text, 5, '0') as atm,
                d.received::date - (${h('i', 14)} % 11)::int as txn, d.received::date as complaint, d.received,
                ((1 + ${h('i', 16)} % 200) * 100)::numeric as amount, (${h('i', 17)} % 6)::int as err,
                case when ${h('i', 18)} % 10 < 8 then 'dispute' when ${h('i', 18)} % 10 = 8 then 'overage' else 'succeeding' end as kind
         from generate_series(${from}::bigint, ${to}::bigint) i
         cross join lateral (select (${array(banks.map((b) => b[1]))})[1 + ${h('i', 19)} % 8] as code, (${array(banks.map((b) => b[0]))})[1 + ${h('i', 19)} % 8] as bank) b
         -- Received in the order of the ids, as mail brings them: the year behind, weighted to recent
         -- months as the seed generator's dates are (an age of 365 * r^1.3 days for r uniform).
         cross join lateral (select now() - 365 * power(1 - (i - 0.5) / ${records}::float8, 1.3) * interval '1 day' as received) d
       ) r`,
    );
    log(`  EJ records: ${to.toLocaleString('en')} of ${records.toLocaleString('en')} in, ${seconds(started)}`);
  }
}

async function loadJournals(db: pg.Client, atms: number, started: number, log: (line: string) => void): Promise<void> {
  // Journals: 200 transactions each, one an ATM a day (every seventh with a dispense failure),
  // received the next morning; their transactions carry the journal's create_at.
  await db.query(
    `insert into journals (sha256, file_name, atm_id, day, family, line_count, size_bytes, transactions, anomalies, anomaly_kinds, source, create_at)
     select md5('scale' || a || '-' || d) || md5('journal' || a || '-' || d), 'EJ_BNC' || lpad(a::text, 5, '0') || '_' || to_char(date '${journalStart}' + d, 'YYYYMMDD') || '.txt',
            'BNC' || lpad(a::text, 5, '0'), date '${journalStart}' + d, (array['ncr', 'diebold', 'hyosung'])[1 + a % 3], ${perJournal * 22}, ${perJournal * 600}, ${perJournal},
            case when (a + d) % 7 = 0 then '[{"line": 120, "kind": "dispense_failure", "text": "UNABLE TO DISPENSE"}]'::jsonb else '[]'::jsonb end,
            case when (a + d) % 7 = 0 then array['dispense_failure'] when (a + d) % 11 = 0 then array['restart'] else '{}'::text[] end,
            'mail', (date '${journalStart}' + d + 1)::timestamp at time zone 'UTC' + interval '6 hours'
     from generate_series(1, ${atms}) a, generate_series(0, ${journalDays - 1}) d`,
  );
  const journalsPerChunk = Math.max(1, Math.floor(chunk / perJournal));
  const [{ first, last }] = (await db.query<{ first: string; last: string }>('select min(id) as first, max(id) as last from journals')).rows as [
    { first: string; last: string },
  ];
  for (let from = Number(first); from <= Number(last); from += journalsPerChunk) {
    const to = Math.min(Number(last), from + journalsPerChunk - 1);
    await db.query(
      `insert into journal_transactions (journal_id, seq, kind, atm_id, at, day, card_last4, rrn, stan, serial, response_code, requested_amount,
                                         presented, dispensed_amount, verdict, reason, line_from, line_to, evidence, create_at)
       select j.id, s, case when s % 9 = 0 then 'other' else 'withdrawal' end, j.atm_id, j.day + s * interval '4 minutes', j.day,
              lpad(((j.id * 7919 + s * 104729) % 10000)::text, 4, '0'), (600000000000 + j.id * 1000 + s)::text, lpad(((j.id * 1000 + s) % 1000000)::text, 6, '0'),
              s::text, '000', (s % 10 + 1) * 500, array[0, s % 10 + 1, 0, 0],
              case when s % 50 in (1, 2) then 0 else (s % 10 + 1) * 500 end,
              case when s % 9 = 0 then null when s % 50 = 1 then 'not_dispensed' when s % 50 = 2 then 'retracted' else 'dispensed' end,
              '', s * 22, s * 22 + 21, array[s * 22 + 12], j.create_at
       from journals j, generate_series(1, ${perJournal}) s
       where j.id between ${from} and ${to}`,
    );
    log(`  journal transactions: journals ${to - Number(first) + 1} of ${Number(last) - Number(first) + 1} in, ${seconds(started)}`);
  }
}

/**
 * The disputes, as dispute_records_link makes them for these records (each record's ATM,
 * transaction and card are set, so a dispute is one key's records, opened by the first), each
 * written once: its clock set in the insert by the rule that covers every bank (the only one a
 * fresh database has), and most of those whose clock started over ten days ago resolved, about one
 * in ten late (as src/seed.ts). Setting the clock and resolving after the insert wrote all
 * 8,000,000 disputes twice more (721 s of the seed at 10,000,000; 157 s written once).
 * dispute_clocks_refresh then finds each open dispute's clock already its rule's (the count it
 * changes is printed: 0).
 * The rule-set deadline triggers would compute each new dispute's clocks: off for the load, and
 * dispute_rule_deadlines_refresh(NULL) run once after it.
 */
async function openDisputes([db, other]: [pg.Client, pg.Client], started: number, log: (line: string) => void): Promise<void> {
  const deadlineTriggers = ['dispute_rule_deadlines_insert', 'dispute_rule_deadlines_update'];
  for (const name of deadlineTriggers) await db.query(`alter table disputes disable trigger ${name}`);
  const disputeIndexes = await secondaryIndexes(db, 'disputes');
  for (const { name } of disputeIndexes) await db.query(`drop index ${pg.escapeIdentifier(name)}`);
  // Sorted in memory (8,000,000 keys: under 1 GB), and written in the order of their first record,
  // as mail opens them: the primary key and the first record's unique index then grow at their
  // ends. In key order, each first record's entry went to a random page: 157 s instead of 71.
  await db.query(`set work_mem = '1GB'`);
  await db.query(
    `insert into disputes (atm_id, txt_no, card_no, bank_name, transaction_date, complaint_date, first_record_id,
                           rule_id, clock_started_on, due_date, penalty_per_day, currency, status, outcome, stopped_on, status_reason)
     with rule as (select * from tat_rules where scope = 'all' order by id limit 1),
     firsts as (
       select distinct on (atm_id, txt_no, card_no) atm_id, txt_no, card_no, bank_name, transaction_date, complaint_date, id
       from ej_records where kind = 'dispute' order by atm_id, txt_no, card_no, id
     ),
     clocked as (
       select f.*, rule.id as rule_id, coalesce(rule.penalty_per_day, 0) as penalty_per_day, coalesce(rule.currency, '') as currency,
              case rule.clock_start when 'complaint_date' then f.complaint_date when 'transaction_date' then f.transaction_date end as started,
              -- Resolved: most of those whose clock started over ten days ago.
              f.id % 10 < 8 as resolved
       from firsts f left join rule on true
     ),
     dues as (
       select s.started, tat_due_date(s.started, rule.days, rule.day_kind = 'working', rule.holidays) as due
       from (select distinct started from clocked where started is not null) s, rule
     )
     select c.atm_id, c.txt_no, c.card_no, c.bank_name, c.transaction_date, c.complaint_date, c.id,
            c.rule_id, c.started, dues.due, c.penalty_per_day, c.currency,
            case when closed then 'resolved' else 'open' end,
            case when closed then (array['credited', 'credited', 'rejected', 'other'])[1 + c.id % 4] end,
            case when closed then c.started + (case when c.id % 10 = 0 then 8 else c.id % 5 end)::int end,
            case when closed then 'Resolved before the bench data was made' else '' end
     from clocked c left join dues on dues.started = c.started
     cross join lateral (select c.resolved and c.started < current_date - 10 as closed) r
     order by c.id`,
  );
  await db.query(`set work_mem = '256MB'`);
  await db.query('analyze disputes');
  const [{ changed }] = (await db.query<{ changed: number }>('select dispute_clocks_refresh(null) as changed')).rows as [{ changed: number }];
  log(`  disputes opened, their clocks set and most resolved (${changed} clocks then changed by their rules), ${seconds(started)}`);
  await onEach(
    [db, other],
    disputeIndexes.map((index) => index.definition),
  );
  log(`  disputes: ${disputeIndexes.length} indexes built, ${seconds(started)}`);
  for (const name of deadlineTriggers) await db.query(`alter table disputes enable trigger ${name}`);
  await db.query('select dispute_rule_deadlines_refresh(null)');
  log(`  rule-set deadlines set, ${seconds(started)}`);
}

/**
 * The links, each with its dispute's clock and its record's date, bank and sender: the copies
 * dispute_record_fill takes row by row (three key lookups each), taken here by one join; the
 * dispute's journal verdict is null (no journal evidence yet). Its indexes and its reference to
 * disputes are made after, over the whole table.
 */
async function linkRecords([db, other]: [pg.Client, pg.Client], started: number, log: (line: string) => void): Promise<void> {
  const links = await secondaryIndexes(db, 'dispute_records');
  for (const { name } of links) await db.query(`drop index ${pg.escapeIdentifier(name)}`);
  const linkReferences = await dropReferences(db, 'dispute_records');
  await db.query('alter table dispute_records disable trigger dispute_record_fill');
  await db.query(
    `insert into dispute_records (record_id, dispute_id, open, due_date, clock_started_on, penalty_per_day, currency, settled_penalty,
                                  next_deadline, transaction_date, bank_name, mail_received_from)
     select r.id, d.id, d.status <> 'resolved', d.due_date, d.clock_started_on, d.penalty_per_day, d.currency,
            case when d.status = 'resolved' then coalesce(greatest(0, d.stopped_on - d.due_date), 0) * d.penalty_per_day end,
            d.next_deadline, r.transaction_date, r.bank_name, r.mail_received_from
     from ej_records r join disputes d on d.atm_id = r.atm_id and d.txt_no = r.txt_no and d.card_no = r.card_no
     where r.kind = 'dispute'`,
  );
  await db.query('alter table dispute_records enable trigger dispute_record_fill');
  log(`  dispute records linked, ${seconds(started)}`);
  await onEach(
    [db, other],
    links.map((index) => index.definition),
  );
  await addReferences(db, 'dispute_records', linkReferences);
  log(`  dispute_records: ${links.length} indexes built, ${seconds(started)}`);
}
