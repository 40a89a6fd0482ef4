import { emails, type EmailCategory } from '@ejdesk/db';
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { categoryLists } from '../src/routes/emails/index.ts';
import { backends, createTestApp, login, type TestApp } from './helpers.ts';

interface Fixture {
  subject: string;
  from: string;
  category: EmailCategory;
  read: boolean;
  /** Received and created on this instant (UTC). */
  at: string;
}

// January 2025: 10 emails whose counts the tests know; one in February and one on New Year's Eve.
const january: Fixture[] = [
  { subject: 'ATM dispute APX00001', from: 'disputes@atlas-atm.example', category: 'processed', read: true, at: '2025-01-02T08:00:00Z' },
  { subject: 'ATM dispute APX00002', from: 'disputes@atlas-atm.example', category: 'processed', read: true, at: '2025-01-03T08:00:00Z' },
  { subject: 'ATM dispute HRB00003', from: 'ops@harborbank.example', category: 'processed', read: true, at: '2025-01-04T08:00:00Z' },
  { subject: 'ATM dispute HRB00004', from: 'ops@harborbank.example', category: 'processed', read: false, at: '2025-01-05T08:00:00Z' },
  { subject: 'Newsletter 100% off', from: 'news@vendor.example', category: 'ignored', read: true, at: '2025-01-06T08:00:00Z' },
  { subject: 'Newsletter_weekly', from: 'news@vendor.example', category: 'ignored', read: false, at: '2025-01-06T20:00:00Z' },
  { subject: 'EJ missing MRD00007', from: 'ops@meridianbank.example', category: 'ej_not_found', read: false, at: '2025-01-07T00:00:00Z' },
  { subject: 'Re: ATM dispute APX00001', from: 'disputes@atlas-atm.example', category: 'same_subject', read: true, at: '2025-01-07T23:59:59Z' },
  { subject: 'Re: ATM dispute APX00002', from: 'disputes@atlas-atm.example', category: 'same_subject', read: true, at: '2025-01-08T09:00:00Z' },
  { subject: 'Re: ATM dispute HRB00003', from: 'ops@harborbank.example', category: 'same_subject_processing', read: true, at: '2025-01-31T23:59:59Z' },
];
const others: Fixture[] = [
  { subject: 'ATM dispute SNB00011', from: 'ops@summitnational.example', category: 'processed', read: true, at: '2025-02-01T00:00:00Z' },
  { subject: 'ATM dispute SNB00012', from: 'ops@summitnational.example', category: 'processed', read: false, at: '2024-12-31T23:59:59Z' },
];

describe.each(backends)('email monitoring API on %s', (backend) => {
  let t: TestApp;
  let authorization: string;
  const ids = new Map<string, number>();

  beforeAll(async () => {
    t = await createTestApp(backend);
    authorization = `JWT ${(await login(t.app)).access}`;
    for (const f of [...january, ...others]) {
      const [row] = await t.database.db
        .insert(emails)
        .values({
          emailFrom: f.from,
          emailTo: 'ej-desk@operations.example',
          subject: f.subject,
          normalizedSubject: f.subject.toLowerCase(),
          emailBody: `Body of ${f.subject}`,
          emailBodyHtml: `<p>Body of <b>${f.subject}</b></p>`,
          receivedAt: new Date(f.at),
          createAt: new Date(f.at),
          updateAt: new Date(new Date(f.at).getTime() + 60_000),
          category: f.category,
          isRead: f.read,
          jsonLoadData: [{ 'ATM ID': f.subject.slice(-8), Amount: 100 }],
        })
        .returning({ id: emails.id });
      ids.set(f.subject, row!.id);
    }
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization } });
  const subjects = async (url: string) => (await get(url)).json().results.map((r: { subject_name: string }) => r.subject_name);

  describe('dashboard counts', () => {
    it('counts the month by category and read flag, total = read + unread', async () => {
      const response = await get('/api/scrape/email/dashboard/count/?date=2025-Jan');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        total_emails: 10,
        read: 7,
        unread: 3,
        email_ignores: 2,
        ej_not_found: 1,
        email_same_subject_processing: 1,
        email_same_subject_count: 2,
      });
      expect((await get('/api/scrape/email/dashboard/count/?date=2025-feb')).json()).toMatchObject({ total_emails: 1, read: 1 });
      expect((await get('/api/scrape/email/dashboard/count/?date=2023-Mar')).json()).toMatchObject({ total_emails: 0, read: 0, unread: 0 });
    });

    it.each(['2025-Foo', '2025-01', 'January', '25-Jan', ''])('refuses the month %j with 400', async (date) => {
      const response = await get(`/api/scrape/email/dashboard/count/?date=${date}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().detail).toMatch(/date/);
    });
  });

  describe('the scraped-emails list (/all-email)', () => {
    const list = '/api/scrape/email/to/json/pagination/';

    it('answers the list shape, newest first, with only the list fields', async () => {
      const body = (await get(`${list}?page_size=5`)).json();
      expect(body).toMatchObject({ count: 12, total_pages: 3, previous: null });
      expect(body.next).toBe(`${list}?page_size=5&page=2`);
      expect(body.results).toHaveLength(5);
      expect(Object.keys(body.results[0]).sort()).toEqual(['create_at', 'email_from', 'id', 'subject_name', 'update_at']);
      expect(body.results[0].subject_name).toBe('ATM dispute SNB00011');
      const times = body.results.map((r: { create_at: string }) => Date.parse(r.create_at));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
    });

    it('pages to the last page and refuses the page past it', async () => {
      const last = (await get(`${list}?page_size=5&page=3`)).json();
      expect(last).toMatchObject({ count: 12, total_pages: 3, next: null, previous: `${list}?page_size=5&page=2` });
      expect(last.results).toHaveLength(2);
      expect(last.results.at(-1).subject_name).toBe('ATM dispute SNB00012');
      const past = await get(`${list}?page_size=5&page=4`);
      expect(past.statusCode).toBe(404);
      expect(past.json()).toEqual({ detail: 'Invalid page.' });
    });

    it('filters by subject and sender, case-insensitively, with % and _ taken literally', async () => {
      expect(await subjects(`${list}?subject_name=re:%20atm`)).toEqual(['Re: ATM dispute HRB00003', 'Re: ATM dispute APX00002', 'Re: ATM dispute APX00001']);
      expect(await subjects(`${list}?subject_name=${encodeURIComponent('100%')}`)).toEqual(['Newsletter 100% off']);
      expect(await subjects(`${list}?subject_name=${encodeURIComponent('r_w')}`)).toEqual(['Newsletter_weekly']);
      expect((await get(`${list}?email_from=HARBORBANK`)).json().count).toBe(3);
      expect((await get(`${list}?email_from=nobody`)).json()).toMatchObject({ count: 0, total_pages: 1, results: [] });
    });

    it('bounds the creation date by whole days, both ends inclusive; empty filters mean none', async () => {
      expect(await subjects(`${list}?create_at_after=2025-01-07&create_at_before=2025-01-07`)).toEqual(['Re: ATM dispute APX00001', 'EJ missing MRD00007']);
      expect((await get(`${list}?create_at_after=2025-01-31`)).json().count).toBe(2);
      expect((await get(`${list}?create_at_before=2024-12-31`)).json().count).toBe(1);
      expect((await get(`${list}?subject_name=&email_from=&create_at_after=&create_at_before=`)).json().count).toBe(12);
    });

    it.each([
      ['page=abc', /'page': must be a whole number/],
      ['page=0', /'page': must be >= 1/],
      ['page_size=0', /'page_size': must be >= 1/],
      ['page_size=1000', /'page_size': must be <= 100/],
      ['create_at_after=2025-02-30', /'create_at_after': must be a date as YYYY-MM-DD/],
      ['create_at_before=yesterday', /'create_at_before': must be a date/],
      ['colour=red', /unknown field 'colour'/],
      [`subject_name=${'x'.repeat(201)}`, /'subject_name'/],
    ])('refuses %s with 400 and a detail', async (query, detail) => {
      const response = await get(`${list}?${query}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().detail).toMatch(detail);
    });
  });

  describe('the seven category lists', () => {
    const expected: Record<string, number> = {
      '/ejs/not/found/email/': 1,
      '/ejs/ignore/email/data/': 2,
      '/ejs/read/email/': 8,
      '/ejs/same/subject/email/': 2,
      '/ejs/same/subject/email/processing/': 1,
      '/ejs/un/read/email/': 4,
      '/ejs/total/email/': 12,
    };

    it.each(categoryLists.map(([path]) => path))('%s lists its emails', async (path) => {
      const body = (await get(`/api/scrape${path}?page_size=100`)).json();
      expect(body.count).toBe(expected[path]);
      expect(body.results).toHaveLength(expected[path]!);
    });

    it('filter by subject and by one day, and page', async () => {
      expect(await subjects('/api/scrape/ejs/same/subject/email/?subject=apx00002')).toEqual(['Re: ATM dispute APX00002']);
      expect(await subjects('/api/scrape/ejs/total/email/?date=2025-01-06')).toEqual(['Newsletter_weekly', 'Newsletter 100% off']);
      const second = (await get('/api/scrape/ejs/read/email/?page=2&page_size=5')).json();
      expect(second).toMatchObject({ count: 8, total_pages: 2, next: null });
      expect(second.results).toHaveLength(3);
      expect((await get('/api/scrape/ejs/read/email/?page=3&page_size=5')).statusCode).toBe(404);
      expect((await get('/api/scrape/ejs/read/email/?date=2025-13-01')).statusCode).toBe(400);
      expect((await get('/api/scrape/ejs/read/email/?page_size=abc')).statusCode).toBe(400);
    });
  });

  describe('a dashboard month on the lists (month=2025-Jan: received in that month)', () => {
    const fields: Record<string, string> = {
      '/ejs/not/found/email/': 'ej_not_found',
      '/ejs/ignore/email/data/': 'email_ignores',
      '/ejs/read/email/': 'read',
      '/ejs/same/subject/email/': 'email_same_subject_count',
      '/ejs/same/subject/email/processing/': 'email_same_subject_processing',
      '/ejs/un/read/email/': 'unread',
      '/ejs/total/email/': 'total_emails',
      '/email/to/json/pagination/': 'total_emails',
    };
    it.each(Object.entries(fields))("%s totals the dashboard's %s of the month", async (path, field) => {
      for (const month of ['2025-Jan', '2025-feb', '2023-Mar']) {
        const counts = (await get(`/api/scrape/email/dashboard/count/?date=${month}`)).json();
        const body = (await get(`/api/scrape${path}?month=${month}&page_size=100`)).json();
        expect(body.count, month).toBe(counts[field]);
        expect(body.results, month).toHaveLength(counts[field]);
      }
    });

    it('combines with the other filters and refuses a month that is not one', async () => {
      // Received and created at the same instant in these fixtures.
      const all = (await get('/api/scrape/ejs/total/email/?subject=dispute&page_size=100')).json().results as { subject_name: string; create_at: string }[];
      const january = all.filter((r) => r.create_at.startsWith('2025-01')).map((r) => r.subject_name);
      expect(january.length).toBeGreaterThan(0);
      expect(january.length).toBeLessThan(all.length);
      expect(await subjects('/api/scrape/ejs/total/email/?month=2025-Jan&subject=dispute&page_size=100')).toEqual(january);
      // An empty month means none, as every empty filter does.
      expect((await get('/api/scrape/ejs/un/read/email/?month=')).json().count).toBe(4);
      for (const url of [
        '/api/scrape/ejs/read/email/?month=2025-13',
        '/api/scrape/email/to/json/pagination/?month=Jan',
        '/api/scrape/ejs/total/email/?month=0000-Jan',
      ]) {
        const response = await get(url);
        expect(response.statusCode, url).toBe(400);
        expect(response.json().detail, url).toMatch(/'month': must be a month as YYYY-Mon/);
      }
    });
  });

  describe('ordering (DRF style: a response field, - for descending)', () => {
    const order = async (url: string) => ((await get(url)).json().results as { id: number; create_at: string }[]).map((r) => [r.create_at, r.id] as const);
    const sorted = (rows: (readonly [string, number])[], descending: boolean) =>
      [...rows].sort((a, b) => (a[0] === b[0] ? a[1] - b[1] : a[0] < b[0] ? -1 : 1) * (descending ? -1 : 1));

    it.each(['/email/to/json/pagination/', ...categoryLists.map(([path]) => path)])('%s orders by create_at both ways, ties by id', async (path) => {
      const oldest = await order(`/api/scrape${path}?ordering=create_at&page_size=100`);
      const newest = await order(`/api/scrape${path}?ordering=-create_at&page_size=100`);
      expect(oldest.length).toBeGreaterThan(0);
      expect(oldest).toEqual(sorted(oldest, false));
      expect(newest).toEqual(sorted(oldest, true));
      expect(await order(`/api/scrape${path}?page_size=100`)).toEqual(newest);
    });

    it.each(['/email/to/json/pagination/', ...categoryLists.map(([path]) => path)])(
      '%s orders by update_at both ways, ties by id, across pages and under a subject filter',
      async (path) => {
        // Updated in another order than created (and some at one instant); put back afterwards.
        await t.database.db.execute(
          sql`update emails set update_at = case when id % 5 = 0 then timestamptz '2025-03-01T00:00:00Z' else create_at + ((id * 7) % 11) * interval '1 day' end`,
        );
        try {
          const updated = async (url: string) =>
            ((await get(url)).json().results as { id: number; update_at: string }[]).map((r) => [r.update_at, r.id] as const);
          for (const descending of [false, true]) {
            const ordering = `${descending ? '-' : ''}update_at`;
            const all = await updated(`/api/scrape${path}?ordering=${ordering}&page_size=100`);
            expect(all.length).toBeGreaterThan(0);
            expect(all).toEqual(sorted(all, descending));
            const paged: (readonly [string, number])[] = [];
            for (let page = 1; page <= Math.ceil(all.length / 3); page++)
              paged.push(...(await updated(`/api/scrape${path}?ordering=${ordering}&page_size=3&page=${page}`)));
            expect(paged).toEqual(all);
            const subject = path.startsWith('/email/') ? 'subject_name' : 'subject';
            const filtered = await updated(`/api/scrape${path}?ordering=${ordering}&${subject}=dispute&page_size=100`);
            expect(filtered).toEqual(sorted(filtered, descending));
            // Created from a day on: the same emails as in creation order, in update order.
            const after = path.startsWith('/email/') ? 'create_at_after' : 'date';
            const created = (await get(`/api/scrape${path}?${after}=2025-01-05&page_size=100`)).json().results as { id: number; update_at: string }[];
            const since = await updated(`/api/scrape${path}?ordering=${ordering}&${after}=2025-01-05&page_size=100`);
            expect(since).toEqual(
              sorted(
                created.map((r) => [r.update_at, r.id] as const),
                descending,
              ),
            );
          }
        } finally {
          await t.database.db.execute(sql`update emails set update_at = create_at + interval '60 seconds'`);
        }
      },
    );

    it('breaks ties by id in the same direction, and refuses any other field naming it', async () => {
      // Three emails created at the same instant (removed afterwards: later tests count the fixtures).
      const same = new Date('2025-01-15T09:00:00Z');
      const tied = await t.database.db
        .insert(emails)
        .values([1, 2, 3].map((n) => ({ emailFrom: 'tie@example', subject: `Tie ${n}`, receivedAt: same, createAt: same, updateAt: same })))
        .returning({ id: emails.id });
      const ids = tied.map((r) => r.id);
      const at = (rows: (readonly [string, number])[]) => rows.filter(([, id]) => ids.includes(id)).map(([, id]) => id);
      expect(at(await order('/api/scrape/ejs/total/email/?ordering=create_at&page_size=100'))).toEqual([...ids].sort((a, b) => a - b));
      expect(at(await order('/api/scrape/ejs/total/email/?ordering=-create_at&page_size=100'))).toEqual([...ids].sort((a, b) => b - a));
      await t.database.db.delete(emails).where(inArray(emails.id, ids));
      for (const bad of ['subject_name', '-received_at', 'create_at,id', '--create_at', 'CREATE_AT']) {
        const response = await get(`/api/scrape/email/to/json/pagination/?ordering=${encodeURIComponent(bad)}`);
        expect(response.statusCode, bad).toBe(400);
        expect(response.json().detail, bad).toBe(`query 'ordering': cannot order by '${bad}'; one of -create_at, create_at, -update_at, update_at.`);
      }
    });
  });

  describe('JSON data and details', () => {
    it('lists the JSON data of the newest emails and of one email', async () => {
      const all = (await get('/api/scrape/email/to/json/data/?limit=3')).json();
      expect(all).toHaveLength(3);
      expect(all[0]).toEqual({
        id: ids.get('ATM dispute SNB00011'),
        subject_name: 'ATM dispute SNB00011',
        json_load_data: [{ 'ATM ID': 'SNB00011', Amount: 100 }],
      });
      const one = (await get(`/api/scrape/email/to/json/data/${ids.get('EJ missing MRD00007')}/`)).json();
      expect(one).toEqual([
        { id: ids.get('EJ missing MRD00007'), subject_name: 'EJ missing MRD00007', json_load_data: [{ 'ATM ID': 'MRD00007', Amount: 100 }] },
      ]);
      expect((await get('/api/scrape/email/to/json/data/999999/')).statusCode).toBe(404);
      expect((await get('/api/scrape/email/to/json/data/?limit=0')).statusCode).toBe(400);
    });

    it("answers an email's details with every field", async () => {
      const id = ids.get('ATM dispute HRB00004')!;
      const response = await get(`/api/scrape/email/body/html/text/data/${id}/`);
      expect(response.json()).toEqual({
        id,
        from_email: 'ops@harborbank.example',
        to_email: 'ej-desk@operations.example',
        subject: 'ATM dispute HRB00004',
        email_body: 'Body of ATM dispute HRB00004',
        email_body_html: '<p>Body of <b>ATM dispute HRB00004</b></p>',
        num_of_email: 1,
        date_time_of_email: '2025-01-05T08:00:00.000Z',
        create_at: '2025-01-05T08:00:00.000Z',
        update_at: '2025-01-05T08:01:00.000Z',
      });
      expect((await get('/api/scrape/email/body/html/text/data/424242/')).json()).toEqual({ detail: 'Not found.' });
      expect((await get('/api/scrape/email/body/html/text/data/x1/')).statusCode).toBe(400);
    });
  });
});
