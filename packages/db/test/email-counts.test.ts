// The counter rows and email_subjects against the ground truth: counts and pages computed straight
// from emails, on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardCounts, emails, listEmails, queryRows, type Database, type EmailListFilters } from '../src/index.ts';
import { seed } from '../src/seed.ts';
import { backends, migrated } from './backends.ts';

const now = new Date('2026-06-15T12:00:00Z');

describe.each(backends)('email counters on %s', (backend) => {
  let database: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ database, drop } = await migrated(backend));
    await seed(database.db, { emails: 6000, ej: 0, filesPerKind: 0, now });
    // Writes after the seed: the triggers must follow updates and deletes too.
    await database.db
      .update(emails)
      .set({ isRead: true, category: 'processed' })
      .where(sql`${emails.id} % 7 = 0`);
    await database.db.delete(emails).where(sql`${emails.id} % 11 = 0`);
    // Subjects changed after the seed, in other cases and scripts, and with LIKE's own characters.
    await database.db
      .update(emails)
      .set({ subject: sql`upper(${emails.subject})` })
      .where(sql`${emails.id} % 13 = 0`);
    await database.db
      .update(emails)
      .set({ subject: sql`'Ärger 100% _Straße_ ' || ${emails.id}` })
      .where(sql`${emails.id} % 97 = 1`);
    // Subjects whose words a search goes by: a term inside a run of over 64 letters and digits,
    // between dashes and slashes, inside a longer word, or across two words.
    await database.db
      .update(emails)
      .set({
        subject: sql`case ${emails.id} % 89 when 2 then 'Ref ' || repeat('q', 70) || 'HRB00042zz' when 3 then 'ATM-hrb00042/' || ${emails.id}
                        when 4 then 'hrb000421 claim' else 'Dispute HRB0004 2' end`,
      })
      .where(sql`${emails.id} % 89 between 2 and 5`);
    // Mail read in late (an outage, a re-import): created weeks after it was received.
    await database.db
      .update(emails)
      .set({ createAt: sql`${emails.createAt} + interval '40 days'` })
      .where(sql`${emails.id} % 17 = 3`);
  });
  afterAll(() => drop());

  /** Emails whose email_subjects row is missing, extra, or differs from the email. */
  const subjectsDiffering = () =>
    queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from emails e full join email_subjects s on s.id = e.id
          where s.id is null or e.id is null
             or (e.email_from, e.category, e.is_read, e.create_at, e.received_at, lower(e.subject))
                is distinct from (s.email_from, s.category, s.is_read, s.create_at, s.received_at, s.folded)`,
    ).then((r) => r[0]!.n);

  /**
   * Words whose count of emails differs from the emails' subjects (missing, extra or miscounted);
   * a word counted to 5,000 is many and no longer counted.
   */
  const wordsDiffering = () =>
    queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n
          from (select word, count(*)::int as n from (select distinct e.id, w as word from emails e, unnest(subject_words(lower(e.subject))) w where w <> '') x group by word) t
          full join email_subject_words s using (word)
          where s.word is null or (s.n < 5000 and coalesce(t.n, 0) <> s.n)`,
    ).then((r) => r[0]!.n);

  const truth = (where: string) => queryRows<{ n: number }>(database.db, sql.raw(`select count(*)::int as n from emails where ${where}`)).then((r) => r[0]!.n);

  it('give the dashboard the exact counts of a month after inserts, updates and deletes', async () => {
    const counts = await dashboardCounts(database.db, new Date('2026-05-01T00:00:00Z'), new Date('2026-06-01T00:00:00Z'));
    const month = "received_at >= '2026-05-01T00:00:00Z' and received_at < '2026-06-01T00:00:00Z'";
    expect(counts).toEqual({
      total_emails: await truth(month),
      read: await truth(`${month} and is_read`),
      unread: await truth(`${month} and not is_read`),
      email_ignores: await truth(`${month} and category = 'ignored'`),
      ej_not_found: await truth(`${month} and category = 'ej_not_found'`),
      email_same_subject_processing: await truth(`${month} and category = 'same_subject_processing'`),
      email_same_subject_count: await truth(`${month} and category = 'same_subject'`),
    });
  });

  const selections: [string, EmailListFilters][] = [
    ['all', { selection: 'all' }],
    ['a category', { selection: { category: 'processed' } }],
    ['read', { selection: { isRead: true } }],
    ['read, within dates', { selection: { isRead: true }, createdFrom: '2025-09-01', createdTo: '2026-03-31' }],
    ['by sender', { selection: { category: 'processed' }, emailFrom: 'DISPUTES@' }],
  ];

  it('counts a sender filter that matches one sender, every sender, none, or holds % and _ literally', async () => {
    const [sender] = await queryRows<{ email_from: string }>(database.db, sql`select email_from from emails order by id limit 1`);
    for (const emailFrom of [sender!.email_from.toUpperCase(), '@', 'no such sender', '%', '_@']) {
      const filters: EmailListFilters = { selection: 'all', emailFrom };
      const escaped = emailFrom.replace(/[\\%_]/g, (c) => `\\${c}`);
      expect((await listEmails(database.db, filters, { page: 1, pageSize: 10 })).count).toBe(await truth(`email_from ilike '%${escaped}%'`));
    }
  });

  it('keep email_subjects one row per email, equal to the email after inserts, updates and deletes', async () => {
    expect(await subjectsDiffering()).toBe(0);
    expect(await wordsDiffering()).toBe(0);
  });

  it.each([
    ['a selective subject, any case', { selection: 'all', subject: 'apx0001' }],
    ['a broad subject in a category', { selection: { category: 'processed' }, subject: 'DISPUTE' }],
    [
      'a subject with a sender, read, within dates',
      { selection: { isRead: true }, subject: 'atm', emailFrom: 'disputes', createdFrom: '2025-09-01', createdTo: '2026-03-31' },
    ],
    ['a subject in another script', { selection: 'all', subject: 'ärger' }],
    ['a subject holding % and _ literally', { selection: 'all', subject: '% _straße_' }],
    ['a subject no email has', { selection: 'all', subject: '%%' }],
    ['a word, also inside longer words and runs over 64 characters', { selection: 'all', subject: 'HRB00042' }],
    ['a word’s inner part, in a category', { selection: { category: 'processed' }, subject: 'rb0004' }],
    ['a run over 64 characters', { selection: 'all', subject: `${'q'.repeat(66)}hrb` }],
    ['a subject across two words', { selection: 'all', subject: 'dispute hrb0004' }],
  ] as [string, EmailListFilters][])('filter %s to the same count and pages as ILIKE over emails', async (name, filters) => {
    const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const where = and(
      filters.selection === 'all'
        ? undefined
        : 'category' in filters.selection
          ? eq(emails.category, filters.selection.category)
          : eq(emails.isRead, filters.selection.isRead),
      sql`${emails.subject} ilike ${like(filters.subject!)}`,
      filters.emailFrom ? sql`${emails.emailFrom} ilike ${like(filters.emailFrom)}` : undefined,
      filters.createdFrom ? sql`${emails.createAt} >= ${`${filters.createdFrom}T00:00:00Z`}::timestamptz` : undefined,
      filters.createdTo ? sql`${emails.createAt} < (${filters.createdTo}::date + 1)::timestamptz` : undefined,
    );
    const [expected] = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(emails)
      .where(where);
    const first = await listEmails(database.db, filters, { page: 1, pageSize: 10 });
    expect(first.count).toBe(expected!.n);
    expect(first.count > 0).toBe(name !== 'a subject no email has');
    for (const pageNumber of [1, 2, Math.max(1, Math.ceil(first.count / 10))]) {
      const page = await listEmails(database.db, filters, { page: pageNumber, pageSize: 10 });
      const plain = await database.db
        .select({ id: emails.id, subject: emails.subject })
        .from(emails)
        .where(where)
        .orderBy(desc(emails.createAt), desc(emails.id))
        .limit(10)
        .offset((pageNumber - 1) * 10);
      expect(page.rows.map((r) => [r.id, r.subject_name])).toEqual(plain.map((r) => [r.id, r.subject]));
    }
  });

  it.each([
    ['all', { selection: 'all' }],
    ['a category', { selection: { category: 'processed' } }],
    ['a selective subject', { selection: 'all', subject: 'apx0001' }],
    ['a broad subject', { selection: { isRead: true }, subject: 'dispute' }],
    [
      'a sender and a month',
      { selection: 'all', emailFrom: 'disputes@', receivedIn: { from: new Date('2026-03-01T00:00:00Z'), to: new Date('2026-04-01T00:00:00Z') } },
    ],
  ] as [string, EmailListFilters][])('list %s oldest first, ties by id, as a plain ORDER BY create_at, id', async (_name, filters) => {
    // Two emails created at the same instant: their order is by id, the same way as the time.
    const tied = await database.db.select({ id: emails.id }).from(emails).orderBy(emails.id).limit(2);
    await database.db
      .update(emails)
      .set({ createAt: new Date('2025-12-01T08:00:00Z') })
      .where(
        inArray(
          emails.id,
          tied.map((r) => r.id),
        ),
      );
    const where = and(
      filters.selection === 'all'
        ? undefined
        : 'category' in filters.selection
          ? eq(emails.category, filters.selection.category)
          : eq(emails.isRead, filters.selection.isRead),
      filters.subject ? sql`${emails.subject} ilike ${`%${filters.subject}%`}` : undefined,
      filters.emailFrom ? sql`${emails.emailFrom} ilike ${`%${filters.emailFrom}%`}` : undefined,
      filters.receivedIn
        ? sql`${emails.receivedAt} >= ${filters.receivedIn.from.toISOString()}::timestamptz and ${emails.receivedAt} < ${filters.receivedIn.to.toISOString()}::timestamptz`
        : undefined,
    );
    const first = await listEmails(database.db, filters, { page: 1, pageSize: 10 }, 'oldest');
    expect(first.count).toBeGreaterThan(0);
    for (const pageNumber of [1, 2, Math.ceil(first.count / 10)]) {
      const page = await listEmails(database.db, filters, { page: pageNumber, pageSize: 10 }, 'oldest');
      const plain = await database.db
        .select({ id: emails.id })
        .from(emails)
        .where(where)
        .orderBy(emails.createAt, emails.id)
        .limit(10)
        .offset((pageNumber - 1) * 10);
      expect(
        page.rows.map((r) => r.id),
        `page ${pageNumber}`,
      ).toEqual(plain.map((r) => r.id));
    }
  });

  it('list a dashboard month: each count is the Total of the list it opens, with the same rows as plain SQL', async () => {
    const may = { from: new Date('2026-05-01T00:00:00Z'), to: new Date('2026-06-01T00:00:00Z') };
    const counts = await dashboardCounts(database.db, may.from, may.to);
    const lists: [keyof typeof counts, EmailListFilters][] = [
      ['total_emails', { selection: 'all' }],
      ['read', { selection: { isRead: true } }],
      ['unread', { selection: { isRead: false } }],
      ['ej_not_found', { selection: { category: 'ej_not_found' } }],
      ['email_ignores', { selection: { category: 'ignored' } }],
      ['email_same_subject_processing', { selection: { category: 'same_subject_processing' } }],
      ['email_same_subject_count', { selection: { category: 'same_subject' } }],
    ];
    const inMay = sql`${emails.receivedAt} >= ${may.from.toISOString()}::timestamptz and ${emails.receivedAt} < ${may.to.toISOString()}::timestamptz`;
    const selected = (f: EmailListFilters) =>
      f.selection === 'all' ? undefined : 'category' in f.selection ? eq(emails.category, f.selection.category) : eq(emails.isRead, f.selection.isRead);
    for (const [key, filters] of lists) {
      const month = { ...filters, receivedIn: may };
      const first = await listEmails(database.db, month, { page: 1, pageSize: 10 });
      expect(first.count, key).toBe(counts[key]);
      expect(first.count, key).toBeGreaterThan(0);
      for (const pageNumber of [1, Math.ceil(first.count / 10)]) {
        const page = await listEmails(database.db, month, { page: pageNumber, pageSize: 10 });
        const plain = await database.db
          .select({ id: emails.id })
          .from(emails)
          .where(and(selected(filters), inMay))
          .orderBy(desc(emails.createAt), desc(emails.id))
          .limit(10)
          .offset((pageNumber - 1) * 10);
        expect(
          page.rows.map((r) => r.id),
          `${key} page ${pageNumber}`,
        ).toEqual(plain.map((r) => r.id));
      }
    }
    // With a subject (the narrow rows carry the month) or a sender (counted on the emails).
    for (const extra of [{ subject: 'atm dispute' }, { emailFrom: 'disputes@' }, { subject: 'apx', emailFrom: 'apex' }]) {
      const filters: EmailListFilters = { selection: { isRead: true }, receivedIn: may, ...extra };
      const where = and(
        eq(emails.isRead, true),
        inMay,
        extra.subject ? sql`${emails.subject} ilike ${`%${extra.subject}%`}` : undefined,
        'emailFrom' in extra ? sql`${emails.emailFrom} ilike ${`%${extra.emailFrom}%`}` : undefined,
      );
      const [expected] = await database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(emails)
        .where(where);
      const page = await listEmails(database.db, filters, { page: 2, pageSize: 10 });
      expect(page.count, JSON.stringify(extra)).toBe(expected!.n);
      const plain = await database.db.select({ id: emails.id }).from(emails).where(where).orderBy(desc(emails.createAt), desc(emails.id)).limit(10).offset(10);
      expect(
        page.rows.map((r) => r.id),
        JSON.stringify(extra),
      ).toEqual(plain.map((r) => r.id));
    }
  });

  it.each(selections)('count %s exactly and seek deep pages to the same rows as a plain OFFSET', async (_name, filters) => {
    const first = await listEmails(database.db, filters, { page: 1, pageSize: 10 });
    const where = and(
      filters.selection === 'all'
        ? undefined
        : 'category' in filters.selection
          ? eq(emails.category, filters.selection.category)
          : eq(emails.isRead, filters.selection.isRead),
      filters.createdFrom ? sql`${emails.createAt} >= ${`${filters.createdFrom}T00:00:00Z`}::timestamptz` : undefined,
      filters.createdTo ? sql`${emails.createAt} < (${filters.createdTo}::date + 1)::timestamptz` : undefined,
      filters.emailFrom ? sql`${emails.emailFrom} ilike ${`%${filters.emailFrom}%`}` : undefined,
    );
    const [expected] = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(emails)
      .where(where);
    expect(first.count).toBe(expected!.n);
    expect(first.count).toBeGreaterThan(2100);

    for (const pageNumber of [201, 215, Math.ceil(first.count / 10)]) {
      const page = await listEmails(database.db, filters, { page: pageNumber, pageSize: 10 });
      const plain = await database.db
        .select({ id: emails.id })
        .from(emails)
        .where(where)
        .orderBy(desc(emails.createAt), desc(emails.id))
        .limit(10)
        .offset((pageNumber - 1) * 10);
      expect(page.rows.map((r) => r.id)).toEqual(plain.map((r) => r.id));
    }
  });
  it('find a subject held by many words, or by a word of 5,000 emails, as ILIKE does', async () => {
    const plain = (text: string) => truth(`subject ilike '%${text}%'`);
    // Over 64 words hold a bank's code (each of its ATMs is one).
    const [held] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from email_subject_words where word like '%apx%'`);
    expect(held!.n).toBeGreaterThan(64);
    expect((await listEmails(database.db, { selection: 'all', subject: 'APX' }, { page: 1, pageSize: 10 })).count).toBe(await plain('apx'));
    // A word counted to 5,000 is many: another email holding it is not counted, and the filter
    // goes by trigram, finding that email too.
    await database.db.execute(sql`update email_subject_words set n = 5000 where word = 'hrb00042'`);
    await database.db.insert(emails).values({ subject: 'Late HRB00042 claim', receivedAt: now, createAt: now, updateAt: now, category: 'processed' });
    const [many] = await queryRows<{ n: number }>(database.db, sql`select n::int as n from email_subject_words where word = 'hrb00042'`);
    expect(many!.n).toBe(5000);
    const [claim] = await queryRows<{ n: number }>(database.db, sql`select n::int as n from email_subject_words where word = 'claim'`);
    expect(claim!.n).toBe(await plain('claim'));
    const found = await listEmails(database.db, { selection: 'all', subject: 'hrb00042' }, { page: 1, pageSize: 500 });
    expect(found.count).toBe(await plain('hrb00042'));
    expect(found.rows.map((r) => r.subject_name)).toContain('Late HRB00042 claim');
  });

  // Last: it adds emails. Writers racing (the ingester's lanes, several processes, an operator
  // reading and reprocessing) must leave the counters and email_subjects exact.
  it('stay exact when many writers insert, update, reprocess and delete at once', async () => {
    const at = new Date('2026-05-20T10:00:00Z');
    const email = (w: number, i: number) => ({
      emailFrom: `race${w % 3}@example`,
      emailTo: 'ej-desk@operations.example',
      subject: `Race ${w}-${i} dispute`,
      normalizedSubject: `race ${w}-${i} dispute`,
      receivedAt: at,
      createAt: at,
      updateAt: at,
      category: 'ej_not_found',
    });
    await Promise.all(
      Array.from({ length: 12 }, (_, w) =>
        database.db.transaction(async (tx) => {
          await tx.insert(emails).values(Array.from({ length: 20 }, (_, i) => email(w, i)));
          if (w % 3 === 1)
            await tx
              .update(emails)
              .set({ isRead: true, category: 'processed', subject: sql`${emails.subject} || ' reprocessed'` })
              .where(sql`${emails.subject} like 'Race %' and ${emails.id} % 3 = 0`);
          if (w % 4 === 2) await tx.delete(emails).where(sql`${emails.subject} like 'Race %' and ${emails.id} % 5 = 0`);
        }),
      ),
    );
    expect(await subjectsDiffering()).toBe(0);
    expect(await wordsDiffering()).toBe(0);
    const may = { from: new Date('2026-05-01T00:00:00Z'), to: new Date('2026-06-01T00:00:00Z') };
    const counts = await dashboardCounts(database.db, may.from, may.to);
    const inMay = "received_at >= '2026-05-01T00:00:00Z' and received_at < '2026-06-01T00:00:00Z'";
    expect(counts.total_emails).toBe(await truth(inMay));
    expect(counts.read).toBe(await truth(`${inMay} and is_read`));
    expect(counts.ej_not_found).toBe(await truth(`${inMay} and category = 'ej_not_found'`));
    for (const filters of [
      { selection: 'all', subject: 'race' },
      { selection: { isRead: true }, subject: 'reprocessed' },
      { selection: { category: 'ej_not_found' }, emailFrom: 'race1@' },
    ] as EmailListFilters[]) {
      const where = [
        filters.subject ? `subject ilike '%${filters.subject}%'` : 'true',
        filters.emailFrom ? `email_from ilike '%${filters.emailFrom}%'` : 'true',
        filters.selection === 'all'
          ? 'true'
          : 'category' in filters.selection
            ? `category = '${filters.selection.category}'`
            : `is_read = ${filters.selection.isRead}`,
      ].join(' and ');
      expect((await listEmails(database.db, filters, { page: 1, pageSize: 10 })).count, JSON.stringify(filters)).toBe(await truth(where));
    }
  });
});
