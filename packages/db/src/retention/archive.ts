// A month past its retention, archived to a file and dropped, and brought back from that file.
// The file is the backup format (backup-file.ts): a tar sealed under a passphrase, holding a
// manifest and the month's rows as JSON, table by table in the order a restore inserts them.
// Three kinds age out, each by the month it was received (UTC):
// - EJ records: the month's records, every dispute one of them belongs to (whole: its other
//   records, and every row that hangs off it by a cascading foreign key, found in the catalog so a
//   table added later goes too) and their dispute_records rows. Kept while one of those disputes
//   is not resolved: nothing is archived while its work is open.
// - journals: the month's journals and what hangs off them (pages, transactions, counters), and
//   the disputes' evidence links to those transactions (restored with them). Kept while a dispute
//   whose evidence rests on one of them is not resolved.
// - ignored mail: the month's ignored emails and what hangs off them (the raw message).
// Rows are deleted through their parent tables, so every derived table stays exact; a month's
// partition (ej_records, journal_transactions), then empty, is dropped. docs/operations.md says
// when the worker runs it and what a DBA runs by hand.
import { closeSync, createWriteStream, existsSync, fsyncSync, linkSync, openSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql, type SQL } from 'drizzle-orm';
import { extract, pack } from 'tar-stream';
import { audit } from '../audit/index.ts';
import { BackupError, openSealed, sealed, sealedHeader, type ScryptParams } from '../backup-file.ts';
import { queryRows, type Db } from '../client.ts';

const manifestEntry = 'ejdesk-archive.json';
/** One archiver or restorer at a time (two workers' nights, or a DBA's run beside one). */
const retentionLock = sql`select pg_advisory_xact_lock(hashtextextended('retention', 0))`;
/** Rows per tar entry: a month of a million records is read, written and restored in pieces. */
const batchRows = 5_000;

interface ArchiveManifest {
  format: 'ejdesk-archive';
  version: 1;
  kind: RetentionKind;
  month: string;
  made_at: string;
  /** The tables in the order a restore inserts them, with how many rows each. */
  tables: { name: string; rows: number }[];
}

/** What ages out, each kind by the month it was received. */
export const retentionKinds = ['ej-records', 'journals', 'ignored-mail'] as const;
export type RetentionKind = (typeof retentionKinds)[number];

/** A month that may not be archived, and why, in the operators' words. */
export class RetentionRefusal extends Error {}

/** A month as the operators write it, YYYY-MM, and its bounds in UTC (the partitions' months). */
function monthBounds(month: string): { starts: string; ends: string } {
  const match = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
  if (!match) throw new RetentionRefusal(`${JSON.stringify(month)} is not a month: write it as YYYY-MM, e.g. 2019-01.`);
  const year = Number(match[1]);
  const m = Number(match[2]);
  const next = m === 12 ? `${year + 1}-01` : `${year}-${String(m + 1).padStart(2, '0')}`;
  return { starts: `${month}-01T00:00:00Z`, ends: `${next}-01T00:00:00Z` };
}

/**
 * The tables that hang off `parent` by a cascading foreign key (a dispute's events, stages,
 * evidence, alerts; a journal's pages, transactions, counters; an email's raw message): deleting
 * the parent deletes them, so the archive holds them. A partition's copy of a key is not counted.
 */
async function childrenOf(db: Db, parent: string, except: string[] = []): Promise<{ table: string; column: string }[]> {
  const rows = await queryRows<{ table: string; column: string }>(
    db,
    sql`select c.conrelid::regclass::text as "table", a.attname as "column"
        from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
        where c.contype = 'f' and c.confrelid = ${parent}::regclass and c.confdeltype = 'c' and c.conparentid = 0
          and array_length(c.conkey, 1) = 1
        order by 1`,
  );
  return rows.filter((r) => !except.includes(r.table));
}

/** The tables an archive of `kind` holds, as monthPlan writes them. */
async function archivedTables(tx: Db, kind: RetentionKind): Promise<string[]> {
  const children = async (parent: string, except: string[] = []) => (await childrenOf(tx, parent, except)).map((c) => c.table);
  if (kind === 'ej-records') return ['ej_records', 'disputes', ...(await children('disputes', ['dispute_records'])), 'dispute_records'];
  if (kind === 'journals') return ['journals', ...(await children('journals')), 'dispute_evidence'];
  return ['emails', ...(await children('emails'))];
}

/** The table whose create_at gives each kind's months, and which of its rows count. */
const roots: Record<RetentionKind, { table: string; only: SQL }> = {
  'ej-records': { table: 'ej_records', only: sql`true` },
  journals: { table: 'journals', only: sql`true` },
  'ignored-mail': { table: 'emails', only: sql`category = 'ignored'` },
};

/** The months of `kind` received before `before` (UTC), oldest first, with how many rows each. */
export async function monthsBefore(db: Db, kind: RetentionKind, before: Date): Promise<{ month: string; rows: number }[]> {
  const { table, only } = roots[kind];
  return queryRows<{ month: string; rows: number }>(
    db,
    sql`select to_char(create_at at time zone 'UTC', 'YYYY-MM') as month, count(*)::int as rows
        from ${sql.identifier(table)} where create_at < ${before.toISOString()}::timestamptz and ${only} group by 1 order by 1`,
  );
}

/** The tables stored by month (migrations 0062, 0063). */
const monthlyTables = ['ej_records', 'journal_transactions'];

/** Make the month partitions of `months` (this one and the next, each night) where missing. */
export async function makeMonthPartitions(db: Db, months: Date[]): Promise<void> {
  for (const table of monthlyTables) {
    for (const month of months) await db.execute(sql`select month_partition(${table}, ${month.toISOString().slice(0, 10)}::date)`);
  }
}

export interface ArchivedMonth {
  kind: RetentionKind;
  month: string;
  file: string;
  bytes: number;
  tables: { name: string; rows: number }[];
  /** Whether the month's partition was dropped (a month kept in the default partition has none). */
  dropped: boolean;
}

export interface ArchiveOptions {
  /** Where the archive is written (whole or not at all: a `.partial` beside it until it is); never over a file there. */
  file: string;
  /**
   * Nothing received from this instant on is removed: a month whose dispute has a record received
   * since is kept (the night's cutoff; by hand, the start of this month by default).
   */
  keepFrom?: Date;
  passphrase: string;
  scrypt?: ScryptParams;
  /** Who asked, for the audit log: a user's id, or null for the worker. */
  userId: number | null;
}

interface Part {
  name: string;
  where: SQL;
  /** The column the rows are read in batches by; null: the few rows that hang off a parent, in one read. */
  key: string | null;
}

const ids = (values: string[] | null | undefined) => sql`${sql.param(values ?? [])}::bigint[]`;
const listed = (values: string[]) => values.slice(0, 10).join(', ') + (values.length > 10 ? ', ...' : '');
const kept = (month: string, open: string[], what: string) =>
  new RetentionRefusal(
    `${month} is kept: ${open.length} ${open.length === 1 ? 'dispute' : 'disputes'} ${what} ${open.length === 1 ? 'is' : 'are'} not resolved (${listed(open)}). It is archived once they are.`,
  );

/** What a month of `kind` takes with it, and how it is deleted; a RetentionRefusal when it is kept. */
async function monthPlan(
  tx: Db,
  kind: RetentionKind,
  month: string,
  bounds: { starts: string; ends: string },
  keepFrom: Date,
): Promise<{ parts: Part[]; remove: SQL[]; partition: string | null } | null> {
  const receivedIn = (column: SQL) => sql`${column} >= ${bounds.starts}::timestamptz and ${column} < ${bounds.ends}::timestamptz`;
  const inMonth = receivedIn(sql`create_at`);
  if (kind === 'ej-records') {
    const [found] = await queryRows<{ any: boolean; disputes: string[] | null; open: string[] | null; records: string[] | null; newest: string | null }>(
      tx,
      sql`with linked as (
            select distinct dr.dispute_id from ej_records r join dispute_records dr on dr.record_id = r.id where ${receivedIn(sql`r.create_at`)}
          )
          select exists (select 1 from ej_records where ${inMonth}) as any,
                 (select array_agg(dispute_id order by dispute_id)::text[] from linked) as disputes,
                 (select array_agg(d.id order by d.id)::text[] from disputes d join linked l on l.dispute_id = d.id where d.status <> 'resolved') as open,
                 (select array_agg(dr.record_id order by dr.record_id)::text[] from dispute_records dr join linked l on l.dispute_id = dr.dispute_id) as records,
                 (select max(r.create_at)::text from dispute_records dr join linked l on l.dispute_id = dr.dispute_id join ej_records r on r.id = dr.record_id) as newest`,
    );
    if (!found?.any) return null;
    if (found.open?.length) throw kept(month, found.open, 'of its records');
    // A dispute goes whole, and no record received within the retention may go with it.
    if (found.newest && new Date(found.newest) >= keepFrom) {
      throw new RetentionRefusal(
        `${month} is kept: one of its disputes has a record received ${found.newest.slice(0, 10)}, within the retention. It is archived once that record is past it.`,
      );
    }
    const disputes = ids(found?.disputes);
    const records = sql`(${inMonth} or id = any(${ids(found?.records)}))`;
    return {
      parts: [
        { name: 'ej_records', where: records, key: 'id' },
        { name: 'disputes', where: sql`id = any(${disputes})`, key: 'id' },
        ...(await childrenOf(tx, 'disputes', ['dispute_records'])).map(({ table, column }) => ({
          name: table,
          where: sql`${sql.identifier(column)} = any(${disputes})`,
          key: null,
        })),
        { name: 'dispute_records', where: sql`dispute_id = any(${disputes})`, key: 'record_id' },
      ],
      // The records first: their trigger takes their dispute_records rows; then the disputes,
      // whose foreign keys take the rows that hang off them.
      remove: [sql`delete from ej_records where ${records}`, sql`delete from disputes where id = any(${disputes})`],
      partition: 'ej_records',
    };
  }
  if (kind === 'journals') {
    const [found] = await queryRows<{ journals: string[] | null; open: string[] | null }>(
      tx,
      sql`select (select array_agg(id order by id)::text[] from journals where ${inMonth}) as journals,
                 (select array_agg(distinct d.id)::text[] from dispute_evidence e
                    join journal_transactions t on t.id = e.transaction_id
                    join journals j on j.id = t.journal_id and ${receivedIn(sql`j.create_at`)}
                    join disputes d on d.id = e.dispute_id and d.status <> 'resolved') as open`,
    );
    if (!found?.journals?.length) return null;
    if (found.open?.length) throw kept(month, found.open, 'resting on its journals');
    const journals = ids(found?.journals);
    return {
      parts: [
        { name: 'journals', where: sql`id = any(${journals})`, key: 'id' },
        ...(await childrenOf(tx, 'journals')).map(({ table, column }) => ({
          name: table,
          where: sql`${sql.identifier(column)} = any(${journals})`,
          key: table === 'journal_transactions' ? 'id' : null,
        })),
        // The disputes' links to these transactions: cut by the delete, made again by a restore.
        {
          name: 'dispute_evidence',
          where: sql`transaction_id in (select id from journal_transactions where journal_id = any(${journals}))`,
          key: 'dispute_id',
        },
      ],
      remove: [sql`delete from journals where id = any(${journals})`],
      partition: 'journal_transactions',
    };
  }
  const [found] = await queryRows<{ emails: string[] | null }>(
    tx,
    sql`select array_agg(id order by id)::text[] as emails from emails where ${inMonth} and category = 'ignored'`,
  );
  if (!found?.emails?.length) return null;
  const emails = ids(found.emails);
  return {
    parts: [
      { name: 'emails', where: sql`id = any(${emails})`, key: 'id' },
      ...(await childrenOf(tx, 'emails')).map(({ table, column }) => ({ name: table, where: sql`${sql.identifier(column)} = any(${emails})`, key: null })),
    ],
    remove: [sql`delete from emails where id = any(${emails}) and category = 'ignored'`],
    partition: null,
  };
}

/**
 * Archive the `kind` received in `month` (YYYY-MM, UTC) to a file, then delete it (and what it
 * takes with it), in one transaction at REPEATABLE READ: what is deleted is what was read, and a
 * row changed meanwhile by another writer fails the run (tried again the next night) rather than
 * going unarchived. A failure leaves the month as it was. Then, in a short transaction of its
 * own, the month's emptied partition is dropped. Refused, with nothing written, while a dispute it
 * holds or supports is not resolved, or when the file is there already; null when the month holds
 * nothing (another worker archived it first).
 */
export async function archiveMonth(db: Db, kind: RetentionKind, month: string, options: ArchiveOptions): Promise<ArchivedMonth | null> {
  const { starts, ends } = monthBounds(month);
  const keepFrom = options.keepFrom ?? new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1));
  const archived = await db.transaction(
    async (transaction) => {
      const tx = transaction as unknown as Db;
      await tx.execute(retentionLock);
      const plan = await monthPlan(tx, kind, month, { starts, ends }, keepFrom);
      if (!plan) return null;
      if (existsSync(options.file)) {
        throw new RetentionRefusal(
          `${month} is kept: ${options.file} is there already, and an archive is never written over (was the month restored? Raise its retention, or move the file away).`,
        );
      }
      const tables = await writeArchive(tx, kind, month, plan.parts, options);
      for (const statement of plan.remove) await tx.execute(statement);
      const rows = tables.map((t) => `${t.rows} ${t.name}`).join(', ');
      await audit(tx, { userId: options.userId, action: 'retention.archive', entity: kind, entityId: month, detail: `${rows}; archived to ${options.file}` });
      return { tables, partition: plan.partition };
    },
    { isolationLevel: 'repeatable read' },
  );
  if (!archived) return null;
  let dropped = false;
  if (archived.partition) {
    // Its own transaction, briefly: DETACH locks the whole table, so it waits at most 10 s for
    // the lists' queries and is tried again the next night rather than stall them.
    const partition = archived.partition;
    dropped = await db.transaction(async (transaction) => {
      const tx = transaction as unknown as Db;
      await tx.execute(sql`set local lock_timeout = '10s'`);
      const [result] = await queryRows<{ dropped: boolean }>(tx, sql`select month_partition_drop(${partition}, ${starts.slice(0, 10)}::date) as dropped`);
      return result?.dropped === true;
    });
  }
  return { kind, month, file: options.file, bytes: statSync(options.file).size, tables: archived.tables, dropped };
}

/** Write the parts' rows, a batch per tar entry, into the sealed file; returns what it holds. */
async function writeArchive(tx: Db, kind: RetentionKind, month: string, parts: Part[], options: ArchiveOptions): Promise<{ name: string; rows: number }[]> {
  const archive = pack();
  const partial = `${options.file}.partial`;
  const written = pipeline(sealed(archive as AsyncIterable<Buffer>, options.passphrase, options.scrypt), createWriteStream(partial, { mode: 0o600 }));
  // A failed write is seen when it is awaited below; until then it must not end the process.
  written.catch(() => undefined);
  const tables: { name: string; rows: number }[] = [];
  try {
    for (const part of parts) {
      let rows = 0;
      let entry = 0;
      // Keyset batches by the table's key, or by ctid for the tables that hang off a parent (no
      // key of one column; never partitioned, so a ctid is unique there). A journal's pages are
      // its file: few to a batch.
      const key = part.key === null ? sql`ctid` : sql.identifier(part.key);
      const size = part.name === 'journal_pages' ? 50 : batchRows;
      let after: string | null = null;
      for (;;) {
        const from: SQL = after === null ? sql`` : part.key === null ? sql`and ctid > ${after}::tid` : sql`and ${key} > ${after}::bigint`;
        const batch: { row: string; key: string }[] = await queryRows<{ row: string; key: string }>(
          tx,
          sql`select row_to_json(t)::text as row, ${key}::text as key
              from ${sql.identifier(part.name)} t where ${part.where} ${from} order by ${key} limit ${size}`,
        );
        if (batch.length === 0) break;
        entry += 1;
        archive.entry({ name: `${part.name}/${String(entry).padStart(6, '0')}.json` }, `[${batch.map((r) => r.row).join(',\n')}]`);
        rows += batch.length;
        if (batch.length < size) break;
        after = batch[batch.length - 1]!.key;
      }
      tables.push({ name: part.name, rows });
    }
    const manifest: ArchiveManifest = { format: 'ejdesk-archive', version: 1, kind, month, made_at: new Date().toISOString(), tables };
    archive.entry({ name: manifestEntry }, JSON.stringify(manifest, null, 2));
    archive.finalize();
    await written;
  } catch (error) {
    archive.destroy();
    await written.catch(() => undefined);
    rmSync(partial, { force: true });
    throw error;
  }
  // On disk before any row is deleted: the file's bytes, then its name (never over another file), then the folder's entry.
  const fd = openSync(partial, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  linkSync(partial, options.file);
  unlinkSync(partial);
  const folder = openSync(dirname(options.file), 'r');
  try {
    fsyncSync(folder);
  } finally {
    closeSync(folder);
  }
  return tables;
}

/** The manifest and each table's batches of an archive file, opened with its passphrase. */
async function readArchive(file: string, passphrase: string): Promise<{ manifest: ArchiveManifest; batches: Map<string, string[]> }> {
  const header = sealedHeader(file);
  if (!header) throw new BackupError(`${file} is not an EJ Desk archive.`);
  const content = await openSealed(file, header, passphrase);
  const entries = new Map<string, string>();
  const reader = extract();
  Readable.from([content]).pipe(reader);
  try {
    for await (const entry of reader) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      entries.set(entry.header.name, Buffer.concat(chunks).toString('utf8'));
    }
  } catch (error) {
    throw new BackupError(`${file} is not an EJ Desk archive (${(error as Error).message}).`);
  }
  let manifest: ArchiveManifest;
  try {
    manifest = JSON.parse(entries.get(manifestEntry) ?? '') as ArchiveManifest;
  } catch {
    throw new BackupError(`${file} is not an EJ Desk archive (it is an EJ Desk backup: restore it with pnpm restore).`);
  }
  if (manifest.format !== 'ejdesk-archive' || manifest.version !== 1) throw new BackupError(`${file} is an archive of another format or version.`);
  const batches = new Map(
    manifest.tables.map((t) => [
      t.name,
      [...entries.keys()]
        .filter((name) => name.startsWith(`${t.name}/`))
        .sort()
        .map((name) => entries.get(name)!),
    ]),
  );
  return { manifest, batches };
}

/**
 * How a table's archived rows are inserted: every stored column (not a generated one) from the
 * JSON, but a reference to a row that is not there (a user removed since, an email aged out, a
 * journal another archive holds) is what its foreign key would have made of it: set to null, or
 * the row left out with its parent. The archive's own parents are inserted first, so they are.
 */
async function insertSql(tx: Db, table: string): Promise<{ columns: SQL; values: SQL; keep: SQL }> {
  const columns = await queryRows<{ name: string }>(
    tx,
    sql`select attname as name from pg_attribute where attrelid = ${table}::regclass and attnum > 0 and not attisdropped and attgenerated = '' order by attnum`,
  );
  const references = await queryRows<{ column: string; parent: string; parent_column: string; on_delete: string }>(
    tx,
    sql`select a.attname as "column", c.confrelid::regclass::text as parent, pa.attname as parent_column, c.confdeltype::text as on_delete
        from pg_constraint c
        join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
        join pg_attribute pa on pa.attrelid = c.confrelid and pa.attnum = c.confkey[1]
        where c.contype = 'f' and c.conrelid = ${table}::regclass and array_length(c.conkey, 1) = 1`,
  );
  const gone = new Map(references.map((r) => [r.column, r]));
  const present = (r: { column: string; parent: string; parent_column: string }) =>
    sql`(r.${sql.identifier(r.column)} is null or exists (select 1 from ${sql.identifier(r.parent)} p where p.${sql.identifier(r.parent_column)} = r.${sql.identifier(r.column)}))`;
  const values = columns.map(({ name }) => {
    const reference = gone.get(name);
    return reference?.on_delete === 'n' ? sql`case when ${present(reference)} then r.${sql.identifier(name)} end` : sql`r.${sql.identifier(name)}`;
  });
  const kept = [...gone.values()].filter((r) => r.on_delete !== 'n').map(present);
  return {
    columns: sql.join(
      columns.map((c) => sql.identifier(c.name)),
      sql`, `,
    ),
    values: sql.join(values, sql`, `),
    keep: kept.length ? sql.join(kept, sql` and `) : sql`true`,
  };
}

export interface RestoredArchive {
  kind: RetentionKind;
  month: string;
  madeAt: string;
  /** The rows put back, table by table (fewer than archived where a row is there already). */
  tables: { name: string; rows: number }[];
}

/**
 * Put an archive's rows back: the month's partitions made again, then each table in the
 * archive's order, in one transaction; a journal's links from the disputes' evidence are made
 * again where the evidence has none. Refused when its rows are in the database already.
 */
export async function restoreArchive(db: Db, file: string, passphrase: string, userId: number | null): Promise<RestoredArchive> {
  const { manifest, batches } = await readArchive(file, passphrase);
  const { starts } = monthBounds(manifest.month);
  const kind = manifest.kind;
  if (!retentionKinds.includes(kind)) throw new BackupError(`${file} holds an archive of an unknown kind (${String(kind)}).`);
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    await tx.execute(retentionLock);
    // Only the tables an archive of its kind holds: a file sealed by someone else with the
    // passphrase writes nothing anywhere else (no users, no approvals).
    const allowed = new Set(await archivedTables(tx, kind));
    const foreign = manifest.tables.map((t) => t.name).filter((name) => !allowed.has(name));
    if (foreign.length) throw new BackupError(`${file} holds tables an archive of ${kind} never holds (${foreign.join(', ')}): nothing was restored.`);
    await makeMonthPartitions(tx, [new Date(starts)]);
    const root = roots[kind].table;
    const first = batches.get(root)?.[0];
    if (first) {
      const [present] = await queryRows<{ n: number }>(
        tx,
        sql`select count(*)::int as n from ${sql.identifier(root)} where id in (select id from json_populate_recordset(null::${sql.identifier(root)}, ${first}::json))`,
      );
      if (present && present.n > 0) throw new BackupError(`The ${kind} of ${manifest.month} in ${file} are in the database already: nothing was restored.`);
    }
    const tables: { name: string; rows: number }[] = [];
    for (const { name } of manifest.tables) {
      const relink = kind === 'journals' && name === 'dispute_evidence';
      const { columns, values, keep } = await insertSql(tx, name);
      let rows = 0;
      for (const batch of batches.get(name) ?? []) {
        const [changed] = await queryRows<{ n: number }>(
          tx,
          relink
            ? sql`with linked as (
                    update dispute_evidence e set transaction_id = r.transaction_id
                    from json_populate_recordset(null::dispute_evidence, ${batch}::json) r
                    where e.dispute_id = r.dispute_id and e.transaction_id is null
                      and exists (select 1 from journal_transactions t where t.id = r.transaction_id)
                    returning 1
                  ) select count(*)::int as n from linked`
            : sql`with added as (
                    insert into ${sql.identifier(name)} (${columns})
                    select ${values} from json_populate_recordset(null::${sql.identifier(name)}, ${batch}::json) r where ${keep}
                    on conflict do nothing
                    returning 1
                  ) select count(*)::int as n from added`,
        );
        rows += changed?.n ?? 0;
      }
      tables.push({ name, rows });
      // Every archived row back, or none: a row there already (the same file received again
      // since, under another id) or whose parent is gone is named, and the restore undone.
      const expected = manifest.tables.find((t) => t.name === name)!.rows;
      if (!relink && rows !== expected) {
        throw new BackupError(
          `${expected - rows} of the ${expected} ${name} rows in ${file} cannot be put back (the database holds them, or what they belong to, under another id): nothing was restored.`,
        );
      }
    }
    const restored = tables.map((t) => `${t.rows} ${t.name}`).join(', ');
    await audit(tx, { userId, action: 'retention.restore', entity: kind, entityId: manifest.month, detail: `${restored}; from ${file}` });
    return { kind, month: manifest.month, madeAt: manifest.made_at, tables };
  });
}
