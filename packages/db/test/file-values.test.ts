// The file lists' counts from file_values against counting the files themselves (ILIKE on each
// file), after inserts, renames, moves between kinds and deletes, and under writers racing on the
// same names, on PGlite and, with TEST_DATABASE_URL, on PostgreSQL; and their pages in name order
// (the walk bounded by the first and last matching names file_values holds) against a plain ORDER BY.
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containsText, countCacheStats, dataFiles, listDataFiles, withinDays, type Database, type DataFileFilters, type DataFileKind } from '../src/index.ts';
import { backends, migrated } from './backends.ts';
import { seed } from '../src/seed.ts';

describe.each(backends)('file list counts on %s', (backend) => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await migrated(backend));
    await seed(database.db, { emails: 0, ej: 0, filesPerKind: 300, now: new Date('2026-06-15T12:00:00Z') });
    await database.db
      .update(dataFiles)
      .set({ name: sql`'renamed_' || ${dataFiles.name}` })
      .where(sql`${dataFiles.id} % 11 = 0`);
    await database.db
      .update(dataFiles)
      .set({ kind: sql`case when ${dataFiles.kind} = 'text' then 'missing' else 'text' end`, subjectName: sql`${dataFiles.subjectName} || ' moved'` })
      .where(sql`${dataFiles.id} % 7 = 0 and ${dataFiles.kind} in ('text', 'missing')`);
    await database.db.delete(dataFiles).where(sql`${dataFiles.id} % 13 = 0`);
    // Then names and subjects no generator made: mixed case, LIKE's own characters, non-ASCII, duplicates.
    await database.db.insert(dataFiles).values([
      { kind: 'text', name: 'HARBOR_EJ_100%_Done.TXT', subjectName: 'Re: 100% of the EJ_Files' },
      { kind: 'text', name: 'harbor_ej_100%_done.txt', subjectName: 're: 100% of the ej_files' },
      { kind: 'text', name: 'back\\slash_Ünïcode.txt', subjectName: 'ÉCHANGE de données \\ retour' },
      { kind: 'text', name: 'same.txt', subjectName: 'same subject' },
      { kind: 'text', name: 'same.txt', subjectName: 'same subject' },
      { kind: 'text', name: 'same.txt', subjectName: 'moved to pdf' },
    ]);
    await database.db
      .update(dataFiles)
      .set({ kind: 'pdf' })
      .where(sql`${dataFiles.name} = 'same.txt' and ${dataFiles.subjectName} = 'moved to pdf'`);
  });
  afterAll(() => drop());

  /** The filters as ILIKE on each file, as a list would match them without file_values. */
  const plainly = (kind: DataFileKind, filters: DataFileFilters) =>
    and(
      eq(dataFiles.kind, kind),
      containsText(dataFiles.name, filters.name),
      containsText(dataFiles.subjectName, filters.subjectName),
      withinDays(dataFiles.createAt, filters.createdFrom, filters.createdTo),
    );
  const plainCount = async (kind: DataFileKind, filters: DataFileFilters) => {
    const [row] = await database.db.select({ n: count() }).from(dataFiles).where(plainly(kind, filters));
    return row!.n;
  };

  const cases: [DataFileKind, DataFileFilters][] = [
    ['text', { name: 'txt' }],
    ['text', { name: 'HRB' }],
    ['text', { name: 'renamed_' }],
    ['missing', { name: 'renamed' }],
    ['text', { subjectName: 'data' }],
    ['text', { subjectName: 'MOVED' }],
    ['missing', { subjectName: 'moved' }],
    ['text', { subjectName: 'harbor' }],
    ['text', { name: '100%' }],
    ['text', { name: '_ej_' }],
    ['text', { subjectName: 'ej_files' }],
    ['text', { name: 'back\\slash' }],
    ['text', { name: 'ünïcode' }],
    ['text', { subjectName: 'échange' }],
    ['text', { name: 'same.txt' }],
    ['text', { subjectName: 'same subject' }],
    ['pdf', { name: 'SAME' }],
    ['text', { name: 'txt', subjectName: 'data' }],
    ['text', { name: 'HRB', createdFrom: '2026-01-01', createdTo: '2026-03-31' }],
  ];

  it.each(cases)('counts %s files with %o as counting the files does', async (kind, filters) => {
    const truth = await plainCount(kind, filters);
    expect(truth).toBeGreaterThan(0);
    expect((await listDataFiles(database.db, kind, filters, { page: 1, pageSize: 10 })).count).toBe(truth);
  });

  it.each(cases)('pages %s files with %o in name order, both ways, as a plain ORDER BY does', async (kind, filters) => {
    for (const descending of [false, true]) {
      const dir = descending ? desc : asc;
      const plain = await database.db
        .select({ id: dataFiles.id })
        .from(dataFiles)
        .where(plainly(kind, filters))
        .orderBy(dir(dataFiles.name), dir(dataFiles.id));
      const paged: number[] = [];
      for (let page = 1; paged.length < plain.length; page++) {
        const { rows } = await listDataFiles(database.db, kind, filters, { page, pageSize: 7 }, { field: 'name', descending });
        expect(rows.length).toBeGreaterThan(0);
        paged.push(...rows.map((row) => row.id));
      }
      expect(paged).toEqual(plain.map((row) => row.id));
    }
  });

  it('counts 0 for a filter no file matches, LIKE characters taken literally', async () => {
    for (const filters of [{ name: 'no such file' }, { name: '%x%' }, { subjectName: '_' + '_'.repeat(200) }, { name: '\\' + '%' }]) {
      expect(await plainCount('text', filters)).toBe(0);
      expect((await listDataFiles(database.db, 'text', filters, { page: 1, pageSize: 10 })).count).toBe(0);
      expect((await listDataFiles(database.db, 'text', filters, { page: 1, pageSize: 10 }, { field: 'name', descending: true })).rows).toEqual([]);
    }
  });

  it('holds no count for a name no file has any longer, though the count was asked and kept before', async () => {
    const asked = () => listDataFiles(database.db, 'pdf', { name: 'same' }, { page: 1, pageSize: 10 });
    expect((await asked()).count).toBe(1);
    // Asked again on the same data: its matching names come from the kept answer.
    const before = countCacheStats().hits;
    expect((await asked()).count).toBe(1);
    expect(countCacheStats().hits).toBe(before + 1);
    await database.db.delete(dataFiles).where(sql`${dataFiles.name} = 'same.txt' and ${dataFiles.kind} = 'pdf'`);
    expect((await asked()).count).toBe(0);
    expect((await asked()).rows).toEqual([]);
  });

  // A subject filter's page in name order merges each matching subject's walk; the subjects are
  // kept with data_files' write version, so a subject given to files since is walked too.
  it('pages a subject in name order after files take it, though its subjects were asked and kept before', async () => {
    const filters = { subjectName: 'Renewed' };
    const pages = async () => {
      const rows: number[] = [];
      for (let page = 1; page <= 6; page++)
        rows.push(...(await listDataFiles(database.db, 'text', filters, { page, pageSize: 3 }, { field: 'name', descending: false })).rows.map((r) => r.id));
      return rows;
    };
    const plain = async () =>
      (await database.db.select({ id: dataFiles.id }).from(dataFiles).where(plainly('text', filters)).orderBy(asc(dataFiles.name), asc(dataFiles.id))).map(
        (r) => r.id,
      );
    await database.db.execute(sql`update data_files set subject_name = subject_name || ' renewed ' || (id % 3) where kind = 'text' and id % 17 = 1`);
    expect(await pages()).toEqual((await plain()).slice(0, 18));
    expect(await pages()).toEqual((await plain()).slice(0, 18));
    // More files take the subject (new subjects among them), and some of those before leave it.
    await database.db.execute(sql`update data_files set subject_name = subject_name || ' renewed ' || (id % 5) where kind = 'text' and id % 19 = 2`);
    await database.db.execute(sql`update data_files set subject_name = 'left' where kind = 'text' and id % 17 = 1 and id % 2 = 0`);
    const after = await plain();
    expect(after.length).toBeGreaterThan(18);
    expect(await pages()).toEqual(after.slice(0, 18));
  });

  // Last: it adds files. The ingester's lanes and several processes store files at once.
  it('stays exact when many writers insert, rename and delete the same names at once', async () => {
    await Promise.all(
      Array.from({ length: 12 }, (_, w) =>
        database.db.transaction(async (tx) => {
          await tx
            .insert(dataFiles)
            .values(Array.from({ length: 20 }, (_, i) => ({ kind: 'excel' as const, name: `race_${(w * 20 + i) % 3}.xlsx`, subjectName: `race ${i % 2}` })));
          if (w % 3 === 0) await tx.delete(dataFiles).where(sql`${dataFiles.name} = 'race_0.xlsx' and ${dataFiles.id} % 2 = 0`);
          if (w % 4 === 1)
            await tx
              .update(dataFiles)
              .set({ name: 'race_moved.xlsx' })
              .where(sql`${dataFiles.name} = 'race_1.xlsx' and ${dataFiles.id} % 5 = 0`);
        }),
      ),
    );
    for (const filters of [{ name: 'race_' }, { name: 'RACE_0' }, { name: 'moved' }, { subjectName: 'race 1' }]) {
      const truth = await plainCount('excel', filters);
      expect(truth).toBeGreaterThan(0);
      expect((await listDataFiles(database.db, 'excel', filters, { page: 1, pageSize: 10 })).count).toBe(truth);
    }
  });
});
