// Files of every kind (text, missing, missing_txn, between_successful, excel, pdf, other): one set of
// queries, the kind is data.
import { and, asc, count, desc, eq } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { dataFileRows, dataFiles, type DataFileKind } from '../schema.ts';
import { containsText, withinDays, type Page, type PageOf } from './filters.ts';

export interface DataFileFilters {
  name?: string | undefined;
  subjectName?: string | undefined;
  createdFrom?: string | undefined;
  createdTo?: string | undefined;
}

const fileColumns = {
  id: dataFiles.id,
  name: dataFiles.name,
  subject_name: dataFiles.subjectName,
  create_at: dataFiles.createAt,
  update_at: dataFiles.updateAt,
};

export type DataFileRow = { id: number; name: string; subject_name: string; create_at: Date; update_at: Date };

export async function listDataFiles(db: Db, kind: DataFileKind, filters: DataFileFilters, page: Page): Promise<PageOf<DataFileRow>> {
  const where = and(
    eq(dataFiles.kind, kind),
    containsText(dataFiles.name, filters.name),
    containsText(dataFiles.subjectName, filters.subjectName),
    withinDays(dataFiles.createAt, filters.createdFrom, filters.createdTo),
  );
  const [total] = await db.select({ n: count() }).from(dataFiles).where(where);
  const rows = await db
    .select(fileColumns)
    .from(dataFiles)
    .where(where)
    .orderBy(desc(dataFiles.createAt), desc(dataFiles.id))
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  return { count: total?.n ?? 0, rows };
}

/** Every file of a kind, newest first (the unpaginated Excel, PDF and other-format lists). */
export async function listAllDataFiles(db: Db, kind: DataFileKind): Promise<DataFileRow[]> {
  return db.select(fileColumns).from(dataFiles).where(eq(dataFiles.kind, kind)).orderBy(desc(dataFiles.createAt), desc(dataFiles.id));
}

/** A file of that kind with its extracted rows in file order, or undefined. */
export async function findDataFile(db: Db, kind: DataFileKind, id: number) {
  const [file] = await db.select(fileColumns).from(dataFiles).where(and(eq(dataFiles.id, id), eq(dataFiles.kind, kind)));
  if (!file) return undefined;
  const rows = await db.select().from(dataFileRows).where(eq(dataFileRows.dataFileId, id)).orderBy(asc(dataFileRows.position));
  return { file, rows };
}

export type DataFileRowRecord = typeof dataFileRows.$inferSelect;
