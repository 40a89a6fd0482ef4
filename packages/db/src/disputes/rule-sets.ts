// The rule sets (NPCI NFS, Visa, Regulation E, PSD2) as admins read them: each with its clocks, and
// switched on or off (audited). Their windows are the rules as written (migration 0052).
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../client.ts';
import { clockStarts } from './schema.ts';

export interface RuleSetClock {
  key: string;
  name: string;
  party: string;
  starts_on: string;
  stops_at: string[];
  days: number;
  day_kind: 'calendar' | 'working';
  calendar: string | null;
}

export interface RuleSet {
  id: number;
  name: string;
  source: string;
  network: string;
  active: boolean;
  clocks: RuleSetClock[];
}

/** Each set with its clocks in the order a dispute meets them (by the event that starts each). */
export async function listRuleSets(db: Db): Promise<RuleSet[]> {
  return queryRows<RuleSet>(
    db,
    sql`select s.id, s.name, s.source, s.network, s.active,
               coalesce(json_agg(json_build_object('key', c.key, 'name', c.name, 'party', c.party, 'starts_on', c.starts_on, 'stops_at', c.stops_at,
                 'days', c.days, 'day_kind', c.day_kind, 'calendar', c.calendar)
                 order by array_position(${sql.param([...clockStarts])}::text[], c.starts_on), c.days) filter (where c.id is not null), '[]') as clocks
        from rule_sets s left join rule_clocks c on c.rule_set_id = s.id
        group by s.id order by s.id`,
  );
}

/** Switches a rule set on or off, audited; the set as it now is, or null when there is none. */
export async function setRuleSetActive(db: Db, id: number, active: boolean, userId: number): Promise<RuleSet | null> {
  return db.transaction(async (trx) => {
    const tx = trx as unknown as Db;
    const [changed] = await queryRows<{ name: string }>(tx, sql`update rule_sets set active = ${active}, update_at = now() where id = ${id} returning name`);
    if (!changed) return null;
    await tx.execute(
      sql`insert into audit_log (user_id, action, entity, entity_id, detail) values (${userId}, 'change', 'rule_set', ${String(id)}, ${`${changed.name} ${active ? 'on' : 'off'}`})`,
    );
    return (await listRuleSets(tx)).find((s) => s.id === id) ?? null;
  });
}
