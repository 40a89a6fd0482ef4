// Counts of broad matches on both backends: past LIST_EXACT_COUNT_UP_TO rows the count is the
// planner's estimate, flagged count_exact false and never given as exact; the pages still run to
// the end, and page=last counts exactly and answers the last page. A count is computed once per
// filter and data: asked again it comes from the cache, and after any write it is counted again.
import { countCacheStats, dataFiles, ejRecords, queryRows } from '@ejdesk/db';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, createTestApp, login, type TestApp } from './helpers.ts';

const table = '/api/scrape/extract/email/data/pagination/';
/** Two text filters: counted on the records themselves (no counter holds them). */
const broad = 'atm_id=HRB&card_no=XXXX';

describe.each(backends)('estimated counts on %s', (backend) => {
  let t: TestApp;
  let authorization: string;
  const record = (i: number) => ({
    kind: 'dispute' as const,
    atmId: `HRB${String(i).padStart(5, '0')}`,
    txtNo: `T${i}`,
    cardNo: `4111XXXXXXXX${String(i).padStart(4, '0')}`,
    transactionDate: `2026-10-${String(1 + (i % 28)).padStart(2, '0')}`,
    bankName: 'Harbor Bank',
  });
  beforeAll(async () => {
    t = await createTestApp(backend, { exactCountUpTo: 12 });
    authorization = `JWT ${(await login(t.app)).access}`;
    await t.database.db.insert(ejRecords).values(Array.from({ length: 30 }, (_, i) => record(i)));
    await t.database.db.execute(sql`select dispute_records_link(null)`);
  });
  afterAll(() => t.close());

  const get = async (query: string) => {
    const answer = await t.app.inject({ method: 'GET', url: `${table}?${query}`, headers: { authorization } });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json() as { count: number; count_exact: boolean; page: number; total_pages: number; next: string | null; results: { atm_id: string }[] };
  };

  it('flags a broad match estimated, and keeps a narrow one exact', async () => {
    const first = await get(`${broad}&page_size=4`);
    expect(first.count_exact).toBe(false);
    expect(first.count).toBeGreaterThan(12);
    expect(first.results).toHaveLength(4);
    expect(first.next).toContain('page=2');
    // One text filter alone is counted by its values (each card one record): past 12 of them, estimated too.
    const cards = await get('card_no=XXXX&page_size=4');
    expect(cards.count_exact).toBe(false);
    expect(cards.count).toBeGreaterThan(12);
    expect(await get('card_no=XXXX&page_size=4&page=last')).toMatchObject({ count: 30, count_exact: true, page: 8 });
    expect(await get('card_no=XXXX0002&page_size=4')).toMatchObject({ count: 1, count_exact: true });
    // Ten records match, under the bound of 12: counted exactly.
    const narrow = await get(`atm_id=HRB0002&card_no=XXXX&page_size=4`);
    expect(narrow).toMatchObject({ count: 10, count_exact: true });
    const few = await get(`atm_id=HRB0000&card_no=XXXX&page_size=100`);
    expect(few).toMatchObject({ count: 10, count_exact: true, total_pages: 1, next: null });
  });

  it('pages to the end under an estimate, and Last counts exactly and answers the last page', async () => {
    const all = await get(`${broad}&page_size=100`);
    expect(all.count_exact).toBe(false);
    expect(all.results).toHaveLength(30);
    // Page by page through the next links, none past the end.
    const seen: string[] = [];
    let url: string | null = `${table}?${broad}&page_size=4`;
    while (url) {
      const answer: { statusCode: number; json: () => { results: { atm_id: string }[]; next: string | null } } = await t.app.inject({
        method: 'GET',
        url,
        headers: { authorization },
      });
      expect(answer.statusCode, url).toBe(200);
      const page: { results: { atm_id: string }[]; next: string | null } = answer.json();
      seen.push(...page.results.map((r) => r.atm_id));
      url = page.next;
    }
    expect(seen).toEqual(all.results.map((r) => r.atm_id));
    const last = await get(`${broad}&page_size=4&page=last`);
    expect(last).toMatchObject({ count: 30, count_exact: true, page: 8, total_pages: 8, next: null, previous: expect.stringContaining('page=7') });
    expect(last.results.map((r) => r.atm_id)).toEqual(all.results.slice(28).map((r) => r.atm_id));
    // Past the rows there are: no page.
    const past = await t.app.inject({ method: 'GET', url: `${table}?${broad}&page_size=4&page=9`, headers: { authorization } });
    expect(past.statusCode).toBe(404);
    expect(past.json()).toEqual({ detail: 'Invalid page.' });
  });

  it('counts a filter once per data: asked again from the cache, after a write counted again', async () => {
    const before = await get(`${broad}&page=last&page_size=4`);
    const { hits, misses } = countCacheStats();
    expect(await get(`${broad}&page=last&page_size=4`)).toEqual(before);
    expect(countCacheStats().hits).toBeGreaterThan(hits);
    expect(countCacheStats().misses).toBe(misses);
    // A write: one more matching record, seen at once.
    await t.database.db.insert(ejRecords).values(record(30));
    await t.database.db.execute(sql`select dispute_records_link(null)`);
    const after = await get(`${broad}&page=last&page_size=4`);
    expect(after.count).toBe(before.count + 1);
    expect(countCacheStats().misses).toBeGreaterThan(misses);
    // A write that matches nothing still moves the version: the count is read again, the same.
    const [versions] = await queryRows<{ n: string }>(t.database.db, sql`select count(*) as n from data_versions where table_name = 'ej_records'`);
    expect(Number(versions!.n)).toBeGreaterThan(0);
    await t.database.db.execute(sql`delete from ej_records where atm_id = 'none such'`);
    const missed = countCacheStats().misses;
    expect((await get(`${broad}&page=last&page_size=4`)).count).toBe(after.count);
    // Read again: the count and what else the page keeps (its filters' matched values).
    const recounted = countCacheStats().misses;
    expect(recounted).toBeGreaterThan(missed);
    // ...once: asked again with no write between, all of it comes from what was kept.
    expect((await get(`${broad}&page=last&page_size=4`)).count).toBe(after.count);
    expect(countCacheStats().misses).toBe(recounted);
  });

  it('keeps a one-filter count, summed from the value counts, until a write', async () => {
    const query = 'card_no=XXXX&page=last&page_size=4';
    const before = await get(query);
    const { hits, misses } = countCacheStats();
    expect(await get(query)).toEqual(before);
    expect(countCacheStats().hits).toBeGreaterThan(hits);
    expect(countCacheStats().misses).toBe(misses);
    await t.database.db.insert(ejRecords).values(record(31));
    await t.database.db.execute(sql`select dispute_records_link(null)`);
    expect(await get(query)).toMatchObject({ count: before.count + 1, count_exact: true });
  });

  it('estimates the file lists and the Journals list too, and Last counts them exactly', async () => {
    await t.database.db.insert(dataFiles).values(
      Array.from({ length: 20 }, (_, i) => ({
        kind: 'text' as const,
        name: `text_${i}.txt`,
        subjectName: 'Harbor text',
        createAt: new Date(Date.UTC(2026, 9, 1 + i)),
      })),
    );
    const files = '/api/scrape/text/email/data/pagination/';
    const first = await t.app.inject({ method: 'GET', url: `${files}?page_size=6&create_at_after=2026-10-01`, headers: { authorization } });
    expect(first.json()).toMatchObject({ count_exact: false, page: 1, next: expect.stringContaining('page=2') });
    expect(first.json().count).toBeGreaterThan(12);
    const last = await t.app.inject({ method: 'GET', url: `${files}?page_size=6&create_at_after=2026-10-01&page=last`, headers: { authorization } });
    expect(last.json()).toMatchObject({ count: 20, count_exact: true, page: 4, total_pages: 4, next: null });
    expect(last.json().results.map((r: { name: string }) => r.name)).toEqual(['text_1.txt', 'text_0.txt']);
    const journals = await t.app.inject({ method: 'GET', url: '/api/journals/?page=last', headers: { authorization } });
    expect(journals.json()).toMatchObject({ count: 0, count_exact: true, page: 1, results: [] });
  });

  it('answers page=last on the email lists, and refuses a page that is neither a number nor last', async () => {
    const emails = await t.app.inject({ method: 'GET', url: '/api/scrape/email/to/json/pagination/?page=last', headers: { authorization } });
    expect(emails.statusCode, emails.body).toBe(200);
    expect(emails.json()).toMatchObject({ count_exact: true, page: 1 });
    const bad = await t.app.inject({ method: 'GET', url: `${table}?page=first`, headers: { authorization } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/page/);
  });
});
