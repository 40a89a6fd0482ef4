// The dispute table's pages filtered or ordered by the clock, read from dispute_records' copies of
// it, and the pages of a few matches.
import { and, gte, lte, sql, type SQL } from 'drizzle-orm';
import { type Db, queryRows, rowsOfKeptPlan } from '../client.ts';
import { type Count, countRows, keptAnswer } from '../counts/index.ts';
import { copiedClockCondition, copiedPenalty, disputeCounts, disputeRecords } from '../disputes/index.ts';
import { containsText, type Page, type PageOf } from '../filters.ts';
import {
  ageOf,
  clockConditions,
  clockFiltered,
  ejConditions,
  type EjFilters,
  holding,
  keptSum,
  matchValues,
  recordClockCondition,
  textFilters,
  todayOf,
  valueFields,
  type ValueField,
  withoutClock,
} from './filters.ts';
import {
  clockOrdered,
  dayMerged,
  dayMergedIds,
  type EjOrder,
  ejOrderFields,
  mergesByValue,
  valueMergedIds,
  orderTerms,
  rangePage,
  rowsInOrder,
  screenPageSizes,
} from './orders.ts';
import { ejRecords } from './schema.ts';

/**
 * The filters' conditions, the narrowest sparse text filter replaced by its exact values (the
 * column's btree then finds the candidates, every other condition is checked on them alone);
 * null when a text filter matches no value at all.
 */
export async function narrowedConditions(db: Db, filters: EjFilters, texts = textFilters(filters)): Promise<SQL | undefined | null> {
  const narrowest = await narrowestMatch(db, filters, texts);
  return narrowest === null ? null : narrowedBy(filters, narrowest);
}

/** The filters' conditions with the narrowest match (narrowestMatch) in place of its text filter. */
function narrowedBy(filters: EjFilters, narrowest: { field: ValueField; values: string[] } | undefined): SQL | undefined {
  return narrowest
    ? and(ejConditions({ ...filters, [valueFields[narrowest.field].filter]: undefined }), holding(narrowest.field, narrowest.values))
    : ejConditions(filters);
}

/** The sparse text filter held by the fewest records, and its exact values; null when a filter matches nothing. */
async function narrowestMatch(db: Db, filters: EjFilters, texts = textFilters(filters)): Promise<{ field: ValueField; values: string[] } | undefined | null> {
  if (texts.length === 0) return undefined;
  const matches = await matchValues(db, filters.kind, texts);
  if (matches.some((m) => m.total === 0)) return null;
  const narrowest = matches.filter((m) => !m.dense && m.exact).sort((a, b) => a.total - b.total)[0];
  return narrowest && { field: narrowest.field, values: narrowest.exact! };
}

/**
 * A page under the dispute clock's filters or in its orders (docs/benchmarks.md measures them at
 * 1,000,000 disputes). The count sums dispute_counts unless a text filter (ATM, card, subject) or
 * an age range over resolved disputes asks for the records themselves. The orders walk
 * dispute_records' copies of the clocks (clockOrderedIds).
 */
export async function clockPage(db: Db, filters: EjFilters, page: Page, order: EjOrder) {
  // The table's own filters first, narrowed as listEjRecords narrows them (an ATM ID's few records).
  const narrowest = await narrowestMatch(db, withoutClock(filters));
  if (narrowest === null) return { count: 0, rows: [] } satisfies PageOf<unknown>;
  const base = narrowedBy(withoutClock(filters), narrowest);
  const { n: count, exact } = await clockCount(db, filters, and(base, clockConditions(filters)));
  if (count === 0) return { count, rows: [] } satisfies PageOf<unknown>;
  if (!clockOrdered(order)) {
    const onCopy = copyOnlyCondition(filters, order);
    if (onCopy) {
      // The page is dispute_records' own, walked in record order (its open index, or its day index
      // for a range of transaction dates): checking each candidate in ej_records cost 80 ms for
      // 14,000 due soon, and 140 ms for the open disputes of a week two months back.
      // A range of days: each day walked from the day index and merged, as the records' own are.
      const l = disputeRecords;
      if (dayMerged(filters, page)) {
        const ids = await dayMergedIds(db, filters, page, order.descending, { from: sql`${l}`, id: l.recordId, day: l.transactionDate, where: onCopy });
        return { count, exact, rows: await rowsInOrder(db, ids) } satisfies PageOf<unknown>;
      }
      const picked = await queryRows<{ id: string | number }>(
        db,
        sql`select ${l.recordId} as id from ${l} where ${onCopy}
            order by ${order.descending ? sql`${l.recordId} desc` : sql`${l.recordId} asc`}
            limit ${page.pageSize} offset ${(page.page - 1) * page.pageSize}`,
      );
      return {
        count,
        exact,
        rows: await rowsInOrder(
          db,
          picked.map((p) => Number(p.id)),
        ),
      } satisfies PageOf<unknown>;
    }
    const set = await clockSet(db, filters);
    const where = and(base, set.condition);
    // The due-date sets' ids are read first already: the order's index then serves their page.
    const few = exact && count <= FEW_MATCHES && !set.read;
    // The walks read about depth x candidates / matches records, each tested alone; reading every
    // candidate tests them in one join, ten times cheaper a record (due within 2 days, 38 of an ATM
    // part's 3,899 records: 37 ms walked, 21 read whole). Walked when they read under a twentieth.
    if (few && order.field === 'id' && count >= page.page * page.pageSize * 20 && narrowest && mergesByValue(narrowest.field, narrowest.values.length)) {
      const ids = await valueMergedIds(db, filters.kind, narrowest.field, narrowest.values, where, page, order.descending);
      return { count, exact, rows: await rowsInOrder(db, ids) } satisfies PageOf<unknown>;
    }
    return { count, exact, rows: few ? await fewPage(db, where, page, order) : await rangePage(db, filters, where, page, order) } satisfies PageOf<unknown>;
  }
  return { count, exact, rows: await rowsInOrder(db, await clockOrderedIds(db, filters, base, page, order)) } satisfies PageOf<unknown>;
}

/**
 * The whole filter on dispute_records' copies, when it can be: disputes in id order under the
 * clock, a range of transaction dates, a bank and a sender (the ATM, card and subject filters need
 * ej_records' own indexes).
 */
function copyOnlyCondition(filters: EjFilters, order: EjOrder): SQL | undefined {
  if (filters.kind !== 'dispute' || order.field !== 'id') return undefined;
  if (filters.atmId || filters.cardNo || filters.mailSubject) return undefined;
  const onCopy = copiedClockCondition(disputeRecords, filters.tat, todayOf(filters), ageOf(filters));
  if (!onCopy) return undefined;
  // The bank and the sender too, from the copies dispute_counts counts them by (the clock
  // filters' counts): due today at a bank checked each of the bank's records against its
  // dispute's clock instead (180 ms at 10,000,000 records).
  return and(
    onCopy,
    filters.startDate ? gte(disputeRecords.transactionDate, filters.startDate) : undefined,
    filters.endDate ? lte(disputeRecords.transactionDate, filters.endDate) : undefined,
    containsText(disputeRecords.bankName, filters.bankName),
    containsText(disputeRecords.mailReceivedFrom, filters.mailReceivedFrom),
  );
}

/** Up to this many matches, a page is picked from all of them rather than by walking an order. */
export const FEW_MATCHES = 5_000;

/**
 * A page of few matches: every match found first (planned for all of them: the date, bank or
 * clock index that holds them), then ordered. Walking the table's order for them instead reads
 * every record above them when they lie far down it (the open disputes of a week two months ago:
 * 0.5 s).
 */
export async function fewPage(db: Db, where: SQL | undefined, page: Page, order: EjOrder) {
  // Named ej_records, so that the order's terms read the subquery's columns; OFFSET 0 keeps it whole.
  const picked = await queryRows<{ id: string | number }>(
    db,
    sql`select ej_records.id from (
          select id, ${sql.raw(ejOrderFields.filter((f) => f !== 'id').join(', '))} from ej_records where ${where} offset 0
        ) as ej_records
        order by ${sql.join(orderTerms(order), sql`, `)} limit ${page.pageSize} offset ${(page.page - 1) * page.pageSize}`,
  );
  return rowsInOrder(
    db,
    picked.map((p) => Number(p.id)),
  );
}

/** Up to this many records, a due-date quick filter's own records are read first. */
const FEW_DUE = 20_000;

/**
 * The clock filters as a condition on the records. Due today and due within 2 days hold few
 * records (a few days of due dates): read first, their ids checked against the other filters,
 * instead of walking the table's order until a page of them turns up (0.5 s when none does, as
 * for a week of transactions two months ago).
 */
async function clockSet(db: Db, filters: EjFilters): Promise<{ condition: SQL | undefined; read: boolean }> {
  // An ATM ID, card or subject narrows the records further: they are the candidates then.
  const narrowed = filters.atmId || filters.cardNo || filters.mailSubject;
  const onCopy =
    !narrowed && (filters.tat === 'due_today' || filters.tat === 'due_soon')
      ? copiedClockCondition(disputeRecords, filters.tat, todayOf(filters), ageOf(filters))
      : null;
  const walked = { condition: clockConditions(filters), read: false };
  if (!onCopy) return walked;
  const [row] = await db
    .select({ n: sql<string>`coalesce(sum(${disputeCounts.n}), 0)` })
    .from(disputeCounts)
    .where(copiedClockCondition(disputeCounts, filters.tat, todayOf(filters), ageOf(filters))!);
  if (Number(row?.n ?? 0) > FEW_DUE) return walked;
  return { condition: sql`${ejRecords.id} = any(array(select ${disputeRecords.recordId} from ${disputeRecords} where ${onCopy}))`, read: true };
}

/** The count: summed from dispute_counts when it holds every filter, else the records under `where`. */
async function clockCount(db: Db, filters: EjFilters, where: SQL | undefined): Promise<Count> {
  const onCopy = clockFiltered(filters) ? copiedClockCondition(disputeCounts, filters.tat, todayOf(filters), ageOf(filters)) : undefined;
  if (filters.kind !== 'dispute' || filters.atmId || filters.cardNo || filters.mailSubject || onCopy === null) return countWhere(db, where, filters);
  // The breached sum reads a row per clock and day: 1.7 ms of each tat=breached page at 10,000,000.
  return { n: await keptSum(db, disputeCounts, onCopy, filters, 'dispute_records'), exact: true };
}

/**
 * The ids of a page in a clock order, from dispute_records' indexes. Due date and nearest
 * deadline: one index each way (none last). Penalty: it grows with the days overdue, so each open rate's records are in penalty
 * order on (rate, due date), the resolved ones' penalty is fixed (settled_penalty), and those
 * owing nothing go by id; each of these runs gives its first `skip + size` and the runs are merged.
 */
export async function clockOrderedIds(db: Db, filters: EjFilters, base: SQL | undefined, page: Page, order: EjOrder): Promise<number[]> {
  const today = todayOf(filters);
  const l = disputeRecords;
  const where = and(base, recordClockCondition(filters));
  const skip = (page.page - 1) * page.pageSize;
  const joined = sql`${l} join ${ejRecords} on ${ejRecords.id} = ${l.recordId}`;
  const desc = order.descending;
  const id = desc ? sql`${l.recordId} desc` : sql`${l.recordId} asc`;
  if (order.field === 'due_date' || order.field === 'next_deadline') {
    const column = order.field === 'due_date' ? l.dueDate : l.nextDeadline;
    const due = desc ? sql`${column} desc nulls last` : sql`${column} asc nulls last`;
    // Breached: due before today, so the nearest deadline (never after the due date) is before it
    // too. Said, it is where the deadline index starts; unsaid, the latest deadlines first read
    // every open record still to fall due (40 ms at 10,000,000 records).
    const breached = order.field === 'next_deadline' && filters.tat === 'breached' ? sql`${l.nextDeadline} < ${today}::date` : undefined;
    const ordered = sql`select ${l.recordId} as id from ${joined} where ${and(where, breached)} order by ${due}, ${id}`;
    // A first page in a screen's size is planned once per connection (planning the join over every
    // month's partition took 3 ms of each page); its size is written in, or the kept plan assumes
    // a tenth of the table is read and is never chosen.
    const rows =
      skip === 0 && screenPageSizes.includes(page.pageSize)
        ? await rowsOfKeptPlan<{ id: string | number }>(db, sql`${ordered} limit ${sql.raw(String(page.pageSize))}`)
        : await queryRows<{ id: string | number }>(db, sql`${ordered} limit ${page.pageSize} offset ${skip}`);
    return rows.map((r) => Number(r.id));
  }
  const wanted = skip + page.pageSize;
  const penalty = copiedPenalty(today);
  const run = (condition: SQL, runOrder: SQL, from = joined) =>
    sql`(select ${l.recordId} as id, ${penalty} as penalty from ${from} where ${and(where, condition)} order by ${runOrder} limit ${wanted})`;
  const openOnly = filters.tat !== undefined && filters.tat !== 'resolved';
  const rates = filters.tat === 'resolved' ? [] : await openRates(db);
  const runs: SQL[] = [];
  if (filters.tat !== 'resolved') {
    for (const rate of rates) {
      // Owing: the oldest due date owes the most (ties: id, the page's way).
      runs.push(
        run(
          sql`${l.open} and ${l.penaltyPerDay} = ${rate} and ${l.dueDate} < ${today}::date`,
          desc ? sql`${l.dueDate} asc, ${l.recordId} desc` : sql`${l.dueDate} desc, ${l.recordId} asc`,
        ),
        // Not due yet: nothing owed. In id order these are the newest disputes, so walking the
        // open ones' id order read every older one first (700 ms at 10,000,000): each due day
        // from today is walked in id order from the (due date, id) index, and merged.
        sql`(select r.id, r.penalty from generate_series(${today}::date,
              (select max(${l.dueDate}) from ${l} where ${l.open} and ${l.penaltyPerDay} = ${rate}), interval '1 day') as d(day)
            cross join lateral (
              select ${l.recordId} as id, ${penalty} as penalty from ${joined}
              where ${and(where, sql`${l.open} and ${l.penaltyPerDay} = ${rate} and ${l.dueDate} = d.day::date`)} order by ${id} limit ${wanted}
            ) r order by ${desc ? sql`r.id desc` : sql`r.id asc`} limit ${wanted})`,
      );
    }
    runs.push(run(sql`${l.open} and (${l.penaltyPerDay} = 0 or ${l.dueDate} is null)`, id));
  }
  if (!openOnly) {
    runs.push(
      run(
        sql`not ${l.open} and ${l.settledPenalty} > 0`,
        desc ? sql`${l.settledPenalty} desc, ${l.recordId} desc` : sql`${l.settledPenalty} asc, ${l.recordId} asc`,
      ),
      // Walked in the resolved index's id order: joined by the record's id alone, the planner took
      // the records' id order instead and read past the newest records, all open (35,000 for a
      // page at 10,000,000 records: 50 ms). `+ 0` keeps the join from making the two orders one.
      run(sql`not ${l.open} and ${l.settledPenalty} = 0`, id, sql`${l} join ${ejRecords} on ${ejRecords.id} = ${l.recordId} + 0`),
    );
  }
  const way = desc ? sql`desc` : sql`asc`;
  const rows = await queryRows<{ id: string | number }>(
    db,
    sql`select id from (${sql.join(runs, sql` union all `)}) runs order by penalty ${way}, id ${way} limit ${page.pageSize} offset ${skip}`,
  );
  return rows.map((r) => Number(r.id));
}

/** The penalties per day of open disputes (a rule's each: a handful). */
async function openRates(db: Db): Promise<string[]> {
  const rates = sql`select distinct ${disputeCounts.penaltyPerDay}::text as rate from ${disputeCounts}
        where ${disputeCounts.open} and ${disputeCounts.n} > 0 and ${disputeCounts.penaltyPerDay} > 0`;
  // Every open clock's row is read (3 to 5 ms of a penalty page): kept as the counts are.
  return keptAnswer(db, rates, ['dispute_records'], async (read) => (await queryRows<{ rate: string }>(read, rates)).map((r) => r.rate));
}

/** The tables a count of EJ records may read: the records and their disputes' copies and clocks. */
const ejCounted = ['ej_records', 'dispute_records', 'disputes', 'dispute_evidence'];

/** The records under `where`, counted as the filters' `counting` says (a bound, then an estimate). */
export async function countWhere(db: Db, where: SQL | undefined, filters: Pick<EjFilters, 'counting'>): Promise<Count> {
  return countRows(db, sql`${ejRecords}`, where, ejCounted, filters.counting);
}
