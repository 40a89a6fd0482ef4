// A month of EJ records past its retention, archived to a file and dropped, and brought back from
// that file. The file is the backup format (backup-file.ts): a tar sealed under a passphrase,
// holding a manifest and the month's rows as JSON, table by table in the order a restore inserts
// them. What a month takes with it: its EJ records, every dispute one of them belongs to (whole:
// the dispute's other records, and every row that hangs off the dispute by a cascading foreign
// key, found in the catalog so a table added later goes too), and their dispute_records rows.
// A month where one of those disputes is not resolved is kept: nothing is archived while its
// work is open. docs/operations.md says when the worker runs it and what a DBA runs by hand.
import { createWriteStream, renameSync, rmSync, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql, type SQL } from 'drizzle-orm';
import { extract, pack } from 'tar-stream';
import { audit } from '../audit/index.ts';
import { BackupError, openSealed, sealed, sealedHeader, type ScryptParams } from '../backup-file.ts';
import { queryRows, type Db } from '../client.ts';

const manifestEntry = 'ejdesk-archive.json';
/** Rows per tar entry: a month of a million records is read, written and restored in pieces. */
const batchRows = 5_000;

interface ArchiveManifest {
  format: 'ejdesk-archive';
  version: 1;
  kind: 'ej-records';
  month: string;
  made_at: string;
  /** The tables in the order a restore inserts them, with how many rows each. */
  tables: { name: string; rows: number }[];
}

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
 * The tables that hang off a dispute by a cascading foreign key (its events, stages, evidence,
 * alerts...): deleting the dispute deletes them, so the archive holds them. dispute_records is
 * written last, after the disputes and records it joins.
 */
async function disputeChildren(db: Db): Promise<{ table: string; column: string }[]> {
  return queryRows<{ table: string; column: string }>(
    db,
    sql`select c.conrelid::regclass::text as "table", a.attname as "column"
        from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
        where c.contype = 'f' and c.confrelid = 'disputes'::regclass and c.confdeltype = 'c'
          and array_length(c.conkey, 1) = 1 and c.conrelid <> 'dispute_records'::regclass
        order by 1`,
  );
}

/** The months of EJ records received before `before` (UTC), oldest first, with their record counts. */
export async function recordMonthsBefore(db: Db, before: Date): Promise<{ month: string; records: number }[]> {
  return queryRows<{ month: string; records: number }>(
    db,
    sql`select to_char(create_at at time zone 'UTC', 'YYYY-MM') as month, count(*)::int as records
        from ej_records where create_at < ${before.toISOString()}::timestamptz group by 1 order by 1`,
  );
}

/** Make the month partitions of `months` (this one and the next, each night) where missing. */
export async function makeRecordPartitions(db: Db, months: Date[]): Promise<void> {
  for (const month of months) await db.execute(sql`select ej_records_partition(${month.toISOString().slice(0, 10)}::date)`);
}

export interface ArchivedMonth {
  month: string;
  file: string;
  bytes: number;
  tables: { name: string; rows: number }[];
  /** Whether the month's partition was dropped (a month kept in the default partition has none). */
  dropped: boolean;
}

export interface ArchiveOptions {
  /** Where the archive is written (whole or not at all: a `.partial` beside it until it is). */
  file: string;
  passphrase: string;
  scrypt?: ScryptParams;
  /** Who asked, for the audit log: a user's id, or null for the worker. */
  userId: number | null;
}

/**
 * Archive the EJ records received in `month` (YYYY-MM, UTC) to a file, then delete them, their
 * disputes and those disputes' rows, and drop the month's partition: all in one transaction, so
 * a failure leaves the month as it was (and at worst a file that a later run writes again).
 * Refused, with nothing written, while one of its disputes is not resolved.
 */
export async function archiveRecordMonth(db: Db, month: string, options: ArchiveOptions): Promise<ArchivedMonth> {
  const { starts, ends } = monthBounds(month);
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    // One archiver at a time (two workers' nights, or a DBA's run beside one).
    await tx.execute(sql`select pg_advisory_xact_lock(727002)`);
    const inMonth = sql`create_at >= ${starts}::timestamptz and create_at < ${ends}::timestamptz`;
    const [found] = await queryRows<{ disputes: string[] | null; open: string[] | null; records: string[] | null }>(
      tx,
      sql`with linked as (
            select distinct dr.dispute_id from ej_records r join dispute_records dr on dr.record_id = r.id where ${inMonth}
          )
          select (select array_agg(dispute_id order by dispute_id)::text[] from linked) as disputes,
                 (select array_agg(d.id order by d.id)::text[] from disputes d join linked l on l.dispute_id = d.id where d.status <> 'resolved') as open,
                 (select array_agg(dr.record_id order by dr.record_id)::text[] from dispute_records dr join linked l on l.dispute_id = dr.dispute_id) as records`,
    );
    const open = found?.open ?? [];
    if (open.length > 0) {
      const shown = open.slice(0, 10).join(', ') + (open.length > 10 ? ', ...' : '');
      throw new RetentionRefusal(
        `${month} is kept: ${open.length} of its disputes ${open.length === 1 ? 'is' : 'are'} not resolved (${shown}). It is archived once they are.`,
      );
    }
    const disputeIds = sql.param(found?.disputes ?? []);
    const disputeRecordIds = sql.param(found?.records ?? []);
    const records = sql`(${inMonth} or id = any(${disputeRecordIds}::bigint[]))`;
    const children = await disputeChildren(tx);
    const parts: { name: string; where: SQL; key: string }[] = [
      { name: 'ej_records', where: records, key: 'id' },
      { name: 'disputes', where: sql`id = any(${disputeIds}::bigint[])`, key: 'id' },
      ...children.map(({ table, column }) => ({ name: table, where: sql`${sql.identifier(column)} = any(${disputeIds}::bigint[])`, key: 'ctid' })),
      { name: 'dispute_records', where: sql`dispute_id = any(${disputeIds}::bigint[])`, key: 'record_id' },
    ];
    const tables = await writeArchive(tx, month, parts, options);
    // The records first: their trigger takes their dispute_records rows; then the disputes, whose
    // foreign keys take the rows that hang off them.
    await tx.execute(sql`delete from ej_records where ${records}`);
    await tx.execute(sql`delete from disputes where id = any(${disputeIds}::bigint[])`);
    const [partition] = await queryRows<{ dropped: boolean }>(tx, sql`select ej_records_partition_drop(${starts.slice(0, 10)}::date) as dropped`);
    const dropped = partition?.dropped === true;
    const rows = tables.map((t) => `${t.rows} ${t.name}`).join(', ');
    await audit(tx, {
      userId: options.userId,
      action: 'retention.archive',
      entity: 'ej_records',
      entityId: month,
      detail: `${rows}; archived to ${options.file}`,
    });
    return { month, file: options.file, bytes: statSync(options.file).size, tables, dropped };
  });
}

/** Write the parts' rows, a batch per tar entry, into the sealed file; returns what it holds. */
async function writeArchive(
  tx: Db,
  month: string,
  parts: { name: string; where: SQL; key: string }[],
  options: ArchiveOptions,
): Promise<{ name: string; rows: number }[]> {
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
      const ordered = part.key === 'ctid' ? sql`` : sql`order by ${sql.identifier(part.key)}`;
      let after: string | null = null;
      for (;;) {
        // Keyset batches by the table's key; the small tables that hang off a dispute in one read.
        const from: SQL = after === null ? sql`` : sql`and ${sql.identifier(part.key)} > ${after}::bigint`;
        const limit = part.key === 'ctid' ? sql`` : sql`limit ${batchRows}`;
        const batch: { row: string; key: string | null }[] = await queryRows<{ row: string; key: string | null }>(
          tx,
          sql`select row_to_json(t)::text as row, ${part.key === 'ctid' ? sql`null` : sql.identifier(part.key)}::text as key
              from ${sql.identifier(part.name)} t where ${part.where} ${from} ${ordered} ${limit}`,
        );
        if (batch.length === 0) break;
        entry += 1;
        archive.entry({ name: `${part.name}/${String(entry).padStart(6, '0')}.json` }, `[${batch.map((r) => r.row).join(',\n')}]`);
        rows += batch.length;
        if (part.key === 'ctid' || batch.length < batchRows) break;
        after = batch[batch.length - 1]!.key;
      }
      tables.push({ name: part.name, rows });
    }
    const manifest: ArchiveManifest = { format: 'ejdesk-archive', version: 1, kind: 'ej-records', month, made_at: new Date().toISOString(), tables };
    archive.entry({ name: manifestEntry }, JSON.stringify(manifest, null, 2));
    archive.finalize();
    await written;
  } catch (error) {
    archive.destroy();
    await written.catch(() => undefined);
    rmSync(partial, { force: true });
    throw error;
  }
  renameSync(partial, options.file);
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
 * JSON, but a reference to a row that is gone since (a user removed, an email aged out) is what
 * its foreign key would have made of it: set to null, or the row left out with its parent.
 */
async function insertSql(tx: Db, table: string, archived: Set<string>): Promise<{ columns: SQL; values: SQL; keep: SQL }> {
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
  const gone = new Map(references.filter((r) => !archived.has(r.parent) || r.parent === table).map((r) => [r.column, r]));
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
  month: string;
  madeAt: string;
  tables: { name: string; rows: number }[];
}

/**
 * Put an archive's rows back: the month's partition made again, then each table in the archive's
 * order, in one transaction. Refused when its records are in the database already.
 */
export async function restoreRecordArchive(db: Db, file: string, passphrase: string, userId: number | null): Promise<RestoredArchive> {
  const { manifest, batches } = await readArchive(file, passphrase);
  const { starts } = monthBounds(manifest.month);
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    await tx.execute(sql`select pg_advisory_xact_lock(727002)`);
    await tx.execute(sql`select ej_records_partition(${starts.slice(0, 10)}::date)`);
    const firstRecords = batches.get('ej_records')?.[0];
    if (firstRecords) {
      const [present] = await queryRows<{ n: number }>(
        tx,
        sql`select count(*)::int as n from ej_records where id in (select id from json_populate_recordset(null::ej_records, ${firstRecords}::json))`,
      );
      if (present && present.n > 0) throw new BackupError(`The records of ${manifest.month} in ${file} are in the database already: nothing was restored.`);
    }
    const archived = new Set(manifest.tables.map((t) => t.name));
    const tables: { name: string; rows: number }[] = [];
    for (const { name } of manifest.tables) {
      const { columns, values, keep } = await insertSql(tx, name, archived);
      let rows = 0;
      for (const batch of batches.get(name) ?? []) {
        const [inserted] = await queryRows<{ n: number }>(
          tx,
          sql`with added as (
                insert into ${sql.identifier(name)} (${columns})
                select ${values} from json_populate_recordset(null::${sql.identifier(name)}, ${batch}::json) r where ${keep}
                returning 1
              ) select count(*)::int as n from added`,
        );
        rows += inserted?.n ?? 0;
      }
      tables.push({ name, rows });
    }
    const restored = tables.map((t) => `${t.rows} ${t.name}`).join(', ');
    await audit(tx, { userId, action: 'retention.restore', entity: 'ej_records', entityId: manifest.month, detail: `${restored}; from ${file}` });
    return { month: manifest.month, madeAt: manifest.made_at, tables };
  });
}
