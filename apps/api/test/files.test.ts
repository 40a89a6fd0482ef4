import { sql } from 'drizzle-orm';
import { dataFileRows, dataFiles, queryRows, type DataFileKind } from '@ejdesk/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileKinds } from '../src/routes/files/index.ts';
import { backends, createTestApp, login, type TestApp } from './helpers.ts';

const keys = [
  'ID',
  'ATM ID',
  'CARD No.',
  'TXT No.',
  'TXT Date.(DD/MM/YY)',
  'TXT Amt.',
  'Dispute Amt.',
  'Overage',
  'MSP Remarks',
  'MSP RefNo.',
  'Short Desc.',
  'EJ_Error',
  'Complaint Date/Received from MSP(DD/MM/YY)',
  'Short_Description',
  'Mail Received From',
  'MailSubject',
];

describe.each(backends)('file data API on %s', (backend) => {
  let t: TestApp;
  let authorization: string;
  const firstIds = new Map<DataFileKind, number>();

  beforeAll(async () => {
    t = await createTestApp(backend);
    authorization = `JWT ${(await login(t.app)).access}`;
    for (const { kind } of fileKinds) {
      // 12 files a kind, one a day from 2025-02-01; file n has n rows.
      const files = await t.database.db
        .insert(dataFiles)
        .values(
          Array.from({ length: 12 }, (_, i) => ({
            kind,
            name: `${kind}_${i % 2 ? 'APX' : 'HRB'}_${i + 1}.txt`,
            subjectName: `${kind} data ${i % 3 ? 'Apex Bank' : 'Harbor Bank'}`,
            createAt: new Date(Date.UTC(2025, 1, i + 1, 10)),
            // Updated in another order than created, some on the same hour (ties go by id); the last as created.
            updateAt: new Date(Date.UTC(2025, 1, i === 11 ? 12 : ((i * 5) % 7) + 1, 11)),
          })),
        )
        .returning({ id: dataFiles.id });
      firstIds.set(kind, files[0]!.id);
      await t.database.db.insert(dataFileRows).values(
        files.flatMap(({ id }, f) =>
          Array.from({ length: f + 1 }, (_, p) => ({
            dataFileId: id,
            position: p + 1,
            atmId: `APX${String(p).padStart(5, '0')}`,
            cardNo: `412345XXXXXX${1000 + p}`,
            txtNo: String(700000 + p),
            txtDate: '2025-01-07',
            txtAmt: '1500.00',
            disputeAmt: '500.00',
            overage: '0.00',
            mspRemarks: 'Refund processed',
            mspRefNo: `REF${p}`,
            shortDesc: 'CASH NOT DISPENSED',
            ejError: 'Cash retracted',
            complaintDate: '2025-01-09',
            shortDescription: 'cash not dispensed',
            mailReceivedFrom: 'disputes@atlas-atm.example',
            mailSubject: `${kind} data`,
            responseCode: '91',
          })),
        ),
      );
    }
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization } });

  describe.each(fileKinds.filter((k) => k.paginated))('$base', ({ kind, base }) => {
    const list = `/api/scrape${base}/pagination/`;

    it('pages the files newest first, with the list fields', async () => {
      const body = (await get(`${list}?page_size=5`)).json();
      expect(body).toMatchObject({ count: 12, total_pages: 3, previous: null });
      expect(body.results[0]).toEqual({
        id: expect.any(Number),
        name: `${kind}_APX_12.txt`,
        subject_name: `${kind} data Apex Bank`,
        create_at: '2025-02-12T10:00:00.000Z',
        update_at: '2025-02-12T11:00:00.000Z',
      });
      expect((await get(`${list}?page_size=5&page=3`)).json().results).toHaveLength(2);
      expect((await get(`${list}?page_size=5&page=4`)).statusCode).toBe(404);
    });

    it('filters by name, subject and creation days; empty values are no filter', async () => {
      expect((await get(`${list}?name=hrb`)).json().count).toBe(6);
      expect((await get(`${list}?subject_name=HARBOR`)).json().count).toBe(4);
      expect((await get(`${list}?create_at_after=2025-02-03&create_at_before=2025-02-04`)).json().count).toBe(2);
      expect((await get(`${list}?name=&subject_name=&create_at_after=&create_at_before=`)).json().count).toBe(12);
    });

    it.each([
      ['create_at', false],
      ['create_at', true],
      ['update_at', false],
      ['update_at', true],
      ['name', false],
      ['name', true],
    ] as const)('orders by %s (descending: %s) as a plain ORDER BY does, ties by id, across pages', async (field, descending) => {
      const way = descending ? sql`desc` : sql`asc`;
      const expected = (
        await queryRows<{ id: string | number }>(
          t.database.db,
          sql`select id from data_files where kind = ${kind} order by ${sql.identifier(field)} ${way}, id ${way}`,
        )
      ).map((r) => Number(r.id));
      expect(expected).toHaveLength(12);
      const ordering = `${descending ? '-' : ''}${field}`;
      const got: number[] = [];
      for (let page = 1; page <= 3; page++) {
        got.push(...(await get(`${list}?page_size=5&page=${page}&ordering=${ordering}`)).json().results.map((r: { id: number }) => r.id));
      }
      expect(got).toEqual(expected);
      // Under a filter too.
      const harbor = (await get(`${list}?page_size=100&name=hrb&ordering=${ordering}`)).json().results.map((r: { id: number; name: string }) => r.id);
      expect(harbor).toEqual(expected.filter((id) => harbor.includes(id)));
      expect(harbor).toHaveLength(6);
      // A range of creation days (a few files: all of them read, then ordered), across pages too.
      const inRange = (
        await queryRows<{ id: string | number }>(
          t.database.db,
          sql`select id from data_files where kind = ${kind} and create_at >= '2025-02-02' and create_at < '2025-02-10' order by ${sql.identifier(field)} ${way}, id ${way}`,
        )
      ).map((r) => Number(r.id));
      expect(inRange).toHaveLength(8);
      const ranged: number[] = [];
      for (let page = 1; page <= 3; page++) {
        ranged.push(
          ...(await get(`${list}?page_size=3&page=${page}&create_at_after=2025-02-02&create_at_before=2025-02-09&ordering=${ordering}`))
            .json()
            .results.map((r: { id: number }) => r.id),
        );
      }
      expect(ranged).toEqual(inRange);
    });

    it('refuses any other ordering, naming it and the choices', async () => {
      const refused = await get(`${list}?ordering=subject_name`);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().detail).toBe("query 'ordering': cannot order by 'subject_name'; one of -create_at, create_at, -update_at, update_at, -name, name.");
    });

    it.each(['page=x', 'page_size=101', 'create_at_after=2025-02-31', 'sort=name'])('refuses %s with 400', async (query) => {
      const response = await get(`${list}?${query}`);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toHaveProperty('detail');
    });

    it('answers a file’s rows with the labelled keys, with and without the trailing slash', async () => {
      const id = firstIds.get(kind)! + 2;
      for (const url of [`/api/scrape${base}/${id}`, `/api/scrape${base}/${id}/`]) {
        const body = (await get(url)).json();
        expect(body).toMatchObject({ id, name: `${kind}_HRB_3.txt` });
        expect(body.text_data).toHaveLength(3);
        expect(Object.keys(body.text_data[0])).toEqual([...keys, 'Response Code', 'dispute_id']);
        expect(body.text_data[0]).toMatchObject({ 'ATM ID': 'APX00000', 'TXT Date.(DD/MM/YY)': '07/01/25', 'TXT Amt.': '1500.00', 'Response Code': '91' });
      }
      expect((await get(`/api/scrape${base}/999999`)).statusCode).toBe(404);
      expect((await get(`/api/scrape${base}/abc/`)).statusCode).toBe(400);
    });
  });

  describe.each(fileKinds.filter((k) => !k.paginated))('$base', ({ kind, base, rowsKey }) => {
    it('lists every file and answers its rows under its own key, the last one Response', async () => {
      const files = (await get(`/api/scrape${base}/`)).json();
      expect(files).toHaveLength(12);
      expect(Object.keys(files[0]).sort()).toEqual(['create_at', 'id', 'name', 'update_at']);
      const id = firstIds.get(kind)!;
      const body = (await get(`/api/scrape${base}/${id}/`)).json();
      expect(body[rowsKey]).toHaveLength(1);
      expect(Object.keys(body[rowsKey][0])).toEqual([...keys, 'Response', 'dispute_id']);
      // A file of another kind is not found under this kind's path.
      expect((await get(`/api/scrape${base}/${firstIds.get('text')}/`)).statusCode).toBe(404);
      expect((await get(`/api/scrape${base}/?page=2`)).statusCode).toBe(400);
    });
  });
});
