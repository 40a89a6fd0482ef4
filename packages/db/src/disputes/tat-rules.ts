// TAT rules: an admin list; every write applies the rules to the open disputes in its transaction
// (dispute_clocks_refresh in functions.sql).
import { eq, sql } from 'drizzle-orm';
import { auditedList } from '../audit/index.ts';
import { type Db, queryRows } from '../client.ts';
import { RuleProblem } from '../refusals.ts';
import { type TatClockStart, tatClockStarts, type TatDayKind, tatDayKinds, tatRules, type TatScope, tatScopes } from './schema.ts';

export interface TatRuleInput {
  name: string;
  scope: TatScope;
  scopeValue: string;
  clockStart: TatClockStart;
  days: number;
  dayKind: TatDayKind;
  holidays: string[];
  penaltyPerDay: string;
  currency: string;
}

const isoDate = /^\d{4}-\d{2}-\d{2}$/;
const realDate = (value: string) => isoDate.test(value) && new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;

/** The checked, normal form of a TAT rule (names trimmed, holidays sorted and unique), or a RuleProblem. */
export function checkTatRule(value: Record<string, unknown>): TatRuleInput {
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const name = text(value.name);
  if (!name || name.length > 200) throw new RuleProblem('name must be a text of 1 to 200 characters');
  const scope = value.scope as TatScope;
  if (!tatScopes.includes(scope)) throw new RuleProblem(`scope must be one of ${tatScopes.join(', ')}`);
  const scopeValue = text(value.scope_value);
  if (scope === 'all' && scopeValue) throw new RuleProblem('scope_value must be empty when the scope is all');
  if (scope !== 'all' && (!scopeValue || scopeValue.length > 200)) throw new RuleProblem(`scope_value must name the ${scope} (1 to 200 characters)`);
  const clockStart = value.clock_start as TatClockStart;
  if (!tatClockStarts.includes(clockStart)) throw new RuleProblem(`clock_start must be one of ${tatClockStarts.join(', ')}`);
  const days = value.days;
  if (typeof days !== 'number' || !Number.isInteger(days) || days < 0 || days > 3650) throw new RuleProblem('days must be a whole number from 0 to 3650');
  const dayKind = value.day_kind as TatDayKind;
  if (!tatDayKinds.includes(dayKind)) throw new RuleProblem(`day_kind must be one of ${tatDayKinds.join(', ')}`);
  const holidays = value.holidays ?? [];
  if (!Array.isArray(holidays) || holidays.length > 1000 || !holidays.every((d) => typeof d === 'string' && realDate(d)))
    throw new RuleProblem('holidays must be a list of at most 1000 dates (YYYY-MM-DD)');
  const penalty = value.penalty_per_day;
  const penaltyText = typeof penalty === 'number' ? String(penalty) : text(penalty);
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(penaltyText)) throw new RuleProblem('penalty_per_day must be an amount of 0 or more with at most 2 decimals');
  const currency = text(value.currency).toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) throw new RuleProblem('currency must be a three-letter code such as INR');
  return {
    name,
    scope,
    scopeValue,
    clockStart,
    days,
    dayKind,
    holidays: [...new Set(holidays as string[])].sort(),
    penaltyPerDay: penaltyText,
    currency,
  };
}

const tatRuleColumns = {
  id: tatRules.id,
  name: tatRules.name,
  scope: tatRules.scope,
  scope_value: tatRules.scopeValue,
  clock_start: tatRules.clockStart,
  days: tatRules.days,
  day_kind: tatRules.dayKind,
  holidays: tatRules.holidays,
  penalty_per_day: tatRules.penaltyPerDay,
  currency: tatRules.currency,
  create_at: tatRules.createAt,
  update_at: tatRules.updateAt,
};
export type TatRuleRow = {
  id: number;
  name: string;
  scope: string;
  scope_value: string;
  clock_start: string;
  days: number;
  day_kind: string;
  holidays: string[];
  penalty_per_day: string;
  currency: string;
  create_at: Date;
  update_at: Date;
};

const ruleValues = (input: TatRuleInput) => ({
  name: input.name,
  scope: input.scope,
  scopeValue: input.scopeValue,
  clockStart: input.clockStart,
  days: input.days,
  dayKind: input.dayKind,
  holidays: input.holidays,
  penaltyPerDay: input.penaltyPerDay,
  currency: input.currency,
});

/** Apply the rules to every open dispute (or the ones given): returns how many changed. */
export async function refreshDisputeClocks(db: Db, ids: number[] | null = null): Promise<number> {
  const [row] = await queryRows<{ changed: number }>(db, sql`select dispute_clocks_refresh(${ids === null ? null : sql.param(ids)}::bigint[]) as changed`);
  return Number(row?.changed ?? 0);
}

/** Runs a write, then moves the open disputes onto the rules as they now are. */
const thenRefresh =
  <A extends unknown[]>(write: (tx: Db, ...args: A) => Promise<TatRuleRow | undefined>) =>
  async (tx: Db, ...args: A) => {
    const row = await write(tx, ...args);
    if (row) await refreshDisputeClocks(tx);
    return row;
  };

const describeTatRule = (r: TatRuleRow) =>
  `${r.name}: ${r.scope === 'all' ? 'all disputes' : `${r.scope} ${r.scope_value}`}, ${r.days} ${r.day_kind} days from the ${r.clock_start.replace('_', ' ')}, ${r.penalty_per_day} ${r.currency} a day after`;

export const tatRuleList = auditedList<TatRuleInput, TatRuleRow>({
  entity: 'tat_rule',
  list: (db) => db.select(tatRuleColumns).from(tatRules).orderBy(tatRules.scope, tatRules.scopeValue, tatRules.id) as Promise<TatRuleRow[]>,
  insert: thenRefresh(
    async (tx, input: TatRuleInput) =>
      (await tx.insert(tatRules).values(ruleValues(input)).onConflictDoNothing().returning(tatRuleColumns))[0] as TatRuleRow | undefined,
  ),
  update: thenRefresh(
    async (tx, id: number, input: TatRuleInput) =>
      (
        await tx
          .update(tatRules)
          .set({ ...ruleValues(input), updateAt: sql`now()` })
          .where(eq(tatRules.id, id))
          .returning(tatRuleColumns)
      )[0] as TatRuleRow | undefined,
  ),
  remove: thenRefresh(async (tx, id: number) => (await tx.delete(tatRules).where(eq(tatRules.id, id)).returning(tatRuleColumns))[0] as TatRuleRow | undefined),
  describe: describeTatRule,
});
