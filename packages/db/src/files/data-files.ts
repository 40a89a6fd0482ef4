// Files of every kind (text, missing, missing_txn, between_successful, excel, pdf, other): one set of
// queries, the kind is data.
import { and, asc, between, desc, eq, inArray, max, min, sql, type SQL } from 'drizzle-orm';
import { type Db, queryRows } from '../client.ts';
import { type Count, type Counting, countRows, keptAnswer } from '../counts/index.ts';
import { containsText, foldedContains, type Page, type PageOf, withinDays } from '../filters.ts';
import { type DataFileKind, dataFileRows, dataFiles, fileValues } from './schema.ts';

export interface DataFileFilters {
  name?: string | undefined;
  subjectName?: string | undefined;
  createdFrom?: string | undefined;
  createdTo?: string | undefined;
  /** How a count that reads the files reads them (counts/counts.ts): the list's bound unless given. */
  counting?: Counting | undefined;
}

const fileColumns = {
  id: dataFiles.id,
  name: dataFiles.name,
  subject_name: dataFiles.subjectName,
  create_at: dataFiles.createAt,
  update_at: dataFiles.updateAt,
};

export type DataFileRow = { id: number; name: string; subject_name: string; create_at: Date; update_at: Date };

/** The file lists' orders, each walking an index (kind, column, id); ties by id the same way. */
export const dataFileOrderFields = ['create_at', 'update_at', 'name'] as const;
export type DataFileOrder = { field: (typeof dataFileOrderFields)[number]; descending: boolean };
const newestFiles: DataFileOrder = { field: 'create_at', descending: true };
const fileOrderColumns = { create_at: dataFiles.createAt, update_at: dataFiles.updateAt, name: dataFiles.name };

/**
 * Up to this many matches of a range of creation days, a page in another order is sorted from all
 * of them: 10 ms for 34,000 at 1,000,000 files, where the Last Update walk took 38 ms.
 */
const FEW_FILES = 50_000;

export async function listDataFiles(
  db: Db,
  kind: DataFileKind,
  filters: DataFileFilters,
  page: Page,
  order: DataFileOrder = newestFiles,
): Promise<PageOf<DataFileRow>> {
  const dir = order.descending ? desc : asc;
  const where = and(
    eq(dataFiles.kind, kind),
    containsText(dataFiles.name, filters.name),
    containsText(dataFiles.subjectName, filters.subjectName),
    withinDays(dataFiles.createAt, filters.createdFrom, filters.createdTo),
  );
  // A name filter's matching values (file_values), read once: they count the files when it is the
  // only filter, and bound the walk in name order.
  const names = filters.name && (order.field === 'name' || onlyText(filters)) ? await matchingValues(db, kind, 'name', filters.name) : undefined;
  const { n: count, exact } = await countFiles(db, kind, filters, where, names);
  const terms = [dir(fileOrderColumns[order.field]), dir(dataFiles.id)];
  const offset = (page.page - 1) * page.pageSize;
  // A few files of a range of creation days, in another order than creation: all of them first
  // (the creation index holds them), then ordered. Walking the Last Update or name order for them
  // read every file updated or named before them first (66 ms for the last week at 1,000,000).
  if (order.field !== 'create_at' && (filters.createdFrom || filters.createdTo) && exact && count <= FEW_FILES) {
    // Its limit (never reached: count says so) keeps the planner from folding it into the ordered
    // walk. (drizzle leaves out an `offset 0`.)
    const few = db.select(fileColumns).from(dataFiles).where(where).limit(FEW_FILES).as('few');
    const rows = await db.select().from(few).orderBy(dir(few[order.field]), dir(few.id)).limit(page.pageSize).offset(offset);
    return { count, exact, rows };
  }
  if (order.field === 'name' && filters.subjectName && !filters.createdFrom && !filters.createdTo) {
    const merged = await subjectMergedPage(db, kind, filters, page, order);
    if (merged) return { count, exact, rows: merged };
  }
  // In name order under a name filter, the walk of the name index starts at the first matching name
  // and ends at the last: names alike sit together (a bank's code in each), and the walk read every
  // file named before them first (90 ms for name=HRB at 1,000,000).
  const bounded = order.field === 'name' && names;
  if (bounded && !names.first) return { count, exact, rows: [] };
  const matching = bounded ? and(where, between(dataFiles.name, names.first!, names.last!)) : where;
  if (order.field === 'name' && !filters.createdFrom && !filters.createdTo) {
    // The page's ids from the name index alone (it carries the subject: migration 0041), then
    // their rows: a file passed over is never read from the table.
    const walk = db
      .select({ id: dataFiles.id, name: dataFiles.name })
      .from(dataFiles)
      .where(matching)
      .orderBy(...terms)
      .limit(page.pageSize)
      .offset(offset)
      .as('walk');
    const rows = await db.select(fileColumns).from(walk).innerJoin(dataFiles, eq(dataFiles.id, walk.id)).orderBy(dir(walk.name), dir(walk.id));
    return { count, exact, rows };
  }
  const rows = await db
    .select(fileColumns)
    .from(dataFiles)
    .where(matching)
    .orderBy(...terms)
    .limit(page.pageSize)
    .offset(offset);
  return { count, exact, rows };
}

/** Up to this many matching subjects, and index entries read in all, a name-ordered page merges them. */
const MERGED_SUBJECTS = 2000;
const MERGED_ENTRIES = 100_000;

/**
 * A page in name order under a subject filter, merged from each matching subject's files in name
 * order (kind, subject_name, name, id): as many as the page needs from each. A subject names a
 * bank, and a bank's files are named alike, so the walk of the name index read every file named
 * before them first (27 ms for subject_name=harbor at 1,000,000 files, 6 at 100,000). Undefined
 * when the subjects are too many for it (a broad match: the walk finds its page at once).
 */
async function subjectMergedPage(db: Db, kind: DataFileKind, filters: DataFileFilters, page: Page, order: DataFileOrder) {
  const depth = page.page * page.pageSize;
  const matched = sql`select ${fileValues.value} as value from ${fileValues}
    where ${and(eq(fileValues.kind, kind), eq(fileValues.field, 'subject_name'), foldedContains(fileValues.folded, filters.subjectName!), sql`${fileValues.n} > 0`)}
    limit ${MERGED_SUBJECTS + 1}`;
  // Kept with data_files' write version, as the filter's count is (file_values is written with it).
  const subjects = (await keptAnswer(db, matched, ['data_files'], (read) => queryRows<{ value: string }>(read, matched))).map((s) => s.value);
  if (subjects.length > MERGED_SUBJECTS || subjects.length * depth > MERGED_ENTRIES) return undefined;
  if (subjects.length === 0) return [];
  const direction = sql.raw(order.descending ? 'desc' : 'asc');
  const picked = await queryRows<{ id: string | number }>(
    db,
    sql`select f.id from unnest(${sql.param(subjects)}::text[]) as s(subject)
        cross join lateral (
          select ${dataFiles.id} as id, ${dataFiles.name} as name from ${dataFiles}
          where ${and(eq(dataFiles.kind, kind), sql`${dataFiles.subjectName} = s.subject`, containsText(dataFiles.name, filters.name))}
          order by ${dataFiles.name} ${direction}, ${dataFiles.id} ${direction} limit ${depth}
        ) f
        order by f.name ${direction}, f.id ${direction} limit ${page.pageSize} offset ${depth - page.pageSize}`,
  );
  if (picked.length === 0) return [];
  const at = new Map(picked.map((p, i) => [Number(p.id), i]));
  const rows = await db
    .select(fileColumns)
    .from(dataFiles)
    .where(inArray(dataFiles.id, [...at.keys()]));
  return rows.sort((a, b) => at.get(a.id)! - at.get(b.id)!);
}

type Matching = { files: number; first: string | null; last: string | null };

/** One text filter and nothing else. */
const onlyText = (filters: DataFileFilters) => !filters.createdFrom && !filters.createdTo && !filters.name !== !filters.subjectName;

/**
 * A name or subject filter alone is counted by the files holding its matching values (file_values:
 * a narrow row per distinct value, matched lower-cased with LIKE, the same match as ILIKE). Any
 * other mix counts the files themselves.
 */
async function countFiles(db: Db, kind: DataFileKind, filters: DataFileFilters, where: SQL | undefined, names: Matching | undefined): Promise<Count> {
  if (onlyText(filters)) return { n: (names ?? (await matchingValues(db, kind, 'subject_name', filters.subjectName!))).files, exact: true };
  return countRows(db, sql`${dataFiles}`, where, ['data_files'], filters.counting);
}

/** How many files hold the values a text filter matches, and the first and last of those values (null: none). */
async function matchingValues(db: Db, kind: DataFileKind, field: 'name' | 'subject_name', text: string): Promise<Matching> {
  // Index-only for a broad match: the folded index includes n and the value. A broad name still
  // reads every matching value (one a file: 125,000 for one name in eight of 1,000,000 files), so
  // the answer is kept with data_files' write version (file_values is written with its rows).
  const query = (read: Db) =>
    read
      .select({ files: sql<string>`coalesce(sum(${fileValues.n}), 0)`, first: min(fileValues.value), last: max(fileValues.value) })
      .from(fileValues)
      .where(and(eq(fileValues.kind, kind), eq(fileValues.field, field), foldedContains(fileValues.folded, text), sql`${fileValues.n} > 0`));
  return keptAnswer(db, query(db).getSQL(), ['data_files'], async (read) => {
    const [row] = await query(read);
    return { files: Number(row?.files ?? 0), first: row?.first ?? null, last: row?.last ?? null };
  });
}

/** Every file of a kind, newest first (the unpaginated Excel, PDF and other-format lists). */
export async function listAllDataFiles(db: Db, kind: DataFileKind): Promise<DataFileRow[]> {
  return db.select(fileColumns).from(dataFiles).where(eq(dataFiles.kind, kind)).orderBy(desc(dataFiles.createAt), desc(dataFiles.id));
}

/**
 * A file of that kind and its rows as a JSON array text, built by PostgreSQL with the display-labelled
 * keys of the original (json keeps their order; dates as DD/MM/YY, amounts as text). The API
 * passes the text through, so a 5,000-row file is never turned into objects and back.
 */
export async function findDataFileWithLabelledRows(db: Db, kind: DataFileKind, id: number, responseKey: 'Response Code' | 'Response') {
  const [file] = await db
    .select({
      ...fileColumns,
      email_id: dataFiles.emailId,
      email_subject: sql<string | null>`(select e.subject from emails e where e.id = ${dataFiles.emailId})`,
    })
    .from(dataFiles)
    .where(and(eq(dataFiles.id, id), eq(dataFiles.kind, kind)));
  if (!file) return undefined;
  const r = dataFileRows;
  // Each row is the lateral's record, its columns named with the labels (row_to_json's keys, in
  // order): 6 ms less of the 5,000-row file's 42 than json_build_object's 38 arguments a row.
  const [row] = await queryRows<{ rows: string }>(
    db,
    sql`select coalesce(json_agg(labelled order by ${r.position}), '[]'::json)::text as rows
        from ${r} cross join lateral (select
          ${r.id} as "ID", ${r.atmId} as "ATM ID", ${r.cardNo} as "CARD No.", ${r.txtNo} as "TXT No.",
          to_char(${r.txtDate}, 'DD/MM/YY') as "TXT Date.(DD/MM/YY)", ${r.txtAmt}::text as "TXT Amt.",
          ${r.disputeAmt}::text as "Dispute Amt.", ${r.overage}::text as "Overage", ${r.mspRemarks} as "MSP Remarks",
          ${r.mspRefNo} as "MSP RefNo.", ${r.shortDesc} as "Short Desc.", ${r.ejError} as "EJ_Error",
          to_char(${r.complaintDate}, 'DD/MM/YY') as "Complaint Date/Received from MSP(DD/MM/YY)",
          ${r.shortDescription} as "Short_Description", ${r.mailReceivedFrom} as "Mail Received From",
          ${r.mailSubject} as "MailSubject", ${r.responseCode} as ${sql.identifier(responseKey)},
          (select d.id from disputes d where d.txt_no = ${r.txtNo} and d.atm_id = ${r.atmId} and ${r.txtNo} <> '' order by d.id limit 1) as dispute_id
        ) as labelled
        where ${r.dataFileId} = ${id}`,
  );
  return { file, rowsJson: row?.rows ?? '[]' };
}
