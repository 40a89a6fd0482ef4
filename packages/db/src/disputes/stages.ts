// A dispute's stage and its clocks. The mail moves the stage on where a row says so (never back);
// an operator sets it with a note, back too. A resolved dispute is closed: closing is resolving
// (with the outcome and who bears the cost), and a dispute opened again is back at its stage. The
// clocks are the TAT rule's (with its penalty) and the rule sets' of its network
// (dispute_rule_clocks in functions.sql), read for the day asked, the running ones first.
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../client.ts';
import { RuleProblem } from '../refusals.ts';
import { type CostBearer, costBearers, type DisputeOutcome, disputeOutcomes, type DisputeStage, disputeStages, stageRank } from './schema.ts';
import { type Operator, setDisputeStatus } from './status.ts';

/** What a row's words say of the stage, the furthest first ("pre-arb" before "arbitration"). */
const stageWords: [DisputeStage, RegExp][] = [
  ['arbitration', /(?<!pre[\s-]?)\barbitration\b/i],
  ['pre_arbitration', /\bpre[\s-]?arb(?:itration)?\b/i],
  ['accepted', /\b(?:charge\s?back\s+(?:is\s+|was\s+|has\s+been\s+)?accepted|accepted\s+(?:the\s+)?charge\s?back|credit\s+adjust(?:ment|ed))\b/i],
  ['representment', /\b(?:re-?present(?:ment|ed)|represent(?:ment|ed))\b/i],
  [
    'chargeback_raised',
    /\b(?:charge\s?back\s+(?:is\s+|was\s+|has\s+been\s+)?(?:raised|lodged|filed|initiated)|(?:raised|lodged|filed)\s+(?:a\s+|the\s+)?charge\s?back)\b/i,
  ],
];

/** The stage a row's remarks say the dispute reached, with the words, or null. */
export function stageOfWords(words: string): { stage: DisputeStage; said: string } | null {
  for (const [stage, pattern] of stageWords) {
    const found = pattern.exec(words);
    if (found) return { stage, said: found[0] };
  }
  return null;
}

/** The network a row's words name (RuPay and NFS are NPCI's), or null. */
export function networkOfWords(words: string): string | null {
  if (/\b(?:NFS|RuPay)\b/i.test(words)) return 'NFS';
  if (/\bVisa\b/i.test(words)) return 'Visa';
  if (/\b(?:Mastercard|Master\s+card)\b/i.test(words)) return 'Mastercard';
  return null;
}

export interface MailStage {
  stage: DisputeStage;
  reason: string;
}

/**
 * Moves disputes on to the stages their rows said (the furthest of each), never back, never a
 * resolved one (closed is the last stage), and never one whose stage an operator set; the day each was entered is the message's day. Sets the
 * network where none is known yet. A history event each, named by the message.
 */
export async function applyMailStages(tx: Db, emailId: number, day: string, stages: Map<number, MailStage>, networks: Map<number, string>): Promise<void> {
  if (networks.size) {
    await tx.execute(sql`
      update disputes d set network = v.network, update_at = now()
      from unnest(${sql.param([...networks.keys()])}::bigint[], ${sql.param([...networks.values()])}::text[]) as v(id, network)
      where d.id = v.id and d.network = ''`);
  }
  if (!stages.size) return;
  const ids = [...stages.keys()];
  const list = ids.map((id) => stages.get(id)!);
  const ranks = sql.param(disputeStages.map((s) => stageRank[s]));
  const rankOf = (stage: ReturnType<typeof sql>) => sql`(${ranks}::int[])[array_position(${sql.param([...disputeStages])}::text[], ${stage})]`;
  await tx.execute(sql`
    with v as (
      select * from unnest(${sql.param(ids)}::bigint[], ${sql.param(list.map((s) => s.stage))}::text[], ${sql.param(list.map((s) => s.reason))}::text[])
        as v(id, stage, reason)
    ), moved as (
      update disputes d set stage = v.stage, update_at = now()
      from v
      where d.id = v.id and d.status <> 'resolved' and ${rankOf(sql`v.stage`)} > ${rankOf(sql`d.stage`)}
        -- An operator's stage wins, as an operator's status does: later mail no longer moves it.
        and not exists (select 1 from dispute_events e where e.dispute_id = d.id and e.stage is not null and e.source = 'operator')
      returning d.id, d.stage, d.status, d.outcome, v.reason
    ), entered as (
      insert into dispute_stages (dispute_id, stage, entered_on) select id, stage, ${day}::date from moved
      on conflict (dispute_id, stage) do update set entered_on = excluded.entered_on
    )
    insert into dispute_events (dispute_id, source, status, outcome, reason, email_id, stage)
    select id, 'mail', status, outcome, reason, ${emailId}, stage from moved`);
}

export interface StageChange {
  stage: DisputeStage;
  note: string;
  outcome: DisputeOutcome | null;
  costBearer: CostBearer | null;
}

/** The checked stage change, or a RuleProblem: closed needs an outcome and who bears the cost, and only it does. */
export function checkStageChange(value: { stage?: unknown; note?: unknown; outcome?: unknown; cost_bearer?: unknown }): StageChange {
  const stage = value.stage as DisputeStage;
  if (!disputeStages.includes(stage)) throw new RuleProblem(`stage must be one of ${disputeStages.join(', ')}`);
  const note = typeof value.note === 'string' ? value.note.trim() : '';
  if (!note || note.length > 2000) throw new RuleProblem('note must say why, in 1 to 2000 characters');
  const outcome = (value.outcome ?? null) as DisputeOutcome | null;
  const costBearer = (value.cost_bearer ?? null) as CostBearer | null;
  if (stage === 'closed') {
    if (!disputeOutcomes.includes(outcome as DisputeOutcome))
      throw new RuleProblem(`outcome must be one of ${disputeOutcomes.join(', ')} when the stage is closed`);
    if (!costBearers.includes(costBearer as CostBearer)) throw new RuleProblem(`cost_bearer must be one of ${costBearers.join(', ')} when the stage is closed`);
  } else if (outcome !== null || costBearer !== null) {
    throw new RuleProblem('outcome and cost_bearer are given only when the stage is closed');
  }
  return { stage, note, outcome, costBearer };
}

/**
 * An operator sets a dispute's stage, in one transaction. Closed resolves it (the status change,
 * with its history and undo) and says who bears the cost. Another stage opens a closed dispute
 * again first; a stage further back forgets the days of the stages after it (their clocks had not
 * really started). A history event and an audit entry each. False when there is no such dispute.
 */
export async function setDisputeStage(db: Db, id: number, change: StageChange, by: Operator, today: string): Promise<boolean> {
  return db.transaction(async (trx) => {
    const tx = trx as unknown as Db;
    const [dispute] = await queryRows<{ stage: DisputeStage; status: string }>(tx, sql`select stage, status from disputes where id = ${id} for update`);
    if (!dispute) return false;
    if (change.stage === 'closed') {
      await setDisputeStatus(tx, { ids: [id] }, { status: 'resolved', outcome: change.outcome, note: change.note }, by, today);
      await tx.execute(sql`update disputes set cost_bearer = ${change.costBearer}, update_at = now() where id = ${id}`);
    } else {
      if (dispute.status === 'resolved') await setDisputeStatus(tx, { ids: [id] }, { status: 'open', outcome: null, note: change.note }, by, today);
      const later = disputeStages.filter((s) => s !== 'closed' && stageRank[s] > stageRank[change.stage]);
      await tx.execute(sql`delete from dispute_stages where dispute_id = ${id} and stage in (select unnest(${sql.param(later)}::text[]))`);
      if (change.stage !== 'complaint')
        await tx.execute(
          sql`insert into dispute_stages (dispute_id, stage, entered_on) values (${id}, ${change.stage}, ${today}::date)
              on conflict (dispute_id, stage) do update set entered_on = excluded.entered_on`,
        );
      await tx.execute(sql`update disputes set stage = ${change.stage}, cost_bearer = null, update_at = now() where id = ${id}`);
    }
    const [now] = await queryRows<{ status: string; outcome: string | null }>(tx, sql`select status, outcome from disputes where id = ${id}`);
    await tx.execute(
      sql`insert into dispute_events (dispute_id, source, user_id, actor, status, outcome, reason, note, stage)
          values (${id}, 'operator', ${by.id}, ${by.email}, ${now!.status}, ${now!.outcome}, ${`Stage set to ${change.stage.replace('_', ' ')}${change.costBearer ? `, cost borne by the ${change.costBearer}` : ''}`}, ${change.note}, ${change.stage})`,
    );
    await tx.execute(
      sql`insert into audit_log (user_id, action, entity, entity_id, detail)
          values (${by.id}, 'stage', 'dispute', ${String(id)}, ${`${dispute.status === 'resolved' ? 'closed' : dispute.stage} -> ${change.stage}${change.costBearer ? ` (cost: ${change.costBearer})` : ''}: ${change.note}`})`,
    );
    return true;
  });
}

/** Sets the network whose rule sets a dispute runs ('' for none known); audited. False when there is no such dispute. */
export async function setDisputeNetwork(db: Db, id: number, network: string, by: Operator): Promise<boolean> {
  return db.transaction(async (trx) => {
    const tx = trx as unknown as Db;
    const [before] = await queryRows<{ network: string }>(tx, sql`select network from disputes where id = ${id} for update`);
    if (!before) return false;
    if (before.network === network) return true;
    await tx.execute(sql`update disputes set network = ${network}, update_at = now() where id = ${id}`);
    await tx.execute(
      sql`insert into audit_log (user_id, action, entity, entity_id, detail)
          values (${by.id}, 'network', 'dispute', ${String(id)}, ${`${before.network || 'none'} -> ${network || 'none'}`})`,
    );
    return true;
  });
}

export interface RunningClock {
  key: string;
  name: string;
  rule_set: string;
  party: 'issuer' | 'acquirer' | 'bank';
  started_on: string;
  due_on: string;
  stopped_on: string | null;
  state: 'running' | 'breached' | 'met' | 'missed';
  days_left: number | null;
}

/** Every clock a dispute runs on `today`: the TAT rule's and its rule sets', running ones first, nearest deadline first. */
export async function disputeClocks(db: Db, id: number, today: string): Promise<RunningClock[]> {
  const rows = await queryRows<Omit<RunningClock, 'state' | 'days_left'> & { days_left: number }>(
    db,
    sql`select 'tat' as key, r.name, 'TAT rule' as rule_set, 'bank' as party, d.clock_started_on::text as started_on, d.due_date::text as due_on,
               case when d.status = 'resolved' then coalesce(d.stopped_on, d.status_at::date)::text end as stopped_on, (d.due_date - ${today}::date) as days_left
        from disputes d join tat_rules r on r.id = d.rule_id
        where d.id = ${id} and d.due_date is not null
        union all
        select clock_key, clock_name, rule_set, party, started_on::text, due_on::text, stopped_on::text, (due_on - ${today}::date)
        from dispute_rule_clocks(${id}::bigint)`,
  );
  const clocks: RunningClock[] = rows.map((r) => ({
    ...r,
    state: r.stopped_on ? (r.stopped_on <= r.due_on ? 'met' : 'missed') : r.days_left < 0 ? 'breached' : 'running',
    days_left: r.stopped_on ? null : Number(r.days_left),
  }));
  const running = (c: RunningClock) => (c.stopped_on ? 1 : 0);
  return clocks.sort((a, b) => running(a) - running(b) || a.due_on.localeCompare(b.due_on) || a.key.localeCompare(b.key));
}
