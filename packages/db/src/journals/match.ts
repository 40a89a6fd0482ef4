// Each dispute's journal transaction: by its transaction number (the journal's RRN, STAN or own
// serial, on the dispute's ATM, within a day of its date), else by the card's last four digits,
// the amount and the day on its ATM where exactly one withdrawal fits. Several candidates are
// ambiguous and give no verdict: a near twin (the same card and amount a minute later, dispensed)
// never takes a failed one's place.
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../client.ts';
import type { EvidenceMatch } from './schema.ts';

/**
 * Held while matching, until the transaction ends: the lock dispute_records_link takes, so that a
 * journal received while a complaint is linked sees it once that commits, and the other way round.
 */
export const matchLock = sql`select pg_advisory_xact_lock(hashtext('dispute_records_link'))`;

export type MatchTarget = { journalIds: number[] } | { disputeIds: number[] } | { emailId: number };

export interface MatchedDispute {
  disputeId: number;
  match: EvidenceMatch | null;
  verdict: string | null;
  transactionId: number | null;
}

/**
 * The disputes a journal may answer: on its ATMs within a day of its days (or undated), and those
 * without an ATM holding one of its numbers. Each ATM's day is looked up on its own in
 * disputes' (atm_id, transaction_date) index.
 */
async function disputesOfJournals(db: Db, ids: number[]): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`with j as materialized (select distinct atm_id, day from journal_transactions where journal_id = any(${sql.param(ids)}::bigint[]) and atm_id is not null)
        select d.id::float8 as id from j cross join lateral (
          select id from disputes where atm_id = j.atm_id and transaction_date between j.day - 1 and j.day + 1
          union all
          select id from disputes where atm_id = j.atm_id and transaction_date is null
        ) d
        union
        select d.id::float8 from journal_transactions t join disputes d on d.atm_id = '' and d.txt_no = t.rrn where t.journal_id = any(${sql.param(ids)}::bigint[])
        union
        select d.id::float8 from journal_transactions t join disputes d on d.atm_id = '' and d.txt_no = t.stan where t.journal_id = any(${sql.param(ids)}::bigint[])`,
  );
  return rows.map((r) => r.id);
}

/** Disputes per matching statement: each is planned for its own few (a nested loop over indexes). */
const MATCH_BATCH = 2000;

/** Withdrawals a dispute may be about: its continuation parts are matched through their first part. */
const eligible = sql`t.kind = 'withdrawal' and t.joined_to is null`;
/** On the dispute's ATM when it has one, within a day of its transaction date when it has one. */
const near = sql`(d.atm_id = '' or t.atm_id = d.atm_id) and (d.transaction_date is null or t.day between d.transaction_date - 1 and d.transaction_date + 1)`;

/**
 * Match disputes to journal transactions and write their evidence (one row per dispute): those a
 * journal may answer, the ones given, or an email's. A dispute with no journal of its ATM and day
 * has no row (its row is removed if a journal it matched is gone). The rows written, by dispute.
 */
export async function matchDisputes(db: Db, target: MatchTarget): Promise<MatchedDispute[]> {
  const ids =
    'journalIds' in target
      ? target.journalIds.length
        ? await disputesOfJournals(db, target.journalIds)
        : []
      : 'disputeIds' in target
        ? target.disputeIds
        : (
            await queryRows<{ id: number }>(
              db,
              sql`select distinct l.dispute_id::float8 as id from ej_records r join dispute_records l on l.record_id = r.id
                  where r.email_id = ${target.emailId} and r.kind = 'dispute'`,
            )
          ).map((r) => r.id);
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const matched: MatchedDispute[] = [];
  for (let at = 0; at < sorted.length; at += MATCH_BATCH) matched.push(...(await matchBatch(db, sorted.slice(at, at + MATCH_BATCH))));
  return matched;
}

async function matchBatch(db: Db, ids: number[]): Promise<MatchedDispute[]> {
  const rows = await queryRows<{ dispute_id: number; match: EvidenceMatch | null; verdict: string | null; transaction_id: number | null }>(
    db,
    sql`with d as materialized (
          -- A journal prints its serial as it counts (TXN SN NO=985, TXN NO : 0985) and a complaint
          -- as its sender pads it: compared as a number. A STAN is six digits, its zeros often dropped.
          select d.id, d.atm_id, d.txt_no, d.transaction_date, nullif(ltrim(d.txt_no, '0'), '') as serial,
                 right(regexp_replace(d.card_no, '[^0-9]', '', 'g'), 4) as last4,
                 (select coalesce(r.transaction_amt, r.dispute_amt) from ej_records r where r.id = d.first_record_id) as amount
          from disputes d where d.id = any(${sql.param(ids)}::bigint[])
        ), found as (
          select d.id, n.how, n.ids as by_number, c.ids as by_card,
                 exists (select 1 from journals j where j.atm_id = d.atm_id and j.day between d.transaction_date - 1 and d.transaction_date)
                   or exists (select 1 from journal_transactions t where t.atm_id = d.atm_id and t.day = d.transaction_date) as covered
          from d
          left join lateral (
            select how, array_agg(distinct id) as ids from (
              select t.id, 1 as how from journal_transactions t where d.txt_no <> '' and t.rrn = d.txt_no and ${eligible} and ${near}
              union all
              select t.id, 2 from journal_transactions t where d.txt_no <> '' and t.stan in (d.txt_no, lpad(d.txt_no, greatest(6, length(d.txt_no)), '0')) and ${eligible} and ${near}
              union all
              select t.id, 3 from journal_transactions t
              where d.txt_no <> '' and d.atm_id <> '' and t.atm_id = d.atm_id and t.serial in (d.txt_no, d.serial, lpad(d.serial, greatest(4, length(d.serial)), '0'), lpad(d.serial, greatest(6, length(d.serial)), '0'))
                and ${eligible} and ${near}
            ) n group by how order by how limit 1
          ) n on true
          left join lateral (
            select array_agg(t.id) as ids from journal_transactions t
            where length(d.last4) = 4 and d.amount is not null and d.transaction_date is not null and d.atm_id <> ''
              and t.atm_id = d.atm_id and t.day = d.transaction_date and t.card_last4 = d.last4 and t.requested_amount = d.amount and ${eligible}
          ) c on true
        ), decided as (
          select id,
                 case when cardinality(by_number) = 1 then by_number[1] when by_number is null and cardinality(by_card) = 1 then by_card[1] end as transaction_id,
                 case when cardinality(by_number) = 1 then (array['rrn', 'stan', 'serial'])[how]
                      when cardinality(by_number) > 1 or cardinality(by_card) > 1 then 'ambiguous'
                      when cardinality(by_card) = 1 then 'card_amount_day'
                      when covered then 'none' end as match,
                 coalesce(cardinality(by_number), cardinality(by_card), 0) as candidates
          from found
        ), gone as (
          delete from dispute_evidence e using decided x where e.dispute_id = x.id and x.match is null
        ), written as (
          insert into dispute_evidence (dispute_id, transaction_id, verdict, match, candidates, dispensed_amount, matched_at)
          select x.id, x.transaction_id, t.verdict, x.match, x.candidates, t.dispensed_amount, now()
          from decided x left join journal_transactions t on t.id = x.transaction_id
          where x.match is not null
          order by x.id
          on conflict (dispute_id) do update set transaction_id = excluded.transaction_id, verdict = excluded.verdict, match = excluded.match,
            candidates = excluded.candidates, dispensed_amount = excluded.dispensed_amount, matched_at = excluded.matched_at
          returning dispute_id, match, verdict, transaction_id
        )
        select dispute_id::float8 as dispute_id, match, verdict, transaction_id::float8 as transaction_id from written
        union all
        select id::float8, null, null, null from decided where match is null
        order by 1`,
  );
  return rows.map((r) => ({ disputeId: r.dispute_id, match: r.match, verdict: r.verdict, transactionId: r.transaction_id }));
}
