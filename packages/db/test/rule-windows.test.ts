// The seeded rule sets against the rules as written, on both backends. The table of dates
// (fixtures/rule-windows.json) was derived apart from this code, from the rules' text and the
// published holiday rules, by tools/rule-windows/make_table.py: each network's windows from
// Fridays, weekends and holidays, across month ends, February 2027 and 2028 and year ends. Each
// case is run through a real dispute: its dates or the day it entered the clock's starting stage.
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disputeClocks, queryRows, stageOfWords, networkOfWords, type Database } from '../src/index.ts';
import { backends, migrated } from './backends.ts';

interface Table {
  calendars: Record<string, string[]>;
  windows: { clock: string; start: string; due: string; why: string }[];
}
const table = JSON.parse(readFileSync(new URL('./fixtures/rule-windows.json', import.meta.url), 'utf8')) as Table;

/** What starts each clock of the table, and the network whose sets hold it. */
const clockStarts: Record<string, { network: string; from: 'transaction' | 'complaint' | 'stage'; stage?: string }> = {
  'nfs.chargeback': { network: 'NFS', from: 'transaction' },
  'nfs.representment': { network: 'NFS', from: 'stage', stage: 'chargeback_raised' },
  'nfs.pre_arbitration': { network: 'NFS', from: 'stage', stage: 'representment' },
  'nfs.arbitration': { network: 'NFS', from: 'stage', stage: 'pre_arbitration' },
  'visa.dispute': { network: 'Visa', from: 'transaction' },
  'visa.response': { network: 'Visa', from: 'stage', stage: 'chargeback_raised' },
  'visa.pre_arbitration': { network: 'Visa', from: 'stage', stage: 'representment' },
  'visa.pre_arbitration_response': { network: 'Visa', from: 'stage', stage: 'pre_arbitration' },
  'rege.investigate': { network: '', from: 'complaint' },
  'rege.finish': { network: '', from: 'complaint' },
  'psd2.refund': { network: '', from: 'complaint' },
  'rbi.tat': { network: '', from: 'transaction' },
};

describe.each(backends)('rule sets as written, on %s', (backend) => {
  let database: Database;
  let drop: () => Promise<void>;
  let nextRecord = 1;
  beforeAll(async () => {
    ({ database, drop } = await migrated(backend));
    // Regulation E and PSD2 are seeded off (a jurisdiction's): on here, to be measured.
    await database.db.execute(sql`update rule_sets set active = true`);
  }, 60_000);
  afterAll(() => drop());

  /** A dispute of the network whose clock starts on `start`, as the clock's start event says. */
  async function disputeStartingOn(clock: string, start: string): Promise<number> {
    const how = clockStarts[clock]!;
    const [made] = await queryRows<{ id: number }>(
      database.db,
      sql`insert into disputes (atm_id, txt_no, first_record_id, network, transaction_date, complaint_date, stage)
          values ('ATM1', ${`T${nextRecord}`}, ${nextRecord++}, ${how.network}, ${how.from === 'transaction' ? start : '2026-01-01'}::date,
                  ${how.from === 'complaint' ? start : '2026-01-02'}::date, ${how.stage ?? 'complaint'})
          returning id::float8 as id`,
    );
    if (how.stage)
      await database.db.execute(sql`insert into dispute_stages (dispute_id, stage, entered_on) values (${made!.id}, ${how.stage}, ${start}::date)`);
    await database.db.execute(sql`select dispute_clocks_refresh(array[${made!.id}]::bigint[])`);
    return made!.id;
  }

  it('holds the holiday calendars the rules publish', async () => {
    const seeded = await queryRows<{ name: string; days: string[] }>(
      database.db,
      sql`select name, array(select d::text from unnest(days) d order by d) as days from holiday_calendars order by name`,
    );
    expect(Object.fromEntries(seeded.map((c) => [c.name, c.days]))).toEqual(table.calendars);
  });

  it(`gives each of the ${table.windows.length} windows the due date the rule as written gives`, async () => {
    expect(new Set(table.windows.map((w) => w.clock))).toEqual(new Set(Object.keys(clockStarts)));
    const wrong: string[] = [];
    for (const window of table.windows) {
      const id = await disputeStartingOn(window.clock, window.start);
      const clocks = await disputeClocks(database.db, id, window.start);
      const clock = clocks.find((c) => c.key === (window.clock === 'rbi.tat' ? 'tat' : window.clock));
      if (clock?.started_on !== window.start || clock.due_on !== window.due)
        wrong.push(`${window.clock} from ${window.start} (${window.why}): due ${clock?.due_on ?? 'none'}, the rule says ${window.due}`);
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  /**
   * The nearest deadline the dispute keeps (the lists' clock order) and its record's copy, beside
   * the nearest running clock disputeClocks computes when read.
   */
  async function nearestKept(id: number, day: string) {
    const running = (await disputeClocks(database.db, id, day)).filter((c) => c.stopped_on === null);
    const first = (clocks: typeof running) => [...clocks].sort((a, b) => a.due_on.localeCompare(b.due_on) || a.key.localeCompare(b.key))[0];
    const [kept] = await queryRows<{ next: string | null; rule: string | null; clock: string | null; copies: string[] }>(
      database.db,
      sql`select d.next_deadline::text as next, d.rule_deadline::text as rule, d.rule_deadline_clock as clock,
                 array(select coalesce(l.next_deadline::text, 'none') from dispute_records l where l.dispute_id = d.id) as copies
          from disputes d where d.id = ${id}`,
    );
    const rule = first(running.filter((c) => c.key !== 'tat'));
    expect(kept).toEqual({
      next: first(running)?.due_on ?? null,
      rule: rule?.due_on ?? null,
      clock: rule?.name ?? null,
      copies: [first(running)?.due_on ?? 'none'],
    });
    return kept!;
  }

  it("shows a dispute's clocks side by side, the running ones first, nearest deadline first", async () => {
    // An NFS dispute: withdrawn 2 November 2026, complaint the 3rd, chargeback raised the 20th.
    const [made] = await queryRows<{ id: number }>(
      database.db,
      sql`insert into disputes (atm_id, txt_no, first_record_id, network, transaction_date, complaint_date, stage)
          values ('ATM9', 'N1', ${nextRecord++}, 'NFS', '2026-11-02', '2026-11-03', 'chargeback_raised') returning id::float8 as id`,
    );
    const id = made!.id;
    // Its record, whose copy of the nearest deadline the lists sort by.
    const [record] = await queryRows<{ id: number }>(
      database.db,
      sql`insert into ej_records (kind, atm_id, txt_no) values ('dispute', 'ATM9', 'N1') returning id::float8 as id`,
    );
    await database.db.execute(sql`insert into dispute_records (record_id, dispute_id) values (${record!.id}, ${id})`);
    await database.db.execute(sql`update rule_sets set active = false where name in ('Regulation E', 'PSD2')`);
    try {
      // Before its chargeback: the chargeback clock runs (60 days from the withdrawal).
      expect(await nearestKept(id, '2026-11-19')).toMatchObject({ rule: '2027-01-01', clock: 'Chargeback raised' });
      await database.db.execute(sql`insert into dispute_stages values (${id}, 'chargeback_raised', '2026-11-20')`);
      await database.db.execute(sql`select dispute_clocks_refresh(array[${id}]::bigint[])`);
      const on22 = await disputeClocks(database.db, id, '2026-11-22');
      expect(on22.map((c) => [c.key, c.due_on, c.state, c.days_left])).toEqual([
        ['tat', '2026-11-07', 'breached', -15],
        ['nfs.representment', '2026-11-25', 'running', 3],
        ['nfs.chargeback', '2027-01-01', 'met', null],
      ]);
      // The breached TAT clock is the nearest open deadline; representment the nearest of the rule sets'.
      expect(await nearestKept(id, '2026-11-22')).toEqual({
        next: '2026-11-07',
        rule: '2026-11-25',
        clock: 'Representment or acceptance',
        copies: ['2026-11-07'],
      });
      // Without a TAT rule, the rule sets' clock is the nearest.
      await database.db.execute(sql`update disputes set due_date = null where id = ${id}`);
      expect(await nearestKept(id, '2026-11-22')).toMatchObject({ next: '2026-11-25', copies: ['2026-11-25'] });
      await database.db.execute(sql`select dispute_clocks_refresh(array[${id}]::bigint[])`);
      // Represented on the 27th, two days late; then resolved (closed) on 1 December.
      await database.db.execute(sql`insert into dispute_stages values (${id}, 'representment', '2026-11-27')`);
      await database.db.execute(sql`update disputes set stage = 'representment' where id = ${id}`);
      const on28 = await disputeClocks(database.db, id, '2026-11-28');
      expect(on28.map((c) => [c.key, c.state])).toEqual([
        ['tat', 'breached'],
        ['nfs.pre_arbitration', 'running'],
        ['nfs.representment', 'missed'],
        ['nfs.chargeback', 'met'],
      ]);
      expect(await nearestKept(id, '2026-11-28')).toMatchObject({ rule: '2026-12-27', clock: 'Pre-arbitration raised' });
      // A rule set turned on applies at once: Regulation E's investigation, 10 business days from the
      // complaint of the 3rd (Veterans Day, the 11th, is not one).
      await database.db.execute(sql`update rule_sets set active = true where name = 'Regulation E'`);
      expect(await nearestKept(id, '2026-11-28')).toMatchObject({ rule: '2026-11-18', clock: 'Investigate, or credit provisionally' });
      await database.db.execute(sql`update rule_sets set active = false where name = 'Regulation E'`);
      expect(await nearestKept(id, '2026-11-28')).toMatchObject({ rule: '2026-12-27' });
      // A stage taken back: the clock it stopped runs again.
      await database.db.execute(sql`delete from dispute_stages where dispute_id = ${id} and stage = 'representment'`);
      expect(await nearestKept(id, '2026-11-28')).toMatchObject({ rule: '2026-11-25', clock: 'Representment or acceptance' });
      await database.db.execute(sql`insert into dispute_stages values (${id}, 'representment', '2026-11-27')`);
      await database.db.execute(sql`update disputes set status = 'resolved', outcome = 'credited', stopped_on = '2026-12-01' where id = ${id}`);
      const closed = await disputeClocks(database.db, id, '2026-12-05');
      expect(closed.every((c) => c.stopped_on !== null)).toBe(true);
      // Closed: no deadline is open, and the record sorts last.
      expect(await nearestKept(id, '2026-12-05')).toEqual({ next: null, rule: null, clock: null, copies: ['none'] });
      expect(closed.find((c) => c.key === 'nfs.pre_arbitration')).toMatchObject({ stopped_on: '2026-12-01', state: 'met' });
      // A Visa dispute runs Visa's clocks, none of NFS's.
      await database.db.execute(sql`update disputes set network = 'visa' where id = ${id}`);
      expect((await disputeClocks(database.db, id, '2026-12-05')).map((c) => c.key).sort()).toEqual([
        'tat',
        'visa.dispute',
        'visa.pre_arbitration',
        'visa.response',
      ]);
    } finally {
      await database.db.execute(sql`update rule_sets set active = true`);
    }
  });
});

describe('the stage and network a row of the mail says', () => {
  it.each([
    ['Chargeback raised on 12/11 vide ref 884', 'chargeback_raised'],
    ['CB lodged; chargeback has been lodged with NPCI', 'chargeback_raised'],
    ['Re-presentment raised with EJ attached', 'representment'],
    ['Representment done', 'representment'],
    ['Chargeback accepted by acquirer', 'accepted'],
    ['Credit adjustment processed', 'accepted'],
    ['Pre-arb raised by issuer', 'pre_arbitration'],
    ['pre arbitration filed', 'pre_arbitration'],
    ['Case referred to arbitration', 'arbitration'],
    ['Customer credited', null],
    ['Not a chargeback case', null],
  ])('%s: %s', (words, stage) => {
    expect(stageOfWords(words)?.stage ?? null).toBe(stage);
  });

  it('names the network of NFS, RuPay, Visa and Mastercard rows only', () => {
    expect(['NFS off-us txn', 'RuPay card', 'VISA card', 'Master card', 'on-us'].map(networkOfWords)).toEqual(['NFS', 'NFS', 'Visa', 'Mastercard', null]);
  });
});
