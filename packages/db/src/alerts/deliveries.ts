// The alerts' outbox. Planning makes the warnings and digests due now, each once whatever number of
// workers plan at the same moment (the unique keys: a second insert does nothing). Sending claims a
// few at a time for a lease (FOR UPDATE SKIP LOCKED: no two workers hold one), and a lease that
// lapses (its worker died mid-send) is claimed again; a failure is retried with backoff, then the
// delivery is marked failed with the last answer. Working hours are checked at both ends.
import { sql, type SQL } from 'drizzle-orm';
import { type Db, queryRows } from '../client.ts';

/** Whether now is within the rule `r`'s working hours, in its time zone. */
const inWorkingHours = (r: SQL) => sql`(
  extract(isodow from now() at time zone ${r}.time_zone)::smallint = any(${r}.weekdays)
  and extract(hour from now() at time zone ${r}.time_zone) >= ${r}.hours_from
  and extract(hour from now() at time zone ${r}.time_zone) < ${r}.hours_to)`;

/**
 * Makes the warnings due now: for each active rule in its working hours, every open clock it watches
 * (the TAT rule's, and the rule sets' of the dispute's network) due from today to `days_before`
 * days on, in the rule's time zone, to the dispute's owner and the rule's addresses (email) or to
 * its webhook. Returns how many were new. A dispute's rule-set clocks are computed only when its
 * nearest one (rule_deadline, stored) is due within the horizon: no other can be.
 */
export async function planWarnings(db: Db): Promise<number> {
  const [made] = await queryRows<{ n: number }>(
    db,
    sql`with rules as (
          select r.*, (now() at time zone r.time_zone)::date as today from alert_rules r where r.active and ${inWorkingHours(sql`r`)}
        ), horizon as (
          select min(today) as first_day, max(today + days_before) as last_day from rules
        ), clocks as (
          select d.id as dispute_id, 'tat' as clock_key, t.name as clock_name, d.due_date as due_on, d.owner_id
          from horizon h join disputes d on d.due_date between h.first_day and h.last_day and d.status <> 'resolved'
          join tat_rules t on t.id = d.rule_id
          union all
          select d.id, c.clock_key, c.clock_name, c.due_on, d.owner_id
          from horizon h join disputes d on d.status <> 'resolved' and d.rule_deadline <= h.last_day
          cross join lateral dispute_rule_clocks(d.id) c
          where c.stopped_on is null and c.due_on between h.first_day and h.last_day
        ), wanted as (
          select r.id as rule_id, c.dispute_id, c.clock_key, c.clock_name, c.due_on, r.channel, x.recipient
          from rules r
          join clocks c on (cardinality(r.clocks) = 0 or c.clock_key = any (r.clocks)) and c.due_on between r.today and r.today + r.days_before
          cross join lateral (
            select r.webhook_url as recipient where r.channel = 'webhook'
            union select u.email from users u where r.channel = 'email' and r.to_owner and u.id = c.owner_id and u.is_active
            union select a from unnest(r.to_addresses) a where r.channel = 'email'
          ) x
        ), made as (
          insert into alert_deliveries (kind, rule_id, dispute_id, clock_key, clock_name, due_on, channel, recipient)
          select 'warning', rule_id, dispute_id, clock_key, clock_name, due_on, channel, recipient from wanted
          on conflict (rule_id, dispute_id, clock_key, due_on, recipient) where kind = 'warning' do nothing
          returning 1
        )
        select count(*)::int as n from made`,
  );
  return made?.n ?? 0;
}

/** The open clocks of each owner's disputes due `today` (they breach at its end): the digest's lines. */
const dueToday = (today: SQL, owner: SQL | null) => sql`
  select d.id as dispute_id, d.atm_id, d.txt_no, d.bank_name, d.owner_id, 'tat' as clock_key, t.name as clock_name
  from disputes d join tat_rules t on t.id = d.rule_id
  where d.status <> 'resolved' and d.due_date = ${today} and d.owner_id is not null ${owner ? sql`and d.owner_id = ${owner}` : sql``}
  union all
  select d.id, d.atm_id, d.txt_no, d.bank_name, d.owner_id, c.clock_key, c.clock_name
  from disputes d cross join lateral dispute_rule_clocks(d.id) c
  where d.status <> 'resolved' and d.owner_id is not null ${owner ? sql`and d.owner_id = ${owner}` : sql``}
    and d.rule_deadline <= ${today} and c.stopped_on is null and c.due_on = ${today}`;

/**
 * Makes today's digests once `digestHour` has come (in `timeZone`, every day: clocks run on weekends): one per owner
 * with a clock that breaches at the end of today. What it lists is read when it is sent.
 */
export async function planDigests(db: Db, timeZone: string, digestHour: number): Promise<number> {
  const today = sql`(now() at time zone ${timeZone})::date`;
  const [made] = await queryRows<{ n: number }>(
    db,
    sql`with owners as (
          select distinct u.email from (${dueToday(today, null)}) c join users u on u.id = c.owner_id and u.is_active
          where extract(hour from now() at time zone ${timeZone}) >= ${digestHour}
        ), made as (
          insert into alert_deliveries (kind, due_on, channel, recipient)
          select 'digest', ${today}, 'email', email from owners
          on conflict (recipient, due_on) where kind = 'digest' do nothing
          returning 1
        )
        select count(*)::int as n from made`,
  );
  return made?.n ?? 0;
}

export interface ClaimedDelivery {
  id: number;
  kind: 'warning' | 'digest';
  channel: 'email' | 'webhook';
  recipient: string;
  attempts: number;
  clock_key: string;
  clock_name: string;
  due_on: string;
  rule_id: number | null;
  rule_name: string | null;
  days_before: number | null;
  webhook_secret_encrypted: Buffer | null;
  dispute_id: number | null;
  atm_id: string | null;
  txt_no: string | null;
  bank_name: string | null;
}

/**
 * Takes up to `limit` deliveries to send for `leaseSeconds`: due ones, and those whose lease lapsed
 * (their worker died), in their rule's working hours. No other worker can take them meanwhile.
 */
export async function claimDeliveries(db: Db, worker: string, leaseSeconds: number, limit = 10): Promise<ClaimedDelivery[]> {
  return queryRows<ClaimedDelivery>(
    db,
    sql`with taken as (
          update alert_deliveries d set status = 'sending', lease_until = now() + make_interval(secs => ${leaseSeconds}), leased_by = ${worker},
            attempts = d.attempts + 1
          where d.id in (
            select a.id from alert_deliveries a left join alert_rules r on r.id = a.rule_id
            where ((a.status = 'pending' and a.next_attempt_at <= now()) or (a.status = 'sending' and a.lease_until < now()))
              and (a.kind = 'digest' or (r.active and ${inWorkingHours(sql`r`)}))
            order by a.next_attempt_at, a.id limit ${limit}
            for update of a skip locked)
          returning d.*
        )
        select t.id::float8 as id, t.kind, t.channel, t.recipient, t.attempts, t.clock_key, t.clock_name, t.due_on::text as due_on,
               t.rule_id, r.name as rule_name, r.days_before, r.webhook_secret_encrypted,
               t.dispute_id::float8 as dispute_id, d.atm_id, d.txt_no, d.bank_name
        from taken t left join alert_rules r on r.id = t.rule_id left join disputes d on d.id = t.dispute_id
        order by t.id`,
  );
}

/** A delivery sent: what the relay or the webhook answered. Only its holder may say so. */
export async function markSent(db: Db, id: number, worker: string, answer: string): Promise<void> {
  await db.execute(
    sql`update alert_deliveries set status = 'sent', sent_at = now(), lease_until = null, last_answer = ${answer.slice(0, 500)}
        where id = ${id} and leased_by = ${worker} and status = 'sending'`,
  );
}

/** A delivery that failed: tried again after `retrySeconds` doubling each time, failed for good after `maxAttempts`. */
export async function markFailed(db: Db, id: number, worker: string, answer: string, retrySeconds: number, maxAttempts: number): Promise<void> {
  await db.execute(
    sql`update alert_deliveries set status = case when attempts >= ${maxAttempts} then 'failed' else 'pending' end,
          next_attempt_at = now() + make_interval(secs => ${retrySeconds} * power(2, attempts - 1)), lease_until = null,
          last_answer = ${answer.slice(0, 500)}
        where id = ${id} and leased_by = ${worker} and status = 'sending'`,
  );
}

export interface DigestLine {
  dispute_id: number;
  atm_id: string;
  txt_no: string;
  bank_name: string;
  clock_name: string;
}

/** What breaches at the end of `day` among the disputes of the account with this email: a digest's lines. */
export async function digestLines(db: Db, email: string, day: string): Promise<DigestLine[]> {
  return queryRows<DigestLine>(
    db,
    sql`select c.dispute_id::float8 as dispute_id, c.atm_id, c.txt_no, c.bank_name, c.clock_name
        from users u cross join lateral (${dueToday(sql`${day}::date`, sql`u.id`)}) c
        where lower(u.email) = lower(${email})
        order by c.dispute_id, c.clock_name`,
  );
}

export interface DeliveryRow {
  id: number;
  kind: string;
  rule_name: string | null;
  dispute_id: number | null;
  atm_id: string | null;
  txt_no: string | null;
  clock_name: string;
  due_on: string;
  channel: string;
  recipient: string;
  status: string;
  attempts: number;
  last_answer: string;
  next_attempt_at: Date;
  sent_at: Date | null;
  create_at: Date;
}

/** The deliveries, newest first, a page at a time: what was sent to whom, and what the other end answered. */
export async function listDeliveries(db: Db, page: { page: number; pageSize: number }, status?: string): Promise<{ count: number; rows: DeliveryRow[] }> {
  const where = status ? sql`where a.status = ${status}` : sql``;
  const [total] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from alert_deliveries a ${where}`);
  const rows = await queryRows<DeliveryRow>(
    db,
    sql`select a.id::float8 as id, a.kind, r.name as rule_name, a.dispute_id::float8 as dispute_id, d.atm_id, d.txt_no, a.clock_name, a.due_on::text as due_on,
               a.channel, a.recipient, a.status, a.attempts, a.last_answer, a.next_attempt_at, a.sent_at, a.create_at
        from alert_deliveries a left join alert_rules r on r.id = a.rule_id left join disputes d on d.id = a.dispute_id
        ${where}
        order by a.id desc limit ${page.pageSize} offset ${(page.page - 1) * page.pageSize}`,
  );
  return { count: total?.n ?? 0, rows };
}

/**
 * Renews this worker's hold on a delivery just before sending it: false when the hold lapsed and
 * another worker may have it (then this one must not send it).
 */
export async function holdDelivery(db: Db, id: number, worker: string, leaseSeconds: number): Promise<boolean> {
  const held = await queryRows<{ id: number }>(
    db,
    sql`update alert_deliveries set lease_until = now() + make_interval(secs => ${leaseSeconds})
        where id = ${id} and leased_by = ${worker} and status = 'sending' returning id::float8 as id`,
  );
  return held.length > 0;
}

/** Warnings no longer due (their dispute resolved, or their rule deleted, since they were made) are not sent: marked failed, saying why. */
export async function retireStaleWarnings(db: Db): Promise<void> {
  await db.execute(
    sql`update alert_deliveries a set status = 'failed', lease_until = null, last_answer = 'Not sent: the dispute was resolved before it went out.'
        from disputes d
        where d.id = a.dispute_id and d.status = 'resolved' and a.kind = 'warning' and a.status = 'pending'`,
  );
  await db.execute(
    sql`update alert_deliveries set status = 'failed', lease_until = null, last_answer = 'Not sent: its alert rule was deleted before it went out.'
        where kind = 'warning' and rule_id is null and status = 'pending'`,
  );
}
